/**
 * Hierarchy scoping of the hierarchy and credit endpoints: a user of one branch (manager2 > reseller2
 * > dealer2) gets 404 for everything of the other branch (manager > reseller > dealer), one test per
 * endpoint; a role the matrix does not allow gets 403 first.
 */
import { beforeAll, expect, it } from 'vitest';
import { ACCESS } from '../../src/contract';
import { describeEachDatabase, userId } from './harness';

type Ids = Record<'manager' | 'reseller' | 'dealer' | 'manager2' | 'reseller2' | 'dealer2' | 'account' | 'entry', number>;

interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
}

const resellerEndpoints: Endpoint[] = [
  { name: 'show reseller', method: 'GET', url: (i) => `/resellers/${i.reseller}` },
  { name: 'update reseller', method: 'PUT', url: (i) => `/resellers/${i.reseller}`, body: () => ({ name: 'Taken over' }) },
  { name: 'reseller status', method: 'PATCH', url: (i) => `/resellers/${i.reseller}`, body: () => ({ is_active: false }) },
  { name: 'delete reseller', method: 'DELETE', url: (i) => `/resellers/${i.reseller}` },
  { name: 'add credits to reseller', method: 'POST', url: (i) => `/resellers/${i.reseller}/credits`, body: () => ({ action: 'renew', credits: 1 }) },
  { name: 'recover credits from reseller', method: 'POST', url: (i) => `/resellers/${i.reseller}/credits`, body: () => ({ action: 'recover', credits: 1 }) },
  { name: 'reseller recovery options', method: 'GET', url: (i) => `/resellers/${i.reseller}/credits/recovery-options` },
  { name: 'reseller transactions', method: 'GET', url: (i) => `/resellers/${i.reseller}/transactions` },
];

const dealerEndpoints: Endpoint[] = [
  { name: 'show dealer', method: 'GET', url: (i) => `/dealers/${i.dealer}` },
  { name: 'update dealer', method: 'PUT', url: (i) => `/dealers/${i.dealer}`, body: () => ({ name: 'Taken over' }) },
  { name: 'dealer status', method: 'PATCH', url: (i) => `/dealers/${i.dealer}`, body: () => ({ is_active: false }) },
  { name: 'delete dealer', method: 'DELETE', url: (i) => `/dealers/${i.dealer}` },
  { name: 'add credits to dealer', method: 'POST', url: (i) => `/dealers/${i.dealer}/credits`, body: () => ({ action: 'renew', credits: 1 }) },
  { name: 'recover credits from dealer', method: 'POST', url: (i) => `/dealers/${i.dealer}/credits`, body: () => ({ action: 'recover', credits: 1 }) },
  { name: 'dealer recovery options', method: 'GET', url: (i) => `/dealers/${i.dealer}/credits/recovery-options` },
  { name: 'dealer recovery history', method: 'GET', url: (i) => `/dealers/${i.dealer}/credits/recovery-history` },
  {
    name: 'dealer recover from history',
    method: 'POST',
    url: (i) => `/dealers/${i.dealer}/credits/recover-from-history`,
    body: (i) => ({ transaction_id: i.entry }),
  },
  { name: 'dealer transactions', method: 'GET', url: (i) => `/dealers/${i.dealer}/transactions` },
];

const promoteEndpoint: Endpoint = {
  name: 'promote dealer',
  method: 'POST',
  url: (i) => `/dealers/${i.dealer}/promote`,
  body: (i) => ({ manager_id: i.manager2 }),
};

const lookupEndpoints: Endpoint[] = [
  { name: 'recovery lookup of the reseller', method: 'GET', url: (i) => `/credit-options/recovery/${i.reseller}` },
  { name: 'recovery lookup of the dealer', method: 'GET', url: (i) => `/credit-options/recovery/${i.dealer}` },
  { name: 'allocation lookup for the dealer', method: 'GET', url: (i) => `/credit-options/allocation?user_id=${i.dealer}` },
  { name: 'account transactions', method: 'GET', url: (i) => `/accounts/${i.account}/transactions` },
];

const managerEndpoints: Endpoint[] = [
  { name: 'list managers', method: 'GET', url: () => '/managers' },
  { name: 'create manager', method: 'POST', url: () => '/managers', body: () => ({ name: 'M', username: 'mx', password: 'password123' }) },
  { name: 'show manager', method: 'GET', url: (i) => `/managers/${i.manager}` },
  { name: 'update manager', method: 'PUT', url: (i) => `/managers/${i.manager}`, body: () => ({ name: 'M' }) },
  { name: 'manager status', method: 'PATCH', url: (i) => `/managers/${i.manager}`, body: () => ({ is_active: false }) },
  { name: 'delete manager', method: 'DELETE', url: (i) => `/managers/${i.manager}` },
  { name: 'manager credits', method: 'POST', url: (i) => `/managers/${i.manager}/credits`, body: () => ({ action: 'renew', credits: 1 }) },
  { name: 'manager recovery options', method: 'GET', url: (i) => `/managers/${i.manager}/credits/recovery-options` },
  { name: 'manager transactions', method: 'GET', url: (i) => `/managers/${i.manager}/transactions` },
];

