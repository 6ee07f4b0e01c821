/**
 * The auto-renew scheduler: renews due accounts once, charging the owner; records an unaffordable
 * renewal once and does not retry it; and renews a due account exactly once when two runners race,
 * on one connection pool and (PostgreSQL) from two separate pools as two API processes would.
 */
import { expect, it } from 'vitest';
import { ACCOUNTS, CREDITS } from '../../src/contract';
import { DUE_AHEAD_MS, runAutoRenew } from '../../server/jobs/autoRenew';
import { addMonths } from '../../server/accounts/dates';
import { hashPassword } from '../../server/auth/passwords';
import { connect } from '../../server/db/connect';
import { inTransaction } from '../../server/db/transaction';
import { jobs } from '../../server/jobs';
import { runExclusive } from '../../server/jobs/scheduler';
import { postChanges } from '../../server/ledger/post';
import { insertUser } from '../../server/users';
import { accountRow, balance, createAccount, entriesFor, inDays, setAccount } from './accountFixtures';
import { type TestContext, describeEachDatabase } from './harness';

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** An account of `owner` that is due now, with auto-renew for `months`. */
async function dueAccount(ctx: TestContext, owner: string, months = 1, expiry = inDays(-0.0001)) {
  const account = await createAccount(ctx, owner);
  await setAccount(ctx, account.id, { expiry_date: expiry, auto_renew_months: months });
  return { ...account, expiry };
}

const usedEntries = async (ctx: TestContext, id: number) => (await entriesFor(ctx, id)).filter((e) => e.type === 'USED');

