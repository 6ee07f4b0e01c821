/**
 * GET /hierarchy/tree: the caller's subtree with balances and each branch's accounts (live, active,
 * expiring in a window), blocked members marked, never a member outside the caller's subtree; and the
 * accounts list's branch filter the tree's counts open, which lists exactly what they count.
 */
import { expect, it } from 'vitest';
import { HIERARCHY_TREE, type HierarchyNode } from '../../src/contract';
import { DAY } from './accountFixtures';
import { describeEachDatabase } from './harness';
import { balance, createDealer, createManager, createReseller, insertAccounts } from './hierarchyFixtures';

const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describeEachDatabase('hierarchy tree', (ctx) => {
  async function branch() {
    const manager = await createManager(ctx, 300);
    const reseller = await createReseller(ctx, manager.client, 200);
    const dealer = await createDealer(ctx, reseller.client, 50);
    const dealer2 = await createDealer(ctx, reseller.client, 0);
    // The dealer: expiring in 12 hours, 2 days, 5 days, 20 days; one expired; one without expiry; one
    // suspended (in 2 days). The second dealer: 3 in 40 days. The reseller itself: 2 in 12 hours.
    const dealerAccounts = await insertAccounts(ctx, dealer.id, 7);
    const expiries = [at(0.5), at(2), at(5), at(20), at(-1), null, at(2)];
    for (const [i, id] of dealerAccounts.entries()) {
      await ctx.db.kysely
        .updateTable('accounts')
        .set({ expiry_date: expiries[i], status: i === 6 ? 'suspended' : 'active' })
        .where('id', '=', id)
        .execute();
    }
    for (const id of await insertAccounts(ctx, dealer2.id, 3))
      await ctx.db.kysely
        .updateTable('accounts')
        .set({ expiry_date: at(40) })
        .where('id', '=', id)
        .execute();
    for (const id of await insertAccounts(ctx, reseller.id, 2))
      await ctx.db.kysely
        .updateTable('accounts')
        .set({ expiry_date: at(0.5) })
        .where('id', '=', id)
        .execute();
    // A deleted account counts nowhere.
    const [gone] = await insertAccounts(ctx, dealer.id, 1);
    await ctx.db.kysely
      .updateTable('accounts')
      .set({ expiry_date: at(0.5), deleted_at: new Date().toISOString() })
      .where('id', '=', gone)
      .execute();
    return { manager, reseller, dealer, dealer2 };
  }

  const tree = async (client: { get: (path: string) => Promise<{ status: number; body: any }> }, query = '') => {
    const res = await client.get(`/hierarchy/tree${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { expiring_days: string; nodes: HierarchyNode[] };
  };
  const byId = (nodes: HierarchyNode[]) => new Map(nodes.map((n) => [n.id, n]));

  it("counts each branch's accounts, live, active and expiring in each window, and the balances", async () => {
    const b = await branch();
    const seven = await tree(b.manager.client);
    expect(seven.expiring_days).toBe('7');
    // The caller first, then its subtree, each parent before its children.
    expect(seven.nodes.map((n) => n.id)).toEqual([b.manager.id, b.reseller.id, ...[b.dealer.id, b.dealer2.id].sort((x, y) => String(x).localeCompare(String(y)))]);
    const nodes = byId(seven.nodes);
    expect(nodes.get(b.manager.id)).toMatchObject({ parent_id: null, role: 'manager', accounts: 12, active_accounts: 11, expiring_accounts: 6, blocked: false });
    expect(nodes.get(b.reseller.id)).toMatchObject({ parent_id: b.manager.id, role: 'reseller', accounts: 12, active_accounts: 11, expiring_accounts: 6 });
    expect(nodes.get(b.dealer.id)).toMatchObject({ parent_id: b.reseller.id, role: 'dealer', accounts: 7, active_accounts: 6, expiring_accounts: 4 });
    expect(nodes.get(b.dealer2.id)).toMatchObject({ parent_id: b.reseller.id, accounts: 3, active_accounts: 3, expiring_accounts: 0 });

    // Each balance as the ledger left it (bonuses included).
    for (const node of seven.nodes) expect(node.credits).toBe((await balance(ctx, node.id)).credits);
    expect(nodes.get(b.dealer.id)!.credits).toBeGreaterThanOrEqual(50);

    const expiring = async (days: string) => byId((await tree(b.manager.client, `?expiring_days=${days}`)).nodes);
    expect((await expiring('1')).get(b.dealer.id)!.expiring_accounts).toBe(1);
    expect((await expiring('1')).get(b.manager.id)!.expiring_accounts).toBe(3);
    expect((await expiring('3')).get(b.dealer.id)!.expiring_accounts).toBe(3);
    expect((await expiring('30')).get(b.dealer.id)!.expiring_accounts).toBe(5);
    expect((await expiring('30')).get(b.dealer2.id)!.expiring_accounts).toBe(0);
  });

  it("opens exactly what it counts: the accounts list's branch filter, with and without the window", async () => {
    const b = await branch();
    for (const days of ['1', '3', '7', '30']) {
      const nodes = (await tree(b.manager.client, `?expiring_days=${days}`)).nodes;
      for (const node of nodes) {
        const all = await b.manager.client.get(`/accounts?per_page=100&filter[branch]=${node.id}`);
        expect(all.status, JSON.stringify(all.body)).toBe(200);
        expect(all.body.meta.total, `${node.username} accounts`).toBe(node.accounts);
        const soon = await b.manager.client.get(`/accounts?per_page=100&filter[branch]=${node.id}&filter[expiry]=${days}`);
        expect(soon.body.meta.total, `${node.username} expiring in ${days}`).toBe(node.expiring_accounts);
      }
    }
  });

  it('marks a stopped member and everyone below it as blocked', async () => {
    const b = await branch();
    const stop = await b.manager.client.patch(`/resellers/${b.reseller.id}`, { status: 'suspended' });
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    const nodes = byId((await tree(b.manager.client)).nodes);
    expect(nodes.get(b.manager.id)!.blocked).toBe(false);
    expect(nodes.get(b.reseller.id)).toMatchObject({ status: 'suspended', blocked: true });
    expect(nodes.get(b.dealer.id)).toMatchObject({ status: 'active', blocked: true });
    expect(nodes.get(b.dealer2.id)!.blocked).toBe(true);
    // The admin's tree marks them alike.
    const admin = byId((await tree(await ctx.as('admin'))).nodes);
    expect(admin.get(b.dealer.id)!.blocked).toBe(true);
    expect(admin.get(b.manager.id)!.blocked).toBe(false);
  });

  it('shows only the caller and its subtree, never a sibling or a parent; a dealer has no tree', async () => {
    const b = await branch();
    const other = await createManager(ctx, 0);
    const otherReseller = await createReseller(ctx, other.client, 0);

    const resellerTree = (await tree(b.reseller.client)).nodes;
    expect(resellerTree.map((n) => n.id).sort()).toEqual([b.reseller.id, b.dealer.id, b.dealer2.id].sort());
    expect(resellerTree[0]).toMatchObject({ id: b.reseller.id, parent_id: null, accounts: 12 });
    expect((await tree(other.client)).nodes.map((n) => n.id)).toEqual([other.id, otherReseller.id]);
    const admin = (await tree(await ctx.as('admin'))).nodes;
    expect(admin[0]).toMatchObject({ role: 'admin', parent_id: null });
    expect(admin.map((n) => n.id)).toEqual(expect.arrayContaining([b.manager.id, b.dealer.id, other.id, otherReseller.id]));

    expect((await b.dealer.client.get('/hierarchy/tree')).status).toBe(403);
    expect((await ctx.anonymous.get('/hierarchy/tree')).status).toBe(401);

    // The branch filter aimed at someone else's member lists nothing of theirs.
    await insertAccounts(ctx, otherReseller.id, 2);
    const aimed = await b.reseller.client.get(`/accounts?filter[branch]=${otherReseller.id}`);
    expect(aimed.status).toBe(200);
    expect(aimed.body.meta.total).toBe(0);
    expect((await other.client.get(`/accounts?filter[branch]=${otherReseller.id}`)).body.meta.total).toBe(2);
  });

  it('leaves out deleted members and refuses a window or a branch it does not offer', async () => {
    const b = await branch();
    const spare = await createDealer(ctx, b.reseller.client, 0);
    expect((await b.reseller.client.delete(`/dealers/${spare.id}`)).status).toBeLessThan(300);
    expect((await tree(b.reseller.client)).nodes.map((n) => n.id)).not.toContain(spare.id);

    for (const days of ['5', '0', '-1', 'abc', '']) {
      const res = await b.manager.client.get(`/hierarchy/tree?expiring_days=${days}`);
      expect(res.status, `${days}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.errors.expiring_days).toEqual([HIERARCHY_TREE.windowInvalid]);
    }
    for (const branchId of ['abc', '0', '-3', '1.5', '99999999999']) {
      const res = await b.manager.client.get(`/accounts?filter[branch]=${branchId}`);
      expect(res.status, `${branchId}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});
