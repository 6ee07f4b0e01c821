/**
 * The figures the database keeps (migration 0013) stay what a recount of the rows gives, after every
 * kind of write: accounts created, renewed, recovered, suspended, deleted, moved with their owner's
 * branch, changed by direct SQL; credits moved; and the backfill on an existing database. The
 * dashboard, the analytics and the member lists built on them answer what counting the rows answers.
 */
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { EXPIRY_WARNING_DAYS } from '../../src/contract';
import * as keptFigures from '../../server/db/migrations/0013_kept_figures';
import type { Database } from '../../server/db/schema';
import { spansOf, tallyProblems } from '../../server/db/tallies';
import { ownedWithin, within } from '../../server/http/scope';
import { DAY, createAccount, inDays } from './accountFixtures';
import { describeEachDatabase } from './harness';
import { type Created, createBranch, createDealer, createManager, insertAccounts } from './hierarchyFixtures';

describe('spans of a time range', () => {
  const at = (s: string, inclusive = true) => ({ at: s, inclusive });
  it('reads a part of one day from the rows', () => {
    expect(spansOf(at('2026-03-04T10:00:00.000Z'), at('2026-03-04T12:00:00.000Z'))).toEqual({
      rows: [{ from: at('2026-03-04T10:00:00.000Z'), to: at('2026-03-04T12:00:00.000Z') }],
      days: [],
      months: [],
      minusDays: [],
    });
    expect(spansOf(at('2026-03-04T12:00:00.000Z'), at('2026-03-04T10:00:00.000Z'))).toEqual({ rows: [], days: [], months: [], minusDays: [] });
  });
  it('splits a range into edge rows, edge days and whole months', () => {
    expect(spansOf(at('2025-11-25T10:00:00.000Z'), at('2026-11-25T10:00:00.000Z'))).toEqual({
      rows: [
        { from: at('2025-11-25T10:00:00.000Z'), to: at('2025-11-26', false) },
        { from: at('2026-11-25'), to: at('2026-11-25T10:00:00.000Z') },
      ],
      days: [['2025-11-26', '2025-11-30']],
      // November 2026 up to the 24th: the month less its last six days.
      months: [
        ['2025-12', '2026-10'],
        ['2026-11', '2026-11'],
      ],
      minusDays: [['2026-11-25', '2026-11-30']],
    });
    expect(spansOf(at('2026-01-31T10:00:00.000Z'), at('2026-03-01T00:00:00.000Z')).months).toEqual([['2026-02', '2026-02']]);
    expect(spansOf(at('2026-02-10T10:00:00.000Z'), at('2026-02-20T00:00:00.000Z')).days).toEqual([['2026-02-11', '2026-02-19']]);
    expect(spansOf(at('2026-02-01T10:00:00.000Z'), at('2026-02-27T00:00:00.000Z'))).toMatchObject({
      days: [],
      months: [['2026-02', '2026-02']],
      minusDays: [
        ['2026-02-01', '2026-02-01'],
        ['2026-02-27', '2026-02-28'],
      ],
    });
    expect(spansOf(at('2026-02-10T10:00:00.000Z'), at('2026-02-11T00:00:00.000Z')).days).toEqual([]);
    expect(spansOf(at('2026-02-10T10:00:00.000Z', false), null)).toEqual({
      rows: [{ from: at('2026-02-10T10:00:00.000Z', false), to: at('2026-02-11', false) }],
      days: [],
      months: [
        ['2026-02', '2026-02'],
        ['2026-03', null],
      ],
      minusDays: [['2026-02-01', '2026-02-10']],
    });
  });
});

type Actor = { id: number; role: string; path: string };