describeEachDatabase(
  'auto-renew',
  (ctx) => {
    it('renews a due account for its months from its expiry, charging the owner, once', async () => {
      const expiry = new Date(Date.now() + DUE_AHEAD_MS / 2).toISOString();
      const account = await dueAccount(ctx, 'dealer', 2, expiry);
      // The reseller set auto-renew up; the dealer (owner) still pays.
      await (await ctx.as('reseller')).post(`/accounts/${account.id}/auto-renew`, { months: 2 });
      const dealerBefore = await balance(ctx, 'dealer');
      const resellerBefore = await balance(ctx, 'reseller');

      const report = await runAutoRenew(ctx.db.kysely);
      expect(report.renewed).toContain(account.id);
      const row = await accountRow(ctx, account.id);
      expect(row.expiry_date).toBe(addMonths(new Date(expiry), 2).toISOString());
      expect((await balance(ctx, 'dealer')).credits).toBe(dealerBefore.credits - 2);
      expect(await balance(ctx, 'reseller')).toEqual(resellerBefore);
      const [entry] = await usedEntries(ctx, account.id);
      expect(entry).toMatchObject({
        credits: -2,
        coverage_start: expiry,
        coverage_end: row.expiry_date,
        remarks: `Auto-renewal of ${account.login} for 2 months`,
        actor_id: null,
      });

      const again = await runAutoRenew(ctx.db.kysely);
      expect(again.renewed).not.toContain(account.id);
      expect(await usedEntries(ctx, account.id)).toHaveLength(1);
      const audit = await ctx.db.kysely
        .selectFrom('audit_logs')
        .select(['action', 'username'])
        .where('entity_id', '=', account.id)
        .where('action', '=', 'auto_renew')
        .execute();
      expect(audit).toEqual([
        { action: 'auto_renew', username: 'reseller' },
        { action: 'auto_renew', username: null },
      ]);
    });

    it('leaves alone accounts not yet due, past their end date, suspended, deleted or without auto-renew', async () => {
      const later = await dueAccount(ctx, 'dealer', 1, inDays(2));
      const ended = await dueAccount(ctx, 'dealer');
      await setAccount(ctx, ended.id, { auto_renew_end_date: inDays(-1) });
      const suspended = await dueAccount(ctx, 'dealer');
      await setAccount(ctx, suspended.id, { status: 'suspended' });
      const off = await dueAccount(ctx, 'dealer');
      await setAccount(ctx, off.id, { auto_renew_months: null });
      const deleted = await dueAccount(ctx, 'dealer');
      await (await ctx.as('dealer')).delete(`/accounts/${deleted.id}`);
      const report = await runAutoRenew(ctx.db.kysely);
      for (const a of [later, ended, suspended, off, deleted]) {
        expect(report.renewed).not.toContain(a.id);
        expect(await usedEntries(ctx, a.id)).toHaveLength(0);
      }
    });

    it('records an unaffordable renewal once and does not retry it until auto-renew is enabled again', async () => {
      const reseller2 = await ctx.db.kysely.selectFrom('users').selectAll().where('username', '=', 'reseller2').executeTakeFirstOrThrow();
      const poor = await insertUser(ctx.db.kysely, reseller2, {
        role: 'dealer',
        username: `poor${Date.now()}`,
        name: 'Poor Dealer',
        password_hash: await hashPassword('password123'),
      });
      const account = await dueAccount(ctx, poor.username, 3);
      const report = await runAutoRenew(ctx.db.kysely);
      expect(report.failed).toEqual([account.id]);
      const failed = await accountRow(ctx, account.id);
      expect(failed.auto_renew_failed_at).not.toBeNull();
      expect(failed.auto_renew_error).toBe(CREDITS.insufficientCredits(3, 0));
      expect(failed.expiry_date).toBe(account.expiry);
      const shown = await (await ctx.as('reseller2')).get(`/accounts/${account.id}`);
      expect(shown.body.data).toMatchObject({ auto_renew_months: 3, auto_renew_error: CREDITS.insufficientCredits(3, 0) });

      const second = await runAutoRenew(ctx.db.kysely);
      expect(second.failed).not.toContain(account.id);
      expect(second.renewed).not.toContain(account.id);
      const audits = await ctx.db.kysely
        .selectFrom('audit_logs')
        .select('action')
        .where('entity_id', '=', account.id)
        .where('action', '=', 'auto_renew_failed')
        .execute();
      expect(audits).toHaveLength(1);

      // The owner gets credits and enables auto-renew again: the next run renews.
      await inTransaction(ctx.db.kysely, (trx) =>
        postChanges(trx, [{ userId: poor.id, type: 'PURCHASED', credits: 5, counterpartyId: reseller2.id }], { actorId: reseller2.id }),
      );
      expect((await runAutoRenew(ctx.db.kysely)).renewed).not.toContain(account.id);
      const enable = await (await ctx.as('reseller2')).post(`/accounts/${account.id}/auto-renew`, { months: 3 });
      expect(enable.body.data.auto_renew_failed_at).toBeNull();
      expect((await runAutoRenew(ctx.db.kysely)).renewed).toEqual([account.id]);
      expect((await balance(ctx, poor.username)).credits).toBe(2);
    });

    it('does not charge an owner that is suspended, inactive or deleted: records it once and leaves the account', async () => {
      const reseller2 = await ctx.db.kysely.selectFrom('users').selectAll().where('username', '=', 'reseller2').executeTakeFirstOrThrow();
      for (const status of ['suspended', 'inactive', 'deleted']) {
        const owner = await insertUser(ctx.db.kysely, reseller2, {
          role: 'dealer',
          username: `${status}${Date.now()}`,
          name: `Owner ${status}`,
          password_hash: await hashPassword('password123'),
        });
        await inTransaction(ctx.db.kysely, (trx) =>
          postChanges(trx, [{ userId: owner.id, type: 'PURCHASED', credits: 10, counterpartyId: reseller2.id }], { actorId: reseller2.id }),
        );
        const account = await dueAccount(ctx, owner.username, 2);
        await ctx.db.kysely.updateTable('users').set({ status }).where('id', '=', owner.id).execute();

        const report = await runAutoRenew(ctx.db.kysely);
        expect(report.renewed, status).not.toContain(account.id);
        expect(report.failed, status).toEqual([account.id]);
        const row = await accountRow(ctx, account.id);
        expect(row.expiry_date, status).toBe(account.expiry);
        expect(row.auto_renew_failed_at, status).not.toBeNull();
        expect(row.auto_renew_error, status).toBe(ACCOUNTS.autoRenewOwnerInactive);
        expect(await balance(ctx, owner.username), status).toEqual({ credits: 10, bonus_credits: 0 });
        expect(await usedEntries(ctx, account.id)).toHaveLength(0);

        // Recorded once: later runs neither charge nor record it again.
        const again = await runAutoRenew(ctx.db.kysely);
        expect(again.failed).not.toContain(account.id);
        expect(again.renewed).not.toContain(account.id);
        const audits = await ctx.db.kysely
          .selectFrom('audit_logs')
          .select('description')
          .where('entity_id', '=', account.id)
          .where('action', '=', 'auto_renew_failed')
          .execute();
        expect(audits).toEqual([{ description: `Auto-renewal of ${account.login} failed: ${ACCOUNTS.autoRenewOwnerInactive}` }]);
        expect(await balance(ctx, owner.username)).toEqual({ credits: 10, bonus_credits: 0 });
      }
    });

    it('renews each due account exactly once when two runners race on the same database', async () => {
      const accounts: Array<{ id: number }> = [];
      for (let i = 0; i < 8; i++) accounts.push(await dueAccount(ctx, 'dealer'));
      const before = await balance(ctx, 'dealer');
      const [a, b] = await Promise.all([runAutoRenew(ctx.db.kysely), runAutoRenew(ctx.db.kysely)]);
      const renewed = [...a.renewed, ...b.renewed].filter((id) => accounts.some((x) => x.id === id));
      expect(renewed.sort()).toEqual(accounts.map((x) => x.id).sort());
      for (const account of accounts) {
        const used = await usedEntries(ctx, account.id);
        expect(used).toHaveLength(1);
        expect((await accountRow(ctx, account.id)).expiry_date).toBe(used[0].coverage_end);
      }
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits - accounts.length);
    });

    it('renews each due account exactly once with two API processes (separate pools) on PostgreSQL', async (test) => {
      if (ctx.kind !== 'postgres') return test.skip();
      const { schema } = (await (await import('kysely')).sql<{ schema: string }>`select current_schema() as schema`.execute(ctx.db.kysely)).rows[0];
      const first = connect(PG_URL, { schema, poolSize: 4 });
      const second = connect(PG_URL, { schema, poolSize: 4 });
      try {
        const accounts: Array<{ id: number }> = [];
        for (let i = 0; i < 20; i++) accounts.push(await dueAccount(ctx, 'reseller'));
        const before = await balance(ctx, 'reseller');
        const reports = await Promise.all([runAutoRenew(first.kysely), runAutoRenew(second.kysely), runAutoRenew(first.kysely), runAutoRenew(second.kysely)]);
        const renewed = reports.flatMap((r) => r.renewed);
        expect(renewed.sort()).toEqual(accounts.map((a) => a.id).sort());
        for (const account of accounts) {
          const used = await usedEntries(ctx, account.id);
          expect(used).toHaveLength(1);
          expect((await accountRow(ctx, account.id)).expiry_date).toBe(used[0].coverage_end);
        }
        expect((await balance(ctx, 'reseller')).credits).toBe(before.credits - accounts.length);
      } finally {
        await first.close();
        await second.close();
      }
    });

    it('runs as the auto-renew-accounts job under its lease', async () => {
      const job = jobs.find((j) => j.name === 'auto-renew-accounts');
      expect(job).toBeDefined();
      const account = await dueAccount(ctx, 'dealer');
      expect(await runExclusive(ctx.db.kysely, job!)).toBe(true);
      expect(await usedEntries(ctx, account.id)).toHaveLength(1);
    });
  },
  { creditOpsPerMinute: 10_000 },
);
