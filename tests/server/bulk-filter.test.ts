/**
 * Bulk by filter: a preview of an action on a selection or on everything the accounts list's filter
 * matches, then its one application: all or nothing up to the bulk limit, a job in chunks above it
 * (progress, per-row report, resumable without charging a row twice). The preview's figures are the
 * applied result to the credit; a filter never reaches outside the caller's subtree.
 */
import { expect, it } from 'vitest';
import { ACCOUNTS, BULK_FILTER, BULK_MAX, LOW_CREDITS_THRESHOLD } from '../../src/contract';
import { BulkJobRunner } from '../../server/jobs/bulkAccounts';
import { describeEachDatabase } from './harness';
import type { Client } from './harness';
import { balance, createBranch, createDealer, insertAccounts, setBalanceByEntry } from './hierarchyFixtures';

describeEachDatabase('bulk by filter', (ctx) => {
  const db = () => ctx.db.kysely;
  const runner = () => BulkJobRunner.of(ctx.db.kysely);
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  async function setExpiry(ids: number[], expiry: string | null) {
    await db().updateTable('accounts').set({ expiry_date: expiry }).where('id', 'in', ids).execute();
  }
  /** The USED entries per account of these accounts. */
  async function charges(ids: number[]) {
    const rows = await db().selectFrom('credit_transactions').select(['account_id', 'credits']).where('type', '=', 'USED').where('account_id', 'in', ids).execute();
    const per = new Map<number, number>();
    for (const r of rows) per.set(r.account_id!, (per.get(r.account_id!) ?? 0) + 1);
    return { entries: rows.length, credits: -rows.reduce((s, r) => s + r.credits, 0), twice: [...per.values()].filter((n) => n > 1).length };
  }
  const preview = (client: Client, body: Record<string, unknown>) => client.post('/accounts/bulk/preview', body);
  const apply = (client: Client, id: number) => client.post(`/accounts/bulk/${id}/apply`, {});

  it('previews everything a filter matches, with discounts and the balance, then applies it to the credit', async () => {
    const { dealer } = await createBranch(ctx, { dealer: 100 });
    const ids = await insertAccounts(ctx, dealer.id, 6);
    await setExpiry(ids.slice(0, 5), inDays(3));
    await setExpiry(ids.slice(5), inDays(40));
    // A discount for 5 months with two uses left: two renewals at 3 credits, the rest at the regular 5.
    const at = new Date().toISOString();
    await db()
      .insertInto('global_discounts')
      .values({
        name: 'Five for three',
        description: null,
        server_id: 1,
        validity_months: 5,
        credits_required: 3,
        discount_percentage: 40,
        is_active: 1,
        valid_from: null,
        valid_until: null,
        max_uses: 2,
        current_uses: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();

    const seen = await preview(dealer.client, { action: 'renew', months: 5, filter: { expiry: '7' } });
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body.data).toMatchObject({
      action: 'renew',
      months: 5,
      matched: 5,
      applicable: 5,
      credits: 2 * 3 + 3 * 5,
      balance_before: 100,
      balance_after: 100 - 21,
      insufficient: false,
      refused: [],
      mode: 'direct',
      limit: BULK_MAX,
    });
    // A preview changes nothing.
    expect((await charges(ids)).entries).toBe(0);

    const done = await apply(dealer.client, seen.body.data.id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.message).toBe(BULK_FILTER.done(5));
    expect(done.body.data).toMatchObject({ status: 'done', total: 5, processed: 5, succeeded: 5, refused: 0, credits: 21 });
    expect(await charges(ids)).toEqual({ entries: 5, credits: 21, twice: 0 });
    expect((await balance(ctx, dealer.id)).credits).toBe(seen.body.data.balance_after);
    const renewed = await db().selectFrom('accounts').select(['id', 'expiry_date']).where('id', 'in', ids.slice(0, 5)).execute();
    for (const r of renewed) expect(new Date(r.expiry_date!).getTime()).toBeGreaterThan(Date.now() + 100 * 86_400_000);

    // Applied once: again is 409, and nothing more is charged.
    const again = await apply(dealer.client, seen.body.data.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(BULK_FILTER.alreadyApplied);
    expect((await charges(ids)).entries).toBe(5);

    // The report: one row per account.
    const report = await dealer.client.get(`/accounts/bulk/${seen.body.data.id}/report`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toContain('text/csv');
    const lines = String(report.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe('Account ID,Login,Result,Reason,Credits,Transaction,Expiry');
  });

  it('names the accounts it would refuse and why, grouped, and leaves them as they are', async () => {
    const { dealer } = await createBranch(ctx, { dealer: 50 });
    const ids = await insertAccounts(ctx, dealer.id, 4);
    // A promo account in its bonus period cannot be renewed; an active one cannot be activated.
    await db()
      .updateTable('accounts')
      .set({ is_promo: 1, expiry_date: inDays(200) })
      .where('id', '=', ids[0])
      .execute();
    await db().updateTable('accounts').set({ status: 'suspended' }).where('id', 'in', ids.slice(2)).execute();

    const renew = await preview(dealer.client, { action: 'renew', months: 1, account_ids: ids });
    expect(renew.body.data).toMatchObject({ matched: 4, applicable: 3, credits: 3 });
    expect(renew.body.data.refused).toEqual([{ reason: ACCOUNTS.bonusPeriod, count: 1, sample: [{ id: ids[0], login: expect.any(String) }] }]);

    const activate = await preview(dealer.client, { action: 'activate', account_ids: ids });
    expect(activate.body.data).toMatchObject({ matched: 4, applicable: 2, credits: 0 });
    expect(activate.body.data.refused).toEqual([
      { reason: BULK_FILTER.alreadyActive, count: 2, sample: [expect.objectContaining({ id: ids[0] }), expect.objectContaining({ id: ids[1] })] },
    ]);
    const applied = await apply(dealer.client, activate.body.data.id);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data).toMatchObject({ succeeded: 2, refused: 2 });
    const statuses = await db().selectFrom('accounts').select('status').where('id', 'in', ids).execute();
    expect(statuses.every((s) => s.status === 'active')).toBe(true);

    // Suspend then everything the status filter matches.
    const suspend = await preview(dealer.client, { action: 'suspend', filter: { status: 'active', owner_id: String(dealer.id) } });
    expect(suspend.body.data).toMatchObject({ matched: 4, applicable: 4 });
    expect((await apply(dealer.client, suspend.body.data.id)).status).toBe(200);

    // Message: every account the search matches gets it.
    const message = await preview(dealer.client, { action: 'message', message: 'Maintenance tonight', filter: { search: 'acc_' } });
    expect(message.body.data.matched).toBeGreaterThanOrEqual(4);
    expect((await apply(dealer.client, message.body.data.id)).status).toBe(200);
    const sent = await db().selectFrom('account_messages').select('account_id').where('account_id', 'in', ids).execute();
    expect(sent).toHaveLength(4);
  });

  it('is all or nothing under the limit: short of credits or changed since the preview, nothing moves', async () => {
    const { dealer } = await createBranch(ctx, { dealer: 10 });
    await setBalanceByEntry(ctx, dealer.id, 2);
    const ids = await insertAccounts(ctx, dealer.id, 3);
    const short = await preview(dealer.client, { action: 'renew', months: 1, account_ids: ids });
    expect(short.body.data).toMatchObject({ credits: 3, balance_before: 2, balance_after: -1, insufficient: true });
    const refused = await apply(dealer.client, short.body.data.id);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.credits).toEqual([BULK_FILTER.insufficient(3, 2)]);
    expect((await charges(ids)).entries).toBe(0);
    expect((await balance(ctx, dealer.id)).credits).toBe(2);

    // A set that changed since the preview (one account renewed meanwhile) is not applied.
    const two = await preview(dealer.client, { action: 'renew', months: 1, filter: { owner_id: String(dealer.id), expiry: 'expired' } });
    await setExpiry(ids, inDays(-1));
    const seen = await preview(dealer.client, { action: 'renew', months: 1, filter: { owner_id: String(dealer.id), expiry: 'expired' } });
    expect(seen.body.data).toMatchObject({ matched: 3 });
    expect(two.body.data.matched).toBe(0);
    await setExpiry([ids[0]], inDays(20));
    const changed = await apply(dealer.client, seen.body.data.id);
    expect(changed.status).toBe(409);
    expect(changed.body.message).toBe(BULK_FILTER.changed);
    expect((await charges(ids)).entries).toBe(0);
  });

  it('above the limit runs a job with progress and a report; an interrupted job resumes without charging a row twice', async () => {
    const { dealer } = await createBranch(ctx, { dealer: 3000 });
    const count = BULK_MAX + 50;
    const ids = await insertAccounts(ctx, dealer.id, count);
    await setExpiry(ids, inDays(2));
    runner().chunkRows = 400;
    runner().stopAfterChunks = 1;
    try {
      const seen = await preview(dealer.client, { action: 'renew', months: 1, filter: { owner_id: String(dealer.id), expiry: '3' } });
      expect(seen.body.data).toMatchObject({ matched: count, applicable: count, credits: count, mode: 'job', balance_after: 3000 - count });
      const started = await apply(dealer.client, seen.body.data.id);
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      expect(started.body.data).toMatchObject({ status: 'running', total: count, processed: 0 });
      await runner().idle();

      // Stopped after its first chunk, as a process that died: that chunk is charged, nothing else.
      const midway = await dealer.client.get(`/accounts/bulk/${seen.body.data.id}`);
      expect(midway.body.data).toMatchObject({ status: 'running', processed: 400, succeeded: 400, credits: 400 });
      expect(await charges(ids)).toEqual({ entries: 400, credits: 400, twice: 0 });
      expect((await balance(ctx, dealer.id)).credits).toBe(3000 - 400);

      // A second application of the same preview is refused while it runs.
      expect((await apply(dealer.client, seen.body.data.id)).status).toBe(409);

      // The restart takes it up from its cursor.
      runner().stopAfterChunks = null;
      await runner().resume();
      const done = await dealer.client.get(`/accounts/bulk/${seen.body.data.id}`);
      expect(done.body.data).toMatchObject({ status: 'done', total: count, processed: count, succeeded: count, refused: 0, credits: count });
      expect(await charges(ids)).toEqual({ entries: count, credits: count, twice: 0 });
      expect((await balance(ctx, dealer.id)).credits).toBe(seen.body.data.balance_after);
      // Resuming a finished job does nothing more.
      await runner().resume();
      expect((await charges(ids)).entries).toBe(count);

      const report = await dealer.client.get(`/accounts/bulk/${seen.body.data.id}/report`);
      const lines = String(report.body)
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines).toHaveLength(count + 1);
      expect(lines.slice(1).every((l) => l.split(',')[2] === 'done')).toBe(true);
    } finally {
      runner().stopAfterChunks = null;
    }
  });

  it('a job refuses, row by row, what the balance no longer pays for', async () => {
    const { dealer } = await createBranch(ctx, { dealer: BULK_MAX + 10 });
    const ids = await insertAccounts(ctx, dealer.id, BULK_MAX + 5);
    runner().chunkRows = 600;
    runner().stopAfterChunks = 1;
    try {
      const seen = await preview(dealer.client, { action: 'renew', months: 1, filter: { owner_id: String(dealer.id) } });
      expect(seen.body.data).toMatchObject({ mode: 'job', insufficient: false });
      expect((await apply(dealer.client, seen.body.data.id)).status).toBe(202);
      await runner().idle();
      // Spent elsewhere between two chunks: the job renews what the balance still pays for.
      await setBalanceByEntry(ctx, dealer.id, 100);
      runner().stopAfterChunks = null;
      await runner().resume();
      const done = await dealer.client.get(`/accounts/bulk/${seen.body.data.id}`);
      expect(done.body.data).toMatchObject({ status: 'done', processed: BULK_MAX + 5, succeeded: 700, refused: BULK_MAX + 5 - 700, credits: 700 });
      expect((await balance(ctx, dealer.id)).credits).toBe(0);
      expect(await charges(ids)).toEqual({ entries: 700, credits: 700, twice: 0 });
      const report = String((await dealer.client.get(`/accounts/bulk/${seen.body.data.id}/report`)).body);
      expect(report).toContain(BULK_FILTER.insufficient(1, 0));
    } finally {
      runner().stopAfterChunks = null;
    }
  });

  it('a job stops when the caller’s branch is stopped between two chunks, keeping what it charged', async () => {
    const { manager, reseller, dealer } = await createBranch(ctx, { dealer: BULK_MAX + 10 });
    const ids = await insertAccounts(ctx, dealer.id, BULK_MAX + 5);
    runner().chunkRows = 500;
    runner().stopAfterChunks = 1;
    try {
      const seen = await preview(dealer.client, { action: 'renew', months: 1, filter: { owner_id: String(dealer.id) } });
      expect((await apply(dealer.client, seen.body.data.id)).status).toBe(202);
      await runner().idle();
      expect((await manager.client.patch(`/resellers/${reseller.id}`, { status: 'suspended' })).status).toBe(200);
      runner().stopAfterChunks = null;
      await runner().resume();
      // The dealer cannot call while its branch is stopped: the job's row says what happened.
      const stopped = await db().selectFrom('bulk_jobs').selectAll().where('id', '=', seen.body.data.id).executeTakeFirstOrThrow();
      expect(stopped).toMatchObject({ status: 'failed', processed: 500, succeeded: 500, charged: 500 });
      expect(stopped.error).toEqual(expect.any(String));
      expect(await charges(ids)).toEqual({ entries: 500, credits: 500, twice: 0 });
    } finally {
      runner().stopAfterChunks = null;
    }
  });

  it('never reaches outside the caller’s subtree', async () => {
    const { reseller, dealer } = await createBranch(ctx, { dealer: 10 });
    const other = await createBranch(ctx, { dealer: 10 });
    const theirs = await insertAccounts(ctx, other.dealer.id, 3);
    const mine = await insertAccounts(ctx, dealer.id, 2);

    // A filter naming someone else's member or accounts matches nothing of theirs.
    for (const filter of [{ branch: String(other.reseller.id) }, { owner_id: String(other.dealer.id) }]) {
      const seen = await preview(dealer.client, { action: 'suspend', filter });
      expect(seen.status).toBe(200);
      expect(seen.body.data.matched).toBe(0);
    }
    // A selection with one of theirs is a 404, as any other bulk call.
    expect((await preview(dealer.client, { action: 'suspend', account_ids: [mine[0], theirs[0]] })).status).toBe(404);
    // The reseller's filter holds its dealer's accounts, not the other branch's.
    const all = await preview(reseller.client, { action: 'suspend', filter: {} });
    expect(all.body.data.matched).toBe(2);
    // Someone else's preview is not found.
    const seen = await preview(dealer.client, { action: 'suspend', account_ids: mine });
    expect((await apply(other.dealer.client, seen.body.data.id)).status).toBe(404);
    expect((await other.dealer.client.get(`/accounts/bulk/${seen.body.data.id}`)).status).toBe(404);
    const statuses = await db().selectFrom('accounts').select('status').where('id', 'in', theirs).execute();
    expect(statuses.every((s) => s.status === 'active')).toBe(true);
  });

  it('answers bad input with field messages', async () => {
    const { dealer } = await createBranch(ctx, {});
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ action: 'renew', filter: {} }, 'months', BULK_FILTER.monthsRequired],
      [{ action: 'message', filter: {} }, 'message', ACCOUNTS.messageRequired],
      [{ action: 'suspend' }, 'account_ids', BULK_FILTER.targetRequired],
      [{ action: 'suspend', filter: {}, account_ids: [1] }, 'account_ids', BULK_FILTER.targetRequired],
    ];
    for (const [body, field, message] of cases) {
      const res = await preview(dealer.client, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[field]).toContain(message);
    }
    const badFilter = await preview(dealer.client, { action: 'suspend', filter: { expiry: 'soon' } });
    expect(badFilter.status).toBe(422);
    expect((await preview(dealer.client, { action: 'suspend', filter: { nope: '1' } })).status).toBe(400);
    expect((await apply(dealer.client, 999_999)).status).toBe(404);
  });

  it('a racing second application of one preview does not charge twice', async () => {
    const { dealer } = await createBranch(ctx, { dealer: 20 });
    const ids = await insertAccounts(ctx, dealer.id, 5);
    const seen = await preview(dealer.client, { action: 'renew', months: 1, account_ids: ids });
    const results = await Promise.all([apply(dealer.client, seen.body.data.id), apply(dealer.client, seen.body.data.id), apply(dealer.client, seen.body.data.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await charges(ids)).toEqual({ entries: 5, credits: 5, twice: 0 });
    expect((await balance(ctx, dealer.id)).credits).toBe(15);
  });

  it('a second dealer cannot apply a dealer’s job preview', async () => {
    const dealer2 = await createDealer(ctx, await ctx.as('reseller'), 0);
    const { dealer } = await createBranch(ctx, { dealer: 10 });
    const seen = await preview(dealer.client, { action: 'suspend', filter: {} });
    expect((await apply(dealer2.client, seen.body.data.id)).status).toBe(404);
  });

  it('lists the reminders: trials ending and members low on credits, counted on the dashboard as the lists filter them', async () => {
    const { reseller, dealer } = await createBranch(ctx, { reseller: 50, dealer: 20 });
    const poor = await createDealer(ctx, reseller.client, 0);
    const ids = await insertAccounts(ctx, dealer.id, 4);
    await db()
      .updateTable('accounts')
      .set({ is_trial: 1, expiry_date: inDays(2) })
      .where('id', 'in', ids.slice(0, 2))
      .execute();
    await db()
      .updateTable('accounts')
      .set({ is_trial: 1, expiry_date: inDays(20) })
      .where('id', '=', ids[2])
      .execute();

    const trials = await reseller.client.get('/accounts?filter[trial_ending]=3');
    expect(trials.status).toBe(200);
    expect(trials.body.data.map((a: { id: number }) => a.id).sort()).toEqual(ids.slice(0, 2));
    expect((await reseller.client.get('/accounts?filter[trial_ending]=30')).body.meta.total).toBe(3);
    expect((await reseller.client.get('/accounts?filter[trial_ending]=soon')).status).toBe(422);

    const low = await reseller.client.get(`/dealers?filter[low_credits]=${LOW_CREDITS_THRESHOLD}`);
    expect(low.status).toBe(200);
    expect(low.body.data.map((u: { id: number }) => u.id)).toEqual([poor.id]);
    expect((await reseller.client.get('/dealers?filter[low_credits]=0')).status).toBe(422);

    const stats = await reseller.client.get('/dashboard/stats');
    expect(stats.body.data).toMatchObject({ trials_ending: 2, low_credit_members: 1 });
    expect((await dealer.client.get('/dashboard/stats')).body.data).toMatchObject({ trials_ending: 2, low_credit_members: 0 });

    // From the trials-ending list, a bulk renew is one step: the same filter.
    const seen = await preview(reseller.client, { action: 'renew', months: 1, filter: { trial_ending: '3' } });
    expect(seen.body.data).toMatchObject({ matched: 2, applicable: 2, credits: 2 });
  });
});
