/**
 * Idempotency-Key replays on every credit-moving route: a replay answers the stored status and body and
 * does nothing else (no rate-limit hit, no second move, no pre-check that the first call made false,
 * nothing logged as an error).
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { HIERARCHY } from '../../src/contract';
import { uniqueMac } from './accountFixtures';
import { type Response, type TestContext, describeEachDatabase } from './harness';
import { PASSWORD, balance, createBranch, uniqueName } from './hierarchyFixtures';

const hits = async (ctx: TestContext, actorId: number): Promise<number> => {
  const row = await ctx.db.kysely.selectFrom('rate_limits').select('hits').where('key', '=', `credit-ops:${actorId}`).executeTakeFirst();
  return Number(row?.hits ?? 0);
};
const entryCount = async (ctx: TestContext) =>
  Number(
    (
      await ctx.db.kysely
        .selectFrom('credit_transactions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const sameAnswers = (answers: Response[], first: Response) => {
  for (const answer of answers) {
    expect(answer.status).toBe(first.status);
    expect(answer.body).toEqual(first.body);
  }
};

describeEachDatabase(
  'idempotency: replays answer and stop',
  (ctx) => {
    // Request loggers are children of app.log and inherit its methods: a spy here sees every request.
    let logged: { error: ReturnType<typeof vi.spyOn>; warn: ReturnType<typeof vi.spyOn> };
    beforeEach(() => {
      logged = { error: vi.spyOn(ctx.app.log, 'error'), warn: vi.spyOn(ctx.app.log, 'warn') };
    });
    afterEach(() => {
      const calls = { error: [...logged.error.mock.calls], warn: [...logged.warn.mock.calls] };
      vi.restoreAllMocks();
      expect(calls).toEqual({ error: [], warn: [] });
    });

    it('sequential and concurrent replays of a credit move: one move, one rate-limit hit, the same answer', async () => {
      const { manager, reseller } = await createBranch(ctx, { manager: 100 });
      const url = `/resellers/${reseller.id}/credits`;
      const key = { 'idempotency-key': `seq-${reseller.id}` };
      const hitsBefore = await hits(ctx, manager.id);
      const first = await manager.client.post(url, { action: 'renew', credits: 10 }, key);
      expect(first.status).toBe(200);
      expect(await hits(ctx, manager.id)).toBe(hitsBefore + 1);
      const entries = await entryCount(ctx);

      const replays: Response[] = [];
      for (let i = 0; i < 5; i++) replays.push(await manager.client.post(url, { action: 'renew', credits: 10 }, key));
      sameAnswers(replays, first);
      expect(replays.every((r) => r.headers.get('idempotent-replayed') === 'true')).toBe(true);
      expect(await hits(ctx, manager.id)).toBe(hitsBefore + 1);
      expect(await entryCount(ctx)).toBe(entries);
      expect(await balance(ctx, reseller.id)).toEqual({ credits: 10, bonus_credits: 0 });

      // A burst of twins: exactly one moves; the others replay it and give back their rate-limit hit.
      const burst = { 'idempotency-key': `burst-${reseller.id}` };
      const answers = await Promise.all(Array.from({ length: 8 }, () => manager.client.post(url, { action: 'renew', credits: 13 }, burst)));
      expect(answers[0].status).toBe(200);
      sameAnswers(answers, answers[0]);
      expect(await hits(ctx, manager.id)).toBe(hitsBefore + 2);
      expect(await balance(ctx, reseller.id)).toEqual({ credits: 23, bonus_credits: 0 });
      expect(await entryCount(ctx)).toBe(entries + 2);
      const again = await manager.client.post(url, { action: 'renew', credits: 13 }, burst);
      sameAnswers([again], answers[0]);
      expect(await hits(ctx, manager.id)).toBe(hitsBefore + 2);
    });

    it('a retried account purchase answers its first 201, not "login already used"; another body is refused', async () => {
      const dealer = await ctx.as('dealer');
      const body = { login: uniqueName('acct'), full_name: 'Retry Me', password: 'stbpass1', mac_address: uniqueMac(), months: 2 };
      const key = { 'idempotency-key': `create-${body.login}` };
      const credits = async () => (await ctx.db.kysely.selectFrom('users').select('credits').where('username', '=', 'dealer').executeTakeFirstOrThrow()).credits;
      const before = await credits();
      const first = await dealer.post('/accounts', body, key);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      const retries = await Promise.all([dealer.post('/accounts', body, key), dealer.post('/accounts', body, key)]);
      retries.push(await dealer.post('/accounts', body, key));
      sameAnswers(retries, first);
      const accounts = await ctx.db.kysely.selectFrom('accounts').select('id').where('login', '=', body.login).execute();
      expect(accounts).toHaveLength(1);
      expect(await credits()).toBe(before - 2);

      const other = await dealer.post('/accounts', { ...body, months: 3 }, key);
      expect(other.status).toBe(422);
      expect(other.body.errors).toEqual({ idempotency_key: [HIERARCHY.idempotencyMismatch] });
    });

    it('a replayed renewal and bulk renewal answer their first result even after the account is gone', async () => {
      const dealer = await ctx.as('dealer');
      const created = await dealer.post('/accounts', { login: uniqueName('acct'), full_name: 'Renew Me', password: 'stbpass1', mac_address: uniqueMac() });
      expect(created.status).toBe(201);
      const id = created.body.data.id;
      const single = { 'idempotency-key': `renew-${id}` };
      const bulk = { 'idempotency-key': `bulk-${id}` };
      const first = await dealer.post(`/accounts/${id}/credits`, { action: 'renew', months: 1 }, single);
      const firstBulk = await dealer.post('/accounts/bulk-renew', { account_ids: [id], months: 1 }, bulk);
      expect([first.status, firstBulk.status]).toEqual([200, 200]);
      expect((await dealer.delete(`/accounts/${id}`)).status).toBe(204);
      sameAnswers([await dealer.post(`/accounts/${id}/credits`, { action: 'renew', months: 1 }, single)], first);
      sameAnswers([await dealer.post('/accounts/bulk-renew', { account_ids: [id], months: 1 }, bulk)], firstBulk);
      // Without the key, the gone account is a 404 as before.
      expect((await dealer.post(`/accounts/${id}/credits`, { action: 'renew', months: 1 })).status).toBe(404);
    });

    it('a retried user creation with initial credits answers its first 201, not "username taken"', async () => {
      const { manager } = await createBranch(ctx, { manager: 50 });
      const body = { name: 'Retry Reseller', username: uniqueName('res'), password: PASSWORD, credits: 12 };
      const key = { 'idempotency-key': `user-${body.username}` };
      const before = await balance(ctx, manager.id);
      const first = await manager.client.post('/resellers', body, key);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      const retries = await Promise.all([manager.client.post('/resellers', body, key), manager.client.post('/resellers', body, key)]);
      sameAnswers(retries, first);
      expect(await balance(ctx, manager.id)).toEqual({ ...before, credits: before.credits - 12 });
      expect(await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', body.username).execute()).toHaveLength(1);
      const other = await manager.client.post('/resellers', { ...body, credits: 13 }, key);
      expect(other.body.errors).toEqual({ idempotency_key: [HIERARCHY.idempotencyMismatch] });
    });

    it('a replayed recover-from-history answers its first result after the dealer moved away', async () => {
      const { manager, reseller, dealer } = await createBranch(ctx, { reseller: 40 });
      const given = await reseller.client.post(`/dealers/${dealer.id}/credits`, { action: 'renew', credits: 10 });
      const allocation = given.body.data.transactions.find((t: { user_id: number }) => t.user_id === dealer.id).id;
      const key = { 'idempotency-key': `history-${dealer.id}` };
      const first = await reseller.client.post(`/dealers/${dealer.id}/credits/recover-from-history`, { transaction_id: allocation }, key);
      expect(first.status).toBe(200);
      // The dealer becomes a reseller: no longer a dealer of this reseller.
      expect((await manager.client.post(`/dealers/${dealer.id}/promote`, { manager_id: manager.id })).status).toBe(200);
      sameAnswers([await reseller.client.post(`/dealers/${dealer.id}/credits/recover-from-history`, { transaction_id: allocation }, key)], first);
    });
  },
  { creditOpsPerMinute: 10_000 },
);
