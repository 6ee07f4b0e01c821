/**
 * POST /accounts/move and its preview: a parent hands accounts to another owner in its subtree, all
 * or nothing, audited, the ledger and balances untouched and the kept counts following; never from or
 * to someone outside the caller's subtree, never to a stopped branch or another server's.
 */
import { expect, it } from 'vitest';
import { ACCOUNT_MOVES } from '../../src/contract';
import { tallyProblems } from '../../server/db/tallies';
import { describeEachDatabase } from './harness';
import { createDealer, createManager, createReseller, insertAccounts } from './hierarchyFixtures';

describeEachDatabase('account moves', (ctx) => {
  const db = () => ctx.db.kysely;
  async function branch() {
    const manager = await createManager(ctx, 100);
    const reseller = await createReseller(ctx, manager.client, 100);
    const reseller2 = await createReseller(ctx, manager.client, 0);
    const dealer = await createDealer(ctx, reseller.client, 50);
    const dealer2 = await createDealer(ctx, reseller.client, 0);
    const accounts = await insertAccounts(ctx, dealer.id, 3);
    return { manager, reseller, reseller2, dealer, dealer2, accounts };
  }
  const owners = async (ids: number[]) =>
    (await db().selectFrom('accounts').select(['id', 'owner_id', 'owner_path']).where('id', 'in', ids).orderBy('id').execute()).map((a) => [a.owner_id, a.owner_path]);
  const ledger = async () => ({
    entries: Number(
      (
        await db()
          .selectFrom('credit_transactions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    balances: await db().selectFrom('users').select(['id', 'credits', 'bonus_credits']).orderBy('id').execute(),
  });

  it('previews, then moves the accounts to another dealer: audited, scoped at once, the ledger untouched', async () => {
    const b = await branch();
    const [a1, a2] = b.accounts;
    const before = await ledger();

    const preview = await b.reseller.client.post('/accounts/move/preview', { account_ids: [a1, a2], to_owner_id: b.dealer2.id });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data).toMatchObject({ to: { id: b.dealer2.id, username: b.dealer2.username }, already_there: 0, refused: [] });
    expect(preview.body.data.moving.map((m: { from: string }) => m.from)).toEqual([b.dealer.username, b.dealer.username]);
    // A preview moves nothing.
    expect(await owners([a1])).toEqual([[b.dealer.id, expect.any(String)]]);

    const moved = await b.reseller.client.post('/accounts/move', { account_ids: [a2, a1], to_owner_id: b.dealer2.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toEqual({ moved: 2, account_ids: [a1, a2] });
    expect(moved.body.message).toBe(ACCOUNT_MOVES.done(2, `Dealer ${b.dealer2.username} (${b.dealer2.username})`));
    const path2 = (await db().selectFrom('users').select('path').where('id', '=', b.dealer2.id).executeTakeFirstOrThrow()).path;
    expect(await owners([a1, a2])).toEqual([
      [b.dealer2.id, path2],
      [b.dealer2.id, path2],
    ]);

    // The old owner no longer sees them; the new one does, at once.
    expect((await b.dealer.client.get(`/accounts/${a1}`)).status).toBe(404);
    expect((await b.dealer2.client.get(`/accounts/${a1}`)).status).toBe(200);
    expect((await b.dealer.client.get('/accounts')).body.meta.total).toBe(1);
    expect(await ledger()).toEqual(before);
    expect(await tallyProblems(db())).toEqual([]);
    const audits = await db()
      .selectFrom('audit_logs')
      .selectAll()
      .where('module', '=', 'accounts')
      .where('action', '=', 'move')
      .where('entity_id', 'in', [a1, a2])
      .execute();
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => JSON.parse(String(a.new_values)).owner)).toEqual([b.dealer2.username, b.dealer2.username]);

    // Again: nothing left to move, nothing written.
    const again = await b.reseller.client.post('/accounts/move', { account_ids: [a1, a2], to_owner_id: b.dealer2.id });
    expect(again.body.data).toEqual({ moved: 0, account_ids: [] });
    expect((await b.reseller.client.post('/accounts/move/preview', { account_ids: [a1, a2], to_owner_id: b.dealer2.id })).body.data).toMatchObject({
      moving: [],
      already_there: 2,
    });
    expect(await db().selectFrom('audit_logs').select('id').where('action', '=', 'move').where('entity_id', 'in', [a1, a2]).execute()).toHaveLength(2);

    // And back, to the caller itself, by a manager across its resellers.
    expect((await b.manager.client.post('/accounts/move', { account_ids: [a1], to_owner_id: b.reseller2.id })).status).toBe(200);
    expect((await b.manager.client.post('/accounts/move', { account_ids: [a2], to_owner_id: b.manager.id })).status).toBe(200);
    expect((await owners([a1, a2])).map(([id]) => id)).toEqual([b.reseller2.id, b.manager.id]);
    expect(await tallyProblems(db())).toEqual([]);
  });

  it('never reaches outside the caller: 404 for an account or an owner of another branch, 403 for a dealer', async () => {
    const b = await branch();
    const other = await branch();
    const [a1] = b.accounts;
    const reseller = b.reseller.client;
    const refused = [
      await reseller.post('/accounts/move', { account_ids: [a1], to_owner_id: other.dealer.id }),
      await reseller.post('/accounts/move', { account_ids: [other.accounts[0]], to_owner_id: b.dealer2.id }),
      await reseller.post('/accounts/move', { account_ids: [a1, other.accounts[0]], to_owner_id: b.dealer2.id }),
      // Up the tree: its own manager is outside its subtree.
      await reseller.post('/accounts/move', { account_ids: [a1], to_owner_id: b.manager.id }),
      await reseller.post('/accounts/move/preview', { account_ids: [a1], to_owner_id: other.dealer.id }),
      await reseller.post('/accounts/move', { account_ids: [a1], to_owner_id: 99_999_999 }),
    ];
    for (const res of refused) expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect((await b.dealer.client.post('/accounts/move', { account_ids: [a1], to_owner_id: b.dealer.id })).status).toBe(403);
    expect((await owners(b.accounts)).map(([id]) => id)).toEqual([b.dealer.id, b.dealer.id, b.dealer.id]);
    expect((await owners(other.accounts)).map(([id]) => id)).toEqual([other.dealer.id, other.dealer.id, other.dealer.id]);
  });

  it("refuses the whole move for a stopped owner or another server's account, and says which and why", async () => {
    const b = await branch();
    const [a1, a2] = b.accounts;
    expect((await b.reseller.client.patch(`/dealers/${b.dealer2.id}`, { status: 'suspended' })).status).toBe(200);
    const stopped = await b.reseller.client.post('/accounts/move', { account_ids: [a1, a2], to_owner_id: b.dealer2.id });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(409);
    expect(stopped.body.message).toBe(ACCOUNT_MOVES.refused(2));
    const preview = await b.reseller.client.post('/accounts/move/preview', { account_ids: [a1], to_owner_id: b.dealer2.id });
    expect(preview.body.data.refused).toEqual([{ id: a1, login: expect.any(String), reason: ACCOUNT_MOVES.ownerNotActive }]);
    expect((await b.reseller.client.patch(`/dealers/${b.dealer2.id}`, { status: 'active' })).status).toBe(200);

    // One account on the other server: nothing moves, the other one neither.
    await db().updateTable('accounts').set({ server_id: 2 }).where('id', '=', a2).execute();
    const server = await db().selectFrom('servers').select('name').where('id', '=', 2).executeTakeFirstOrThrow();
    const mixed = await b.reseller.client.post('/accounts/move/preview', { account_ids: [a1, a2], to_owner_id: b.dealer2.id });
    expect(mixed.body.data.refused).toEqual([{ id: a2, login: expect.any(String), reason: ACCOUNT_MOVES.otherServer(server.name) }]);
    expect((await b.reseller.client.post('/accounts/move', { account_ids: [a1, a2], to_owner_id: b.dealer2.id })).status).toBe(409);
    expect((await owners([a1, a2])).map(([id]) => id)).toEqual([b.dealer.id, b.dealer.id]);
  });

  it('refuses bad input with the field messages', async () => {
    const b = await branch();
    const cases: Array<[unknown, string]> = [
      [{ account_ids: b.accounts }, 'to_owner_id'],
      [{ account_ids: b.accounts, to_owner_id: 'x' }, 'to_owner_id'],
      [{ account_ids: b.accounts, to_owner_id: -1 }, 'to_owner_id'],
      [{ account_ids: [], to_owner_id: b.dealer2.id }, 'account_ids'],
      [{ to_owner_id: b.dealer2.id }, 'account_ids'],
    ];
    for (const [body, field] of cases) {
      const res = await b.reseller.client.post('/accounts/move', body);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    expect((await b.reseller.client.post('/accounts/move', { account_ids: b.accounts })).body.errors.to_owner_id).toEqual([ACCOUNT_MOVES.newOwnerRequired]);
  });

  it('two moves of the same accounts at once: each all or nothing, every account left where its path says', async () => {
    const b = await branch();
    const third = await createDealer(ctx, b.reseller.client, 0);
    const results = await Promise.all([
      b.reseller.client.post('/accounts/move', { account_ids: b.accounts, to_owner_id: b.dealer2.id }),
      b.reseller.client.post('/accounts/move', { account_ids: b.accounts, to_owner_id: third.id }),
    ]);
    for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = await db()
      .selectFrom('accounts')
      .innerJoin('users', 'users.id', 'accounts.owner_id')
      .select(['accounts.owner_id', 'accounts.owner_path', 'users.path'])
      .where('accounts.id', 'in', b.accounts)
      .execute();
    expect(new Set(rows.map((r) => r.owner_id)).size).toBe(1);
    for (const row of rows) expect(row.owner_path).toBe(row.path);
    expect(await tallyProblems(db())).toEqual([]);
  });
});