const resellerListEndpoints: Endpoint[] = [
  { name: 'list resellers', method: 'GET', url: () => '/resellers' },
  { name: 'create reseller', method: 'POST', url: () => '/resellers', body: () => ({ name: 'R', username: 'rx', password: 'password123' }) },
];

describeEachDatabase(
  'scoping of hierarchy and credit endpoints',
  (ctx) => {
    const ids = {} as Ids;
    let snapshot: unknown;
    const state = () =>
      ctx.db.kysely
        .selectFrom('users')
        .select(['id', 'name', 'status', 'credits', 'bonus_credits', 'path', 'role'])
        .where('username', 'in', ['manager', 'reseller', 'dealer'])
        .orderBy('id')
        .execute();

    beforeAll(async () => {
      for (const name of ['manager', 'reseller', 'dealer', 'manager2', 'reseller2', 'dealer2'] as const) ids[name] = await userId(ctx, name);
      ids.account = (await ctx.db.kysely.selectFrom('accounts').select('id').where('owner_id', '=', ids.dealer).executeTakeFirstOrThrow()).id;
      ids.entry = (
        await ctx.db.kysely.selectFrom('credit_transactions').select('id').where('user_id', '=', ids.dealer).where('type', '=', 'PURCHASED').executeTakeFirstOrThrow()
      ).id;
      snapshot = await state();
    });

    const call = async (username: string, e: Endpoint) => {
      const client = await ctx.as(username);
      return client.request(e.method, e.url(ids), e.body?.(ids) ?? (e.method === 'GET' || e.method === 'DELETE' ? undefined : {}));
    };

    for (const e of [...resellerEndpoints, ...dealerEndpoints, promoteEndpoint, ...lookupEndpoints]) {
      it(`manager2 gets 404: ${e.name} of the other branch`, async () => {
        const res = await call('manager2', e);
        expect(res.status, JSON.stringify(res.body)).toBe(404);
      });
    }
    for (const e of [...dealerEndpoints, ...lookupEndpoints]) {
      it(`reseller2 gets 404: ${e.name} of the other branch`, async () => {
        const res = await call('reseller2', e);
        expect(res.status, JSON.stringify(res.body)).toBe(404);
      });
    }
    for (const e of lookupEndpoints) {
      it(`dealer2 gets 404: ${e.name} of the other branch`, async () => {
        const res = await call('dealer2', e);
        expect(res.status, JSON.stringify(res.body)).toBe(404);
      });
    }

    for (const e of [...resellerEndpoints, ...resellerListEndpoints]) {
      it(`a dealer gets 403 on reseller endpoints: ${e.name}`, async () => {
        const res = await call('dealer', e);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ message: ACCESS.forbidden });
      });
      it(`reseller2 gets 403 on reseller endpoints: ${e.name}`, async () => {
        expect((await call('reseller2', e)).status).toBe(403);
      });
    }
    for (const e of [...dealerEndpoints, promoteEndpoint]) {
      it(`a dealer gets 403 on dealer endpoints: ${e.name}`, async () => {
        expect((await call('dealer2', e)).status).toBe(403);
      });
    }
    it('a reseller may not promote (403), even its own dealer', async () => {
      expect((await call('reseller', promoteEndpoint)).status).toBe(403);
    });
    for (const e of managerEndpoints) {
      it(`manager2 gets 403 on manager endpoints: ${e.name}`, async () => {
        expect((await call('manager2', e)).status).toBe(403);
      });
    }

    it('nobody reaches up or sideways: own user and ancestors are outside the subtree', async () => {
      const reseller = await ctx.as('reseller');
      expect((await reseller.get(`/credit-options/recovery/${ids.manager}`)).status).toBe(404);
      expect((await reseller.get(`/credit-options/recovery/${ids.reseller}`)).status).toBe(404);
      const manager = await ctx.as('manager');
      expect((await manager.get(`/resellers/${ids.manager}`)).status).toBe(404);
      expect((await manager.get(`/resellers/${ids.reseller2}`)).status).toBe(404);
      expect((await manager.get(`/resellers/${ids.dealer}`)).status).toBe(404);
    });

    it('lists never show the other branch', async () => {
      const otherIds = [ids.manager, ids.reseller, ids.dealer];
      for (const [who, url] of [
        ['manager2', '/resellers?per_page=100'],
        ['manager2', '/dealers?per_page=100'],
        ['reseller2', '/dealers?per_page=100'],
      ] as const) {
        const res = await (await ctx.as(who)).get(url);
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeGreaterThan(0);
        expect(res.body.data.filter((u: { id: number }) => otherIds.includes(u.id))).toEqual([]);
      }
      for (const who of ['manager2', 'reseller2', 'dealer2']) {
        const res = await (await ctx.as(who)).get('/transactions?per_page=100');
        expect(res.body.data.filter((t: { user: { id: number } }) => otherIds.includes(t.user.id))).toEqual([]);
      }
    });

    it('left the other branch untouched', async () => {
      expect(await state()).toEqual(snapshot);
    });
  },
  { creditOpsPerMinute: 10_000 },
);
