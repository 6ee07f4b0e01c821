/**
 * The server and the contract agree on every list (src/contract/lists.ts): each paginated GET route
 * is one of the contract's lists and documents exactly its filters, plain filters and sort parameters;
 * and the panel's data provider, talking to the real server, reads every list's page in its declared
 * shape, sorts by every declared key in both directions, searches where the list is searchable, and
 * sends every declared filter without a 400.
 */
import type { CrudFilter, HttpError } from '@refinedev/core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { LISTS, type ListEntry, type ListName, ROLES, type SortKeyOf, STORAGE_KEYS, can } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { createHttp } from '../../src/providers/http';
import { type ListSpec, listSpec } from '../../server/http/list';
import { type ApiRoute, apiRoutes, label } from './apiSurface';
import { describeEachDatabase } from './harness';

const entries = Object.entries(LISTS) as Array<[ListName, ListEntry]>;

/** A role that may read the list (by the role matrix; admin for a list that is part of another resource's show). */
const readerOf = (name: ListName) => ROLES.find((role) => can(role, name, 'list')) ?? 'admin';

const SORT_PARAMS: Record<ListEntry['sortStyle'], string[]> = {
  'sort-order': ['sort', 'order'],
  dash: ['sort'],
  'sort_by-direction': ['sort_by', 'sort_direction'],
  'sort_by-order': ['sort_by', 'sort_order'],
};

/** The contract list a route serves: by its path, or the transactions of one member or account. */
function listOfRoute(route: ApiRoute): ListName | undefined {
  const path = route.url.replace(/^\/api\/v1\//, '').replace(/^\/api\//, '');
  const found = entries.find(([, entry]) => entry.path === path);
  if (found) return found[0];
  if (/(^|\/)transactions$/.test(path)) return 'transactions';
  return undefined;
}

const storage = new Map<string, string>();

describeEachDatabase('lists: server and contract agree', (ctx) => {
  beforeAll(() => {
    // The data provider's session reads the token from localStorage, which Node has not.
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    });
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it('serves every paginated GET list as a contract list, with exactly its filters and sort parameters', () => {
    const lists = apiRoutes(ctx).filter((route) => {
      const keys = Object.keys((route.schema?.querystring as { shape?: object } | undefined)?.shape ?? {});
      return route.method === 'GET' && keys.includes('per_page');
    });
    expect(lists.length).toBeGreaterThan(15);
    const served = new Set<ListName>();
    for (const route of lists) {
      const name = listOfRoute(route);
      expect(name, `${label(route)} is a list of src/contract/lists.ts`).toBeDefined();
      served.add(name!);
      const entry = LISTS[name!] as ListEntry;
      const keys = Object.keys((route.schema!.querystring as { shape: object }).shape);
      const wrapped = keys.filter((k) => k.startsWith('filter[')).map((k) => k.slice(7, -1));
      expect(wrapped.sort(), `${label(route)}: filters`).toEqual([...entry.filters, ...(entry.search ? ['search'] : [])].sort());
      const plain = keys.filter((k) => entry.filters.includes(k));
      expect(plain.sort(), `${label(route)}: plain filters`).toEqual([...entry.plainFilters].sort());
      const sortKeys = keys.filter((k) => ['sort', 'order', 'sort_by', 'sort_direction', 'sort_order'].includes(k));
      expect(sortKeys.sort(), `${label(route)}: sort parameters`).toEqual([...SORT_PARAMS[entry.sortStyle]].sort());
    }
    expect([...served].sort()).toEqual(entries.map(([name]) => name).sort());
  });

  it('answers each list in its declared shape, and the data provider reads it, sorts it, searches it and filters it', async () => {
    const accountId = (await (await ctx.as('admin')).get('/accounts?per_page=1')).body.data[0].id as number;
    expect(accountId).toBeGreaterThan(0);
    for (const [name, entry] of entries) {
      const client = await ctx.as(readerOf(name));
      storage.set(STORAGE_KEYS.token, client.token!);
      const provider = createDataProvider(createHttp(`${ctx.baseUrl}/api/v1`));
      const path = entry.path.replace(':id', String(accountId));
      const meta = { path };

      const raw = await client.get(`/${path}`);
      expect(raw.status, name).toBe(200);
      const rows = entry.shape.kind === 'key' ? raw.body[entry.shape.key] : entry.shape.kind === 'nested' ? raw.body.data.data : raw.body.data;
      const paging = entry.shape.kind === 'nested' ? raw.body.data : entry.shape.kind === 'pagination' ? raw.body.pagination : raw.body.meta;
      expect(Array.isArray(rows), `${name}: rows where its shape puts them`).toBe(true);
      expect(paging.per_page, `${name}: default per page`).toBe(entry.defaultPerPage ?? 10);

      const page = await provider.getList({ resource: name, meta });
      expect(page.data, name).toEqual(rows);
      expect(page.total, name).toBe(paging.total);

      for (const field of entry.sorts) {
        for (const order of ['asc', 'desc'] as const) {
          await expect(provider.getList({ resource: name, meta, sorters: [{ field, order }] }), `${name} sorted by ${field} ${order}`).resolves.toBeDefined();
        }
      }
      await expect(provider.getList({ resource: name, meta, sorters: [{ field: 'no_such_key', order: 'asc' }] })).rejects.toMatchObject({ statusCode: 400 });
      if (entry.search) {
        await expect(
          provider.getList({ resource: name, meta, filters: [{ field: 'search', operator: 'contains', value: 'a' }] }),
          `${name} searched`,
        ).resolves.toBeDefined();
      }
      for (const field of entry.filters) {
        const filters: CrudFilter[] = [{ field, operator: 'eq', value: '1' }];
        // A value this filter does not take is a 422; an undeclared filter would be a 400.
        const outcome = await provider.getList({ resource: name, meta, filters }).then(
          () => 200,
          (error: HttpError) => error.statusCode,
        );
        expect([200, 422], `${name} filtered by ${field}`).toContain(outcome);
      }
    }
  });
});

it('types a server list on its contract entry: the sorts and filters map exactly the declared keys', () => {
  const entry = LISTS['ticket-categories'];
  const sorts: Record<SortKeyOf<typeof entry>, string> = { name: 'c.name', created_at: 'c.created_at', updated_at: 'c.updated_at', id: 'c.id' };
  const filters = { is_active: { column: 'c.is_active', type: 'boolean' as const } };
  const ok: ListSpec = listSpec(entry, { filters, sorts, idColumn: 'c.id' });
  // @ts-expect-error a sort key the entry does not declare
  listSpec(entry, { filters, sorts: { ...sorts, password: 'c.password' }, idColumn: 'c.id' });
  // @ts-expect-error a declared sort key without its column
  listSpec(entry, { filters, sorts: { name: 'c.name' }, idColumn: 'c.id' });
  // @ts-expect-error a filter the entry does not declare
  listSpec(entry, { filters: { ...filters, secret: { column: 'c.secret', type: 'text' } }, sorts, idColumn: 'c.id' });
  expect(ok.entry).toBe(entry);
});
