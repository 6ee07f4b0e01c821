/**
 * The list conventions (docs/api.md#lists) on the sample simple resource, ticket categories:
 * paging meta, search, sorting in all its spellings, unknown filters, the per-page cap, and CRUD.
 */
import { expect, it } from 'vitest';
import { ACCESS, DEFAULT_PAGE_SIZE, ENTITY_FORM, EXACT_TOTAL_LIMIT, LISTS, type ListEntry, MAX_PAGE_SIZE, ROLES, SEARCH_EXACT_TOTAL_LIMIT } from '../../src/contract';
import { type ListSpec, paginate } from '../../server/http/list';
import { type TestContext, describeEachDatabase } from './harness';
import { createBranch, insertAccounts } from './hierarchyFixtures';

const SEEDED = ['Billing', 'General', 'Technical Support'];
const EXTRA = Array.from({ length: 12 }, (_, i) => `Extra ${String(i + 1).padStart(2, '0')}`);

async function addCategories(ctx: TestContext, names: string[], is_active = 1) {
  const now = new Date().toISOString();
  for (const name of names) {
    await ctx.db.kysely
      .insertInto('ticket_categories')
      .values({ name, description: `About ${name}`, is_active, created_at: now, updated_at: now })
      .execute();
  }
}

describeEachDatabase('list conventions (ticket categories)', (ctx) => {
  const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((c) => c.name);

  it('pages with {data, meta:{total, current_page, per_page, last_page}}', async () => {
    await addCategories(ctx, EXTRA);
    const admin = await ctx.as('admin');
    const total = SEEDED.length + EXTRA.length;
    const first = await admin.get('/ticket-categories');
    expect(first.status).toBe(200);
    expect(first.body.meta).toMatchObject({ total, current_page: 1, per_page: DEFAULT_PAGE_SIZE, last_page: Math.ceil(total / DEFAULT_PAGE_SIZE) });
    expect(first.body.data).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(first.body.data[0]).toMatchObject({ name: 'Billing', is_active: true, tickets_count: 1 });
    expect(Object.keys(first.body.data[0]).sort()).toEqual(['created_at', 'description', 'id', 'is_active', 'name', 'tickets_count', 'updated_at']);

    const second = await admin.get('/ticket-categories?page=2&per_page=4');
    expect(second.body.meta).toMatchObject({ total, current_page: 2, per_page: 4, last_page: Math.ceil(total / 4) });
    expect(names(second)).toEqual([...SEEDED, ...EXTRA].sort().slice(4, 8));

    const last = await admin.get(`/ticket-categories?page=${Math.ceil(total / 4)}&per_page=4`);
    expect(last.body.data).toHaveLength(total % 4 || 4);
    const beyond = await admin.get('/ticket-categories?page=50&per_page=4');
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.total).toBe(total);

    // Pages never overlap and together hold every row once.
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 4); page++) seen.push(...names(await admin.get(`/ticket-categories?page=${page}&per_page=4`)));
    expect(seen).toEqual([...SEEDED, ...EXTRA].sort());
  });

  it('counts exactly up to the limit and past it answers the limit as a lower bound, marked total_exact false', async () => {
    const counted = Array.from({ length: 15 }, (_, i) => `Counted ${String(i + 1).padStart(2, '0')}`);
    await addCategories(ctx, counted);
    const entry: ListEntry = { ...LISTS['ticket-categories'], sorts: ['name'], defaultSort: 'name', filters: [] };
    const spec: ListSpec = { entry, search: ['tc.name'], filters: {}, sorts: { name: 'tc.name' }, idColumn: 'tc.id', exactTotalUpTo: 10 };
    const list = (query: Record<string, string>) =>
      paginate<{ name: string }>(ctx.db.kysely.selectFrom('ticket_categories as tc').where('tc.name', 'like', 'Counted%'), query, spec, (q) =>
        q.select(['tc.id', 'tc.name']),
      );

    const first = await list({ per_page: '4' });
    expect(first.meta).toEqual({ total: 10, total_exact: false, current_page: 1, per_page: 4, last_page: 3, from: 1, to: 4 });
    // A full page past the counted rows: the page after it exists as far as anyone knows.
    const third = await list({ page: '3', per_page: '4' });
    expect(third.meta).toMatchObject({ total: 10, total_exact: false, last_page: 4, from: 9, to: 12 });
    // The rows past the limit are served as usual; the last, short page ends the list.
    const fourth = await list({ page: '4', per_page: '4' });
    expect(fourth.data.map((r) => r.name)).toEqual(counted.slice(12));
    expect(fourth.meta).toMatchObject({ total: 10, total_exact: false, last_page: 4, from: 13, to: 15 });
    // Within the limit the count is exact: a filter that leaves 9, and exactly the limit.
    expect((await list({ 'filter[search]': 'Counted 0' })).meta).toMatchObject({ total: 9, total_exact: true, last_page: 1 });
    await ctx.db.kysely.deleteFrom('ticket_categories').where('name', 'in', counted.slice(10)).execute();
    expect((await list({})).meta).toMatchObject({ total: 10, total_exact: true, last_page: 1 });
  });

  it('counts a search exactly up to SEARCH_EXACT_TOTAL_LIMIT and the same list without one up to EXACT_TOTAL_LIMIT', async () => {
    expect(SEARCH_EXACT_TOTAL_LIMIT).toBeLessThan(EXACT_TOTAL_LIMIT);
    const { dealer } = await createBranch(ctx);
    await insertAccounts(ctx, dealer.id, SEARCH_EXACT_TOTAL_LIMIT + 5);
    const all = await dealer.client.get('/accounts?per_page=10');
    expect(all.body.meta).toMatchObject({ total: SEARCH_EXACT_TOTAL_LIMIT + 5, total_exact: true });
    const searched = await dealer.client.get('/accounts?per_page=10&filter[search]=test%20account');
    expect(searched.status).toBe(200);
    expect(searched.body.data).toHaveLength(10);
    expect(searched.body.meta).toMatchObject({ total: SEARCH_EXACT_TOTAL_LIMIT, total_exact: false });
    // The rows past the count are still served.
    const past = await dealer.client.get(`/accounts?per_page=10&page=${SEARCH_EXACT_TOTAL_LIMIT / 10 + 1}&filter[search]=test%20account`);
    expect(past.body.data).toHaveLength(5);
    expect(past.body.meta).toMatchObject({ total_exact: false, to: SEARCH_EXACT_TOTAL_LIMIT + 5 });
  });

  it('caps per_page and refuses non-numeric paging with 422', async () => {
    const admin = await ctx.as('admin');
    const capped = await admin.get('/ticket-categories?per_page=100000');
    expect(capped.status).toBe(200);
    expect(capped.body.meta.per_page).toBe(MAX_PAGE_SIZE);
    for (const [query, field] of [
      ['page=abc', 'page'],
      ['per_page=-1', 'per_page'],
      ['per_page=0', 'per_page'],
    ]) {
      const res = await admin.get(`/ticket-categories?${query}`);
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors), query).toEqual([field]);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('searches with filter[search] and the search alias, case-insensitively, LIKE characters taken literally', async () => {
    const admin = await ctx.as('admin');
    const bill = await admin.get('/ticket-categories?filter[search]=BILL');
    expect(bill.status).toBe(200);
    expect(names(bill)).toEqual(['Billing']);
    expect(bill.body.meta.total).toBe(1);
    expect(names(await admin.get('/ticket-categories?search=bill'))).toEqual(['Billing']);
    // Description is searched too.
    expect(names(await admin.get('/ticket-categories?filter[search]=support%20questions'))).toEqual(['Technical Support']);
    expect((await admin.get('/ticket-categories?filter[search]=%25')).body.meta.total).toBe(0);
    expect((await admin.get('/ticket-categories?filter[search]=_')).body.meta.total).toBe(0);
    await addCategories(ctx, ['100% uptime_club']);
    expect(names(await admin.get('/ticket-categories?filter[search]=%25'))).toEqual(['100% uptime_club']);
    expect(names(await admin.get('/ticket-categories?filter[search]=_'))).toEqual(['100% uptime_club']);
    const quote = await admin.get(`/ticket-categories?filter[search]=${encodeURIComponent("%_\\'")}`);
    expect(quote.status).toBe(200);
    expect(quote.body.data).toEqual([]);
  });

  it('sorts each list with its one sort style, and refuses the others', async () => {
    const admin = await ctx.as('admin');
    // Ticket categories: sort_by and sort_direction.
    const all = (await admin.get('/ticket-categories?per_page=100')).body.data.map((c: { name: string }) => c.name);
    const ascending = [...all].sort();
    expect(all).toEqual(ascending);
    const descending = [...ascending].reverse();
    expect(names(await admin.get('/ticket-categories?per_page=100&sort_by=name'))).toEqual(ascending);
    expect(names(await admin.get('/ticket-categories?per_page=100&sort_by=name&sort_direction=desc'))).toEqual(descending);
    const byId = (await admin.get('/ticket-categories?per_page=100&sort_by=id&sort_direction=desc')).body.data.map((c: { id: number }) => c.id);
    expect(byId).toEqual([...byId].sort((a, b) => b - a));
    for (const other of ['sort=name', 'sort=-name', 'sort=name&order=desc', 'sort_by=name&sort_order=asc']) {
      const refused = await admin.get(`/ticket-categories?${other}`);
      expect(refused.status, other).toBe(400);
      expect(refused.body.message, other).toMatch(/This list sorts with `sort_by, sort_direction`\.$/);
    }

    // Most lists: sort and order ('-name' is not a sort key there).
    const themes = (await admin.get('/themes?per_page=100&sort=name&order=desc')).body.themes ?? (await admin.get('/themes?per_page=100&sort=name&order=desc')).body.data;
    expect(themes.map((t: { name: string }) => t.name)).toEqual([...themes.map((t: { name: string }) => t.name)].sort().reverse());
    expect((await admin.get('/themes?sort=-name')).status).toBe(400);
    expect((await admin.get('/themes?sort_by=name')).status).toBe(400);

    // Transactions: sort with '-' for descending, no order parameter.
    const tx = await admin.get('/transactions?sort=-id&per_page=50');
    expect(tx.status).toBe(200);
    const txIds = tx.body.data.map((t: { id: number }) => t.id);
    expect(txIds).toEqual([...txIds].sort((a: number, b: number) => b - a));
    expect((await admin.get('/transactions?sort=id&order=desc')).status).toBe(400);

    const bad = await admin.get('/ticket-categories?sort_by=password');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Requested sort(s) `password` is not allowed. Allowed sort(s) are `name, created_at, updated_at, id`.');
    const direction = await admin.get('/ticket-categories?sort_by=name&sort_direction=sideways');
    expect(direction.status).toBe(422);
    expect(direction.body.errors).toEqual({ sort_direction: ['The sort direction must be asc or desc.'] });
  });

  it('filters by a whitelisted field and refuses an unknown filter with 400', async () => {
    const admin = await ctx.as('admin');
    await addCategories(ctx, ['Retired'], 0);
    const inactive = await admin.get('/ticket-categories?filter[is_active]=false');
    expect(names(inactive)).toEqual(['Retired']);
    const active = await admin.get('/ticket-categories?filter[is_active]=1&per_page=100');
    expect(names(active)).not.toContain('Retired');
    expect(active.body.meta.total).toBeGreaterThan(3);

    const unknown = await admin.get('/ticket-categories?filter[nope]=1');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ message: 'Requested filter(s) `nope` are not allowed. Allowed filter(s) are `search, is_active`.' });
    const badValue = await admin.get('/ticket-categories?filter[is_active]=maybe');
    expect(badValue.status).toBe(422);
    expect(Object.keys(badValue.body.errors)).toEqual(['filter.is_active']);
  });

  it('creates, shows, updates and deletes, with 422 for a duplicate name and 404 for an unknown id', async () => {
    const admin = await ctx.as('admin');
    const created = await admin.post('/ticket-categories', { name: '  Hardware  ', description: 'Boxes and remotes' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Hardware', description: 'Boxes and remotes', is_active: true, tickets_count: 0 });
    const id = created.body.data.id;

    const shown = await admin.get(`/ticket-categories/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(created.body.data);

    const duplicate = await admin.post('/ticket-categories', { name: 'hardware' });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors).toEqual({ name: ['The name has already been taken.'] });
    const noName = await admin.post('/ticket-categories', { name: '' });
    expect(noName.status).toBe(422);
    expect(noName.body.errors).toEqual({ name: [ENTITY_FORM.nameRequired] });

    const updated = await admin.put(`/ticket-categories/${id}`, { name: 'Hardware & Devices', description: '', is_active: false });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id, name: 'Hardware & Devices', description: null, is_active: false });
    const renameToTaken = await admin.put(`/ticket-categories/${id}`, { name: 'BILLING' });
    expect(renameToTaken.status).toBe(422);
    expect(renameToTaken.body.errors).toEqual({ name: ['The name has already been taken.'] });
    // Keeping its own name is not a duplicate.
    expect((await admin.put(`/ticket-categories/${id}`, { name: 'Hardware & Devices' })).status).toBe(200);

    const audit = await ctx.db.kysely.selectFrom('audit_logs').select(['action']).where('module', '=', 'ticket_categories').where('entity_id', '=', id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['create', 'update', 'update']);

    const deleted = await admin.delete(`/ticket-categories/${id}`);
    expect(deleted.status).toBe(204);
    for (const res of [
      await admin.get(`/ticket-categories/${id}`),
      await admin.put(`/ticket-categories/${id}`, { name: 'Ghost' }),
      await admin.delete(`/ticket-categories/${id}`),
      await admin.get('/ticket-categories/999999'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: ACCESS.notFoundEntity });
    }
    const badId = await admin.get('/ticket-categories/abc');
    expect(badId.status).toBe(422);
  });

  it('lets only admin manage categories', async () => {
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      const client = await ctx.as(role);
      for (const res of [
        await client.get('/ticket-categories'),
        await client.post('/ticket-categories', { name: 'Nope' }),
        await client.delete('/ticket-categories/1'),
      ]) {
        expect(res.status, role).toBe(403);
        expect(res.body).toEqual({ message: ACCESS.forbidden });
      }
    }
  });

  it('/ticket-categories-active answers the active categories to every role', async () => {
    const expected = (await (await ctx.as('admin')).get('/ticket-categories?filter[is_active]=true&per_page=100')).body.data.map((c: { name: string }) => c.name);
    expect(expected).toContain('General');
    for (const role of ROLES) {
      for (const path of ['/ticket-categories-active', '/tickets-categories']) {
        const res = await (await ctx.as(role)).get(path);
        expect(res.status, `${role} ${path}`).toBe(200);
        expect(names(res), `${role} ${path}`).toEqual(expected);
        expect(res.body.data.every((c: { is_active: boolean }) => c.is_active)).toBe(true);
      }
    }
    expect((await ctx.anonymous.get('/ticket-categories-active')).status).toBe(401);
  });
});