/** The dashboard's account and ledger figures counted from the rows, as before they were kept. */
async function recounted(db: Kysely<Database>, actor: Actor, from: string, to: string) {
  const now = new Date().toISOString();
  const soon = new Date(Date.now() + EXPIRY_WARNING_DAYS * DAY).toISOString();
  const accounts = await db
    .selectFrom('accounts')
    .where(within(actor, 'owner_path'))
    .where('deleted_at', 'is', null)
    .select([
      sql<number>`count(*)`.as('total'),
      sql<number>`coalesce(sum(case when status = 'active' and expiry_date > ${now} then 1 else 0 end), 0)`.as('active'),
      sql<number>`coalesce(sum(case when expiry_date is not null and expiry_date <= ${now} then 1 else 0 end), 0)`.as('expired'),
      sql<number>`coalesce(sum(case when expiry_date >= ${now} and expiry_date <= ${soon} then 1 else 0 end), 0)`.as('expiring'),
    ])
    .executeTakeFirstOrThrow();
  const entries = await db
    .selectFrom('credit_transactions as t')
    .where(ownedWithin(actor, 't.user_id'))
    .where('t.created_at', '>=', from)
    .where('t.created_at', '<=', to)
    .select([
      sql<number>`coalesce(sum(case when t.type = 'PURCHASED' and t.user_id != ${actor.id} then t.credits else 0 end), 0)`.as('sold'),
      sql<number>`coalesce(sum(case when t.type = 'USED' and t.account_id is not null then -t.credits else 0 end), 0)`.as('spent'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total_users: Number(accounts.total),
    active_users: Number(accounts.active),
    expired_users: Number(accounts.expired),
    expiring_users: Number(accounts.expiring),
    credits_sold: Number(entries.sold),
    monthly_revenue: Number(entries.spent),
  };
}

describeEachDatabase('kept figures', (ctx) => {
  const db = () => ctx.db.kysely;
  const actorOf = (username: string) => db().selectFrom('users').select(['id', 'role', 'path']).where('username', '=', username).executeTakeFirstOrThrow();

  /** Every tally agrees with a recount; the dashboard of each caller with the rows; the lists' counts too. */
  async function expectExact(usernames: string[]) {
    expect(await tallyProblems(db())).toEqual([]);
    const from = new Date(Date.now() - 400 * DAY).toISOString();
    const to = new Date(Date.now() + DAY).toISOString();
    for (const username of usernames) {
      const res = await (await ctx.as(username)).get(`/dashboard/stats?date_from=${encodeURIComponent(from)}&date_to=${encodeURIComponent(to)}`);
      expect(res.status).toBe(200);
      const { total_users, active_users, expired_users, expiring_users, credits_sold, monthly_revenue } = res.body.data;
      expect({ total_users, active_users, expired_users, expiring_users, credits_sold, monthly_revenue }, username).toEqual(
        await recounted(db(), await actorOf(username), from, to),
      );
    }
    const admin = await ctx.as('admin');
    for (const resource of ['managers', 'resellers', 'dealers']) {
      const listed = (await admin.get(`/${resource}?per_page=100`)).body.data as Array<{ id: number; total_accounts: number }>;
      for (const user of listed) {
        const path = (await db().selectFrom('users').select('path').where('id', '=', user.id).executeTakeFirstOrThrow()).path;
        const counted = await db()
          .selectFrom('accounts')
          .where(within({ id: user.id, role: 'dealer', path }, 'owner_path'))
          .where('deleted_at', 'is', null)
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow();
        expect(user.total_accounts, `${resource} ${user.id}`).toBe(Number(counted.n));
      }
    }
  }

  let branch: { manager: Created; reseller: Created; dealer: Created };
  const accounts: number[] = [];

  it('agree with the rows after the demo seed, and after a backfill of the existing rows', async () => {
    await expectExact(['admin', 'manager', 'reseller', 'dealer']);
    // As the migrator runs it: in a transaction.
    await db()
      .transaction()
      .execute(async (trx) => {
        await keptFigures.down(trx);
        await keptFigures.up(trx);
      });
    expect(await tallyProblems(db())).toEqual([]);
  });

  it('follow accounts created, renewed, recovered, suspended and deleted through the API', async () => {
    branch = await createBranch(ctx, { dealer: 200 });
    for (let i = 0; i < 4; i++) accounts.push((await createAccount(ctx, branch.dealer.username)).id);
    const dealer = branch.dealer.client;
    expect((await dealer.post(`/accounts/${accounts[0]}/credits`, { action: 'renew', months: 3 })).status).toBe(200);
    expect((await dealer.post(`/accounts/${accounts[1]}/credits`, { action: 'renew', months: 12 })).status).toBe(200);
    expect((await dealer.post(`/accounts/${accounts[1]}/credits`, { action: 'recover', months: 6 })).status).toBe(200);
    expect((await dealer.post('/accounts/bulk-renew', { account_ids: accounts, months: 1 })).status).toBe(200);
    expect((await dealer.post('/accounts/bulk-suspend', { account_ids: [accounts[2]] })).status).toBe(200);
    expect((await dealer.delete(`/accounts/${accounts[3]}`)).status).toBe(204);
    await expectExact(['admin', 'manager', branch.manager.username, branch.reseller.username, branch.dealer.username]);
  });

  it('follow credit moves and branches moved under another parent', async () => {
    const admin = await ctx.as('admin');
    expect((await admin.post(`/managers/${branch.manager.id}/credits`, { action: 'renew', credits: 50 })).status).toBe(200);
    expect((await branch.manager.client.post(`/resellers/${branch.reseller.id}/credits`, { action: 'renew', credits: 20 })).status).toBe(200);
    expect((await branch.manager.client.post(`/resellers/${branch.reseller.id}/credits`, { action: 'recover', credits: 5 })).status).toBe(200);
    const other = await createManager(ctx);
    expect((await admin.put(`/resellers/${branch.reseller.id}`, { manager: other.id })).status).toBe(200);
    const lone = await createDealer(ctx, branch.reseller.client);
    await createAccount(ctx, lone.username);
    expect((await admin.post(`/dealers/${lone.id}/promote`, { manager_id: other.id })).status).toBe(200);
    await expectExact(['admin', other.username, branch.reseller.username, branch.dealer.username, lone.username]);
  });

  it('follow rows written by direct SQL and batched inserts', async () => {
    const ids = await insertAccounts(ctx, branch.dealer.id, 30);
    // Expiries today (both sides of now), tomorrow, later this month and in later months.
    const expiries = [-2, -0.01, 0.01, 0.3, 1, 5, 20, 40, 200, -40].map((d) => inDays(d));
    for (const [i, id] of ids.entries()) {
      await db()
        .updateTable('accounts')
        .set({ expiry_date: i < 20 ? expiries[i % expiries.length] : null })
        .where('id', '=', id)
        .execute();
    }
    await db().updateTable('accounts').set({ status: 'inactive' }).where('id', 'in', ids.slice(0, 5)).execute();
    await db().updateTable('accounts').set({ deleted_at: new Date().toISOString() }).where('id', 'in', ids.slice(5, 8)).execute();
    await db().updateTable('accounts').set({ deleted_at: null }).where('id', '=', ids[5]).execute();
    const dealer = await actorOf('dealer');
    await db().updateTable('accounts').set({ owner_id: dealer.id, owner_path: dealer.path }).where('id', 'in', ids.slice(10, 14)).execute();
    await db()
      .updateTable('accounts')
      .set({ created_at: inDays(-100) })
      .where('id', 'in', ids.slice(14, 16))
      .execute();
    await db().deleteFrom('accounts').where('id', 'in', ids.slice(20, 25)).execute();
    // Untouched counted columns, and a statement that changes nothing at all.
    await db().updateTable('accounts').set({ state: 'online' }).where('id', 'in', ids).execute();
    await db()
      .updateTable('accounts')
      .set({ status: sql`status` })
      .where('id', 'in', ids)
      .execute();
    await expectExact(['admin', branch.dealer.username, 'dealer', branch.reseller.username]);

    const admin = await ctx.as('admin');
    const expiring = (await admin.get('/analytics/expiring')).body.data.counts;
    const now = new Date().toISOString();
    for (const [days, key] of [
      [7, 'days_7'],
      [30, 'days_30'],
      [90, 'days_90'],
    ] as const) {
      const counted = await db()
        .selectFrom('accounts')
        .where('deleted_at', 'is', null)
        .where('expiry_date', '>', now)
        .where('expiry_date', '<=', inDays(days))
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      expect(expiring[key], key).toBe(Number(counted.n));
    }
    const renewals = (await admin.get('/analytics/renewals')).body.data as Array<{ period: string; new_accounts: number; renewals: number }>;
    const created = await db()
      .selectFrom('accounts')
      .where('created_at', '>=', new Date(Date.now() - 365 * DAY).toISOString())
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(renewals.reduce((sum, p) => sum + p.new_accounts, 0)).toBe(Number(created.n));
  });

  it('give the analytics the rows give', async () => {
    const admin = await ctx.as('admin');
    const from = new Date(Date.now() - 365 * DAY).toISOString();
    const to = new Date().toISOString();
    const month = (c: string) => sql<string>`substr(${sql.ref(c)}, 1, 7)`;
    const used = () => db().selectFrom('credit_transactions as t').where('t.type', '=', 'USED').where('t.created_at', '>=', from).where('t.created_at', '<=', to);

    const flow = await db()
      .selectFrom('credit_transactions as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .where('t.type', '=', 'PURCHASED')
      .where('t.created_at', '>=', from)
      .where('t.created_at', '<=', to)
      .where('t.credits', '>', 0)
      .where('u.role', 'in', ['manager', 'reseller', 'dealer'])
      .select([month('t.created_at').as('period'), 'u.role', sql<number>`sum(t.credits)`.as('credits'), sql<number>`count(*)`.as('entries')])
      .groupBy([month('t.created_at'), 'u.role'])
      .orderBy(month('t.created_at'))
      .orderBy('u.role')
      .execute();
    expect((await admin.get('/analytics/credits-flow')).body.data).toEqual(flow.map((r) => ({ ...r, credits: Number(r.credits), entries: Number(r.entries) })));

    const renewals = await used()
      .where('t.account_id', 'is not', null)
      .select([month('t.created_at').as('period'), sql<number>`count(*)`.as('renewals'), sql<number>`sum(-t.credits)`.as('credits')])
      .groupBy(month('t.created_at'))
      .execute();
    const created = await db()
      .selectFrom('accounts as a')
      .where('a.created_at', '>=', from)
      .where('a.created_at', '<=', to)
      .select([month('a.created_at').as('period'), sql<number>`count(*)`.as('n')])
      .groupBy(month('a.created_at'))
      .execute();
    const answered = (await admin.get('/analytics/renewals')).body.data as Array<{ period: string; renewals: number; credits: number; new_accounts: number }>;
    for (const p of answered) {
      const r = renewals.find((x) => x.period === p.period);
      expect(p, p.period).toEqual({
        period: p.period,
        renewals: Number(r?.renewals ?? 0),
        credits: Number(r?.credits ?? 0),
        new_accounts: Number(created.find((x) => x.period === p.period)?.n ?? 0),
      });
    }

    for (const role of ['dealer', 'reseller'] as const) {
      const top = await used()
        .innerJoin('users as u', 'u.id', 't.user_id')
        .where('u.role', '=', role)
        .select([
          'u.id',
          'u.name',
          'u.username',
          'u.role',
          sql<number>`sum(-t.credits)`.as('credits_spent'),
          sql<number>`sum(case when t.account_id is not null then 1 else 0 end)`.as('renewals'),
        ])
        .groupBy(['u.id', 'u.name', 'u.username', 'u.role'])
        .orderBy(sql`sum(-t.credits)`, 'desc')
        .orderBy('u.id')
        .limit(10)
        .execute();
      expect((await admin.get(`/analytics/top-users?role=${role}`)).body.data, role).toEqual(
        top.map((r) => ({ ...r, credits_spent: Number(r.credits_spent), renewals: Number(r.renewals) })),
      );
    }
  });
});
