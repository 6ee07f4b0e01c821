/**
 * The data provider against a fake HTTP layer: every query-mapping rule of docs/api.md#lists, every list
 * shape it reads back, and the paths and bodies of single-record calls.
 */
import type { CrudFilter, CrudSort } from '@refinedev/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../../src/providers/dataProvider';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;
let provider: ReturnType<typeof createDataProvider>;

beforeEach(() => {
  localStorage.clear();
  fake = fakeHttp();
  provider = createDataProvider(fake.http);
});

async function listQuery(
  resource: string,
  options: { filters?: CrudFilter[]; sorters?: CrudSort[]; currentPage?: number; pageSize?: number; meta?: Record<string, unknown> } = {},
) {
  await provider.getList({
    resource,
    pagination: { currentPage: options.currentPage ?? 1, pageSize: options.pageSize ?? 10, mode: 'server' },
    filters: options.filters,
    sorters: options.sorters,
    meta: options.meta,
  });
  return fake.last();
}

describe('list queries: pagination', () => {
  it('sends page and per_page from the current page and page size', async () => {
    const request = await listQuery('managers', { currentPage: 3, pageSize: 25 });
    expect(request.method).toBe('GET');
    expect(request.path).toBe('managers');
    expect(request.query).toEqual({ page: '3', per_page: '25' });
  });

  it('defaults to page 1 of 10 when Refine gives no pagination', async () => {
    await provider.getList({ resource: 'resellers' });
    expect(fake.last().query).toEqual({ page: '1', per_page: '10' });
  });

  it('sends no paging at all when pagination is off', async () => {
    await provider.getList({ resource: 'servers', pagination: { mode: 'off' } });
    expect(fake.last().query).toEqual({});
  });

  it('goes to /api/v1/<resource>, or the path of its list entry when it differs', async () => {
    await listQuery('accounts');
    expect(fake.last().url).toMatch(/^\/api\/v1\/accounts\?/);
    await listQuery('user-promos');
    expect(fake.last().path).toBe('user-promos');
    await listQuery('user-announcements');
    expect(fake.last().path).toBe('user/announcements');
  });

  it('uses meta.path for sub-lists and merges meta.query into the query', async () => {
    const request = await listQuery('transactions', {
      meta: { path: 'resellers/7/transactions', query: { type: 'credit' } },
      sorters: [{ field: 'created_at', order: 'desc' }],
    });
    expect(request.path).toBe('resellers/7/transactions');
    expect(request.query).toEqual({ page: '1', per_page: '10', type: 'credit', sort: '-created_at' });
  });
});

describe('list queries: search', () => {
  const search: CrudFilter[] = [{ field: 'search', operator: 'contains', value: 'alice' }];

  it.each(['managers', 'resellers', 'dealers', 'accounts', 'user-search', 'servers', 'themes', 'user-promos', 'transactions', 'global-discounts'])(
    '%s sends filter[search]',
    async (resource) => {
      const request = await listQuery(resource, { filters: search });
      expect(request.query['filter[search]']).toBe('alice');
      expect(request.query.search).toBeUndefined();
      expect(decodeURIComponent(request.url)).toContain('filter[search]=alice');
    },
  );

  it.each(['tickets', 'ticket-categories', 'announcements', 'audit-logs', 'user-announcements'])('%s sends a plain search parameter', async (resource) => {
    const request = await listQuery(resource, { filters: search });
    expect(request.query.search).toBe('alice');
    expect(request.query['filter[search]']).toBeUndefined();
  });

  it('drops an empty search', async () => {
    const request = await listQuery('managers', { filters: [{ field: 'search', operator: 'contains', value: '' }] });
    expect(request.query).toEqual({ page: '1', per_page: '10' });
  });
});

describe('list queries: filters', () => {
  it('sends eq and contains filters as filter[field]', async () => {
    const request = await listQuery('accounts', {
      filters: [
        { field: 'status', operator: 'eq', value: 'active' },
        { field: 'server_id', operator: 'eq', value: 2 },
        { field: 'name', operator: 'contains', value: 'bob' },
      ],
    });
    expect(request.query).toEqual({ page: '1', per_page: '10', 'filter[status]': 'active', 'filter[server_id]': '2', 'filter[name]': 'bob' });
  });

  it('maps lte/lt to filter[field_before] and gte/gt to filter[field_after] (expiry filters)', async () => {
    const request = await listQuery('accounts', {
      filters: [
        { field: 'expiry_date', operator: 'lte', value: '2025-12-31' },
        { field: 'expiry_date', operator: 'gte', value: '2025-01-01' },
      ],
    });
    expect(request.query['filter[expiry_date_before]']).toBe('2025-12-31');
    expect(request.query['filter[expiry_date_after]']).toBe('2025-01-01');
    expect(request.query['filter[expiry_date]']).toBeUndefined();

    const strict = await listQuery('accounts', {
      filters: [
        { field: 'expiry_date', operator: 'lt', value: '2026-01-01' },
        { field: 'expiry_date', operator: 'gt', value: '2024-12-31' },
      ],
    });
    expect(strict.query['filter[expiry_date_before]']).toBe('2026-01-01');
    expect(strict.query['filter[expiry_date_after]']).toBe('2024-12-31');
  });

  it('joins array values with commas', async () => {
    const request = await listQuery('accounts', { filters: [{ field: 'status', operator: 'in', value: ['active', 'expired'] }] });
    expect(request.query['filter[status]']).toBe('active,expired');
    expect(decodeURIComponent(request.url)).toContain('filter[status]=active,expired');
  });

  it('drops undefined, null, empty-string and empty-array values but keeps 0 and false', async () => {
    const request = await listQuery('accounts', {
      filters: [
        { field: 'a', operator: 'eq', value: undefined },
        { field: 'b', operator: 'eq', value: null },
        { field: 'c', operator: 'eq', value: '' },
        { field: 'd', operator: 'in', value: [] },
        { field: 'zero', operator: 'eq', value: 0 },
        { field: 'is_active', operator: 'eq', value: false },
      ],
    });
    expect(request.query).toEqual({ page: '1', per_page: '10', 'filter[zero]': '0', 'filter[is_active]': 'false' });
  });

  it('flattens and/or groups into plain conditions', async () => {
    const request = await listQuery('dealers', {
      filters: [
        {
          operator: 'or',
          value: [
            { field: 'status', operator: 'eq', value: 'active' },
            { field: 'created_at', operator: 'gte', value: '2025-05-01' },
          ],
        },
      ],
    });
    expect(request.query['filter[status]']).toBe('active');
    expect(request.query['filter[created_at_after]']).toBe('2025-05-01');
  });

  it('sends plain filters for announcements (admin and user side) and audit logs', async () => {
    const announcements = await listQuery('announcements', {
      filters: [
        { field: 'type', operator: 'eq', value: 'info' },
        { field: 'priority', operator: 'eq', value: 'high' },
        { field: 'is_active', operator: 'eq', value: 1 },
      ],
      pageSize: 15,
    });
    expect(announcements.query).toEqual({ page: '1', per_page: '15', type: 'info', priority: 'high', is_active: '1' });

    const userSide = await listQuery('user-announcements', { filters: [{ field: 'type', operator: 'eq', value: 'warning' }] });
    expect(userSide.query).toEqual({ page: '1', per_page: '10', type: 'warning' });

    const audit = await listQuery('audit-logs', {
      filters: [
        { field: 'module', operator: 'eq', value: 'managers' },
        { field: 'action', operator: 'eq', value: 'create' },
        { field: 'date_from', operator: 'eq', value: '2025-01-01' },
      ],
    });
    expect(audit.query).toEqual({ page: '1', per_page: '10', module: 'managers', action: 'create', date_from: '2025-01-01' });
    expect(Object.keys(audit.query).some((k) => k.startsWith('filter['))).toBe(false);
  });
});

describe('list queries: sorting', () => {
  it('sends sort and order by default, from the first sorter only', async () => {
    const request = await listQuery('managers', {
      sorters: [
        { field: 'name', order: 'desc' },
        { field: 'id', order: 'asc' },
      ],
    });
    expect(request.query).toEqual({ page: '1', per_page: '10', sort: 'name', order: 'desc' });
  });

  it('sends nothing when there is no sorter (the server applies its default)', async () => {
    const request = await listQuery('transactions');
    expect(request.query.sort).toBeUndefined();
    expect(request.query.order).toBeUndefined();
  });

  it('transactions use sort=-field for descending and sort=field for ascending, with no order', async () => {
    const desc = await listQuery('transactions', { sorters: [{ field: 'created_at', order: 'desc' }] });
    expect(desc.query.sort).toBe('-created_at');
    expect(desc.query.order).toBeUndefined();
    expect(desc.url).toContain('sort=-created_at');

    const asc = await listQuery('transactions', { sorters: [{ field: 'amount', order: 'asc' }] });
    expect(asc.query.sort).toBe('amount');
    expect(asc.query.order).toBeUndefined();
  });

  it('ticket categories use sort_by and sort_direction', async () => {
    const request = await listQuery('ticket-categories', { sorters: [{ field: 'name', order: 'asc' }] });
    expect(request.query).toEqual({ page: '1', per_page: '10', sort_by: 'name', sort_direction: 'asc' });
  });

  it('announcements use sort_by and sort_order', async () => {
    const request = await listQuery('announcements', { sorters: [{ field: 'created_at', order: 'desc' }], pageSize: 15 });
    expect(request.query).toEqual({ page: '1', per_page: '15', sort_by: 'created_at', sort_order: 'desc' });
  });
});

describe('list responses', () => {
  const rows = [{ id: 1 }, { id: 2 }];

  it('reads {data, meta.total}', async () => {
    fake.on('GET', 'managers', { status: 200, body: { data: rows, meta: { total: 42, current_page: 1, per_page: 10, last_page: 5 } } });
    expect(await provider.getList({ resource: 'managers' })).toEqual({ data: rows, total: 42, totalExact: true, lastPage: 5 });
  });

  it('reads a total past the exact-count limit as a lower bound, with the last page known to exist', async () => {
    fake.on('GET', 'accounts', {
      status: 200,
      body: { data: rows, meta: { total: 10000, current_page: 3, per_page: 2, last_page: 5000, from: 5, to: 6, total_exact: false } },
    });
    expect(await provider.getList({ resource: 'accounts' })).toEqual({ data: rows, total: 10000, totalExact: false, lastPage: 5000 });
  });

  it('counts the rows when meta.total is missing, and reads a bare array', async () => {
    fake.on('GET', 'servers', { status: 200, body: { data: rows } });
    expect(await provider.getList({ resource: 'servers' })).toEqual({ data: rows, total: 2, totalExact: true });
    fake.on('GET', 'servers', { status: 200, body: rows });
    expect(await provider.getList({ resource: 'servers' })).toEqual({ data: rows, total: 2, totalExact: true });
  });

  it('reads themes from the themes key', async () => {
    fake.on('GET', 'themes', { status: 200, body: { themes: rows, meta: { total: 12 } } });
    expect(await provider.getList({ resource: 'themes' })).toEqual({ data: rows, total: 12, totalExact: true });
  });

  it('reads user promos from the promos key', async () => {
    fake.on('GET', 'user-promos', { status: 200, body: { promos: rows, meta: { total: 9 } } });
    expect(await provider.getList({ resource: 'user-promos' })).toEqual({ data: rows, total: 9, totalExact: true });
    expect(fake.requests.map((r) => r.path)).toEqual(['user-promos']);
  });

  it('reads the nested ticket shape {data: {data, total, current_page, per_page}}', async () => {
    fake.on('GET', 'tickets', { status: 200, body: { data: { data: rows, total: 31, current_page: 2, per_page: 10 } } });
    expect(await provider.getList({ resource: 'tickets', pagination: { currentPage: 2, pageSize: 10 } })).toEqual({ data: rows, total: 31, totalExact: true });
  });

  it('reads audit logs with pagination.total', async () => {
    fake.on('GET', 'audit-logs', {
      status: 200,
      body: { data: rows, pagination: { current_page: 1, last_page: 4, per_page: 15, total: 57, from: 1, to: 15 } },
    });
    expect(await provider.getList({ resource: 'audit-logs' })).toEqual({ data: rows, total: 57, totalExact: true, lastPage: 4 });
  });

  it('reads an empty list', async () => {
    fake.on('GET', 'tickets', { status: 200, body: { data: { data: [], total: 0, current_page: 1, per_page: 10 } } });
    expect(await provider.getList({ resource: 'tickets' })).toEqual({ data: [], total: 0, totalExact: true });
  });
});

describe('single records', () => {
  it('getOne GETs <resource>/<id> and unwraps {data}', async () => {
    fake.on('GET', 'managers/5', { status: 200, body: { data: { id: 5, name: 'M' } } });
    expect(await provider.getOne({ resource: 'managers', id: 5 })).toEqual({ data: { id: 5, name: 'M' } });
    expect(fake.last()).toMatchObject({ method: 'GET', url: '/api/v1/managers/5' });
  });

  it('getOne reads a record that is not wrapped in data', async () => {
    fake.on('GET', 'accounts/3', { status: 200, body: { id: 3, login: 'u' } });
    expect(await provider.getOne({ resource: 'accounts', id: 3 })).toEqual({ data: { id: 3, login: 'u' } });
  });

  it('getOne honours meta.path', async () => {
    await provider.getOne({ resource: 'announcements', id: 4, meta: { path: 'user/announcements' } });
    expect(fake.last().url).toBe('/api/v1/user/announcements/4');
  });

  it('getMany makes one GET per id', async () => {
    fake.on('GET', /^servers\/\d+$/, (r) => ({ status: 200, body: { data: { id: Number(r.path.split('/')[1]) } } }));
    expect(await provider.getMany!({ resource: 'servers', ids: [1, 2] })).toEqual({ data: [{ id: 1 }, { id: 2 }] });
    expect(fake.requests.map((r) => r.url).sort()).toEqual(['/api/v1/servers/1', '/api/v1/servers/2']);
  });

  it('create POSTs the variables as JSON to the resource path', async () => {
    fake.on('POST', 'ticket-categories', { status: 201, body: { data: { id: 9, name: 'Billing' } } });
    const result = await provider.create({ resource: 'ticket-categories', variables: { name: 'Billing', is_active: true } });
    expect(result).toEqual({ data: { id: 9, name: 'Billing' } });
    const request = fake.last();
    expect(request).toMatchObject({ method: 'POST', url: '/api/v1/ticket-categories', body: { name: 'Billing', is_active: true } });
    expect(request.headers['Content-Type']).toMatch(/application\/json/);
  });

  it('create honours meta.path', async () => {
    await provider.create({ resource: 'accounts', variables: { months: 1 }, meta: { path: 'accounts/bulk-renew' } });
    expect(fake.last()).toMatchObject({ method: 'POST', url: '/api/v1/accounts/bulk-renew', body: { months: 1 } });
  });

  it('update PUTs by default', async () => {
    fake.on('PUT', 'managers/5', { status: 200, body: { data: { id: 5, name: 'New' } } });
    expect(await provider.update({ resource: 'managers', id: 5, variables: { name: 'New' } })).toEqual({ data: { id: 5, name: 'New' } });
    expect(fake.last()).toMatchObject({ method: 'PUT', url: '/api/v1/managers/5', body: { name: 'New' } });
  });

  it('update PATCHes with meta.method patch (status toggles)', async () => {
    await provider.update({ resource: 'resellers', id: 8, variables: { is_active: false }, meta: { method: 'patch' } });
    expect(fake.last()).toMatchObject({ method: 'PATCH', url: '/api/v1/resellers/8', body: { is_active: false } });
  });

  it('update honours meta.path', async () => {
    await provider.update({ resource: 'announcements', id: 2, variables: {}, meta: { path: 'announcements/toggle', method: 'patch' } });
    expect(fake.last()).toMatchObject({ method: 'PATCH', url: '/api/v1/announcements/toggle/2' });
  });

  it('deleteOne DELETEs <resource>/<id>', async () => {
    fake.on('DELETE', 'themes/3', { status: 200, body: { message: 'Deleted' } });
    await provider.deleteOne({ resource: 'themes', id: 3 });
    expect(fake.last()).toMatchObject({ method: 'DELETE', url: '/api/v1/themes/3', body: undefined });
  });

  it('sends the bearer token of the session', async () => {
    localStorage.setItem('token', 'secret-token');
    await provider.getOne({ resource: 'managers', id: 1 });
    expect(fake.last().headers.Authorization).toBe('Bearer secret-token');
  });
});

describe('204 No Content reads as empty', () => {
  it('deleteOne answers {id} for a 204', async () => {
    fake.on('DELETE', 'ticket-categories/4', { status: 204 });
    expect(await provider.deleteOne({ resource: 'ticket-categories', id: 4 })).toEqual({ data: { id: 4 } });
  });

  it('update and create answer an empty record for a 204', async () => {
    fake.on('PUT', 'servers/1', { status: 204 });
    fake.on('POST', 'servers', { status: 204 });
    expect(await provider.update({ resource: 'servers', id: 1, variables: { name: 'x' } })).toEqual({ data: {} });
    expect(await provider.create({ resource: 'servers', variables: { name: 'x' } })).toEqual({ data: {} });
  });

  it('custom answers null data for a 204 and for an empty 200', async () => {
    fake.on('POST', 'accounts/1/reset-device', { status: 204 });
    expect(await provider.custom!({ url: 'accounts/1/reset-device', method: 'post' })).toEqual({ data: null });
    fake.on('POST', 'accounts/2/reset-device', { status: 200 });
    expect(await provider.custom!({ url: 'accounts/2/reset-device', method: 'post' })).toEqual({ data: null });
  });
});

describe('custom()', () => {
  it('sends method, url, payload, query and headers as given, and returns the body as is', async () => {
    fake.on('PUT', 'system-settings/trial-days', { status: 200, body: { message: 'Setting updated successfully', data: { trial_days: 14 } } });
    const result = await provider.custom!({
      url: 'system-settings/trial-days',
      method: 'put',
      payload: { trial_days: 14 },
      query: { server_id: 2 },
      headers: { 'Idempotency-Key': 'abc' },
    });
    expect(result).toEqual({ data: { message: 'Setting updated successfully', data: { trial_days: 14 } } });
    const request = fake.last();
    expect(request).toMatchObject({ method: 'PUT', path: 'system-settings/trial-days', query: { server_id: '2' }, body: { trial_days: 14 } });
    expect(request.headers['Idempotency-Key']).toBe('abc');
  });

  it('GETs with a query', async () => {
    fake.on('GET', 'mac-search', { status: 200, body: { data: [] } });
    await provider.custom!({ url: 'mac-search', method: 'get', query: { mac: '001A79000001', server_id: 1 } });
    expect(fake.last().url).toBe('/api/v1/mac-search?mac=001A79000001&server_id=1');
  });

  it('getApiUrl is the API prefix', () => {
    expect(provider.getApiUrl()).toBe('/api/v1');
  });
});

describe('errors from provider calls', () => {
  it('rejects with the HttpError shape (message, statusCode, errors)', async () => {
    fake.on('POST', 'ticket-categories', {
      status: 422,
      body: { message: 'The given data was invalid.', errors: { name: ['The name has already been taken.'] } },
    });
    await expect(provider.create({ resource: 'ticket-categories', variables: { name: 'Billing' } })).rejects.toEqual({
      message: 'The given data was invalid.',
      statusCode: 422,
      errors: { name: ['The name has already been taken.'] },
    });
  });
});

describe('a list page prefetched before its page loads', () => {
  const first = { resource: 'accounts', pagination: { currentPage: 1, pageSize: 10, mode: 'server' as const }, filters: [], sorters: [] };
  const rows = [{ id: 1 }];

  it('answers the first getList of the same request without asking again, and only that one', async () => {
    fake.on('GET', 'accounts', { status: 200, body: { data: rows, meta: { total: 1 } } });
    provider.prefetchList(first);
    expect(await provider.getList({ ...first, filters: undefined, sorters: undefined })).toEqual({ data: rows, total: 1, totalExact: true });
    expect(fake.calls('GET', 'accounts')).toHaveLength(1);
    await provider.getList(first);
    expect(fake.calls('GET', 'accounts')).toHaveLength(2);
  });

  it('leaves another request (page, sort, token) to its own call', async () => {
    localStorage.setItem('token', 'one');
    provider.prefetchList(first);
    await provider.getList({ ...first, pagination: { ...first.pagination, currentPage: 2 } });
    await provider.getList({ ...first, sorters: [{ field: 'login', order: 'asc' }] });
    localStorage.setItem('token', 'two');
    await provider.getList(first);
    expect(fake.calls('GET', 'accounts')).toHaveLength(4);
  });

  it('answers an unpaged list from its own path and a custom GET the same way, once', async () => {
    fake.on('GET', 'servers/public', { status: 200, body: { data: rows } });
    fake.on('GET', 'user/manager-server', { status: 200, body: { data: null } });
    provider.prefetchList({ resource: 'servers', meta: { path: 'servers/public' }, pagination: { mode: 'off' } });
    provider.prefetchGet('user/manager-server');
    expect(await provider.getList({ resource: 'servers', meta: { path: 'servers/public' }, pagination: { mode: 'off' } })).toMatchObject({ data: rows });
    expect(await provider.custom!({ url: 'user/manager-server', method: 'get' })).toEqual({ data: { data: null } });
    await provider.custom!({ url: 'user/manager-server', method: 'get' });
    expect(fake.calls('GET', 'servers/public')).toHaveLength(1);
    expect(fake.calls('GET', 'user/manager-server')).toHaveLength(2);
  });

  it('hands an answer that has arrived to the query that starts with it, once, and then to no getList', async () => {
    fake.on('GET', 'accounts', { status: 200, body: { data: rows, meta: { total: 1 } } });
    fake.on('GET', 'user/manager-server', { status: 200, body: { data: null } });
    provider.prefetchList(first);
    provider.prefetchGet('user/manager-server');
    // On its way: not yet (the page's getList takes it as it comes).
    expect(provider.arrivedList(first)).toBeUndefined();
    await vi.waitFor(() => expect(provider.arrivedList({ ...first, filters: undefined, sorters: undefined })).toMatchObject({ data: { data: rows, total: 1 } }));
    expect(provider.arrivedList(first)).toBeUndefined();
    expect(provider.arrivedGet('/api/v1/user/manager-server')).toMatchObject({ data: { data: { data: null } } });
    await provider.getList(first);
    await provider.custom!({ url: 'user/manager-server', method: 'get' });
    expect(fake.calls('GET', 'accounts')).toHaveLength(2);
    expect(fake.calls('GET', 'user/manager-server')).toHaveLength(2);
  });

  it('hands no arrived answer to a request with headers of its own, nor a failure', async () => {
    fake.on('GET', 'accounts', { status: 200, body: { data: rows, meta: { total: 1 } } });
    fake.on('GET', 'servers/public', { status: 500, body: { message: 'Server Error' } });
    provider.prefetchList(first);
    provider.prefetchList({ resource: 'servers', meta: { path: 'servers/public' }, pagination: { mode: 'off' } });
    const servers = { resource: 'servers', meta: { path: 'servers/public' }, pagination: { mode: 'off' as const } };
    await vi.waitFor(() => expect(fake.requests).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(provider.arrivedList({ ...first, meta: { headers: { 'Idempotency-Key': 'k' } } })).toBeUndefined();
    expect(provider.arrivedList(servers)).toBeUndefined();
    // The failure is still the page's, through its getList.
    await expect(provider.getList(servers)).rejects.toMatchObject({ statusCode: 500 });
    expect(provider.arrivedList(first)).toMatchObject({ data: { data: rows } });
  });

  it('hands a failed prefetch to the page as its failure', async () => {
    fake.on('GET', 'accounts', { status: 500, body: { message: 'Server Error' } });
    provider.prefetchList(first);
    await expect(provider.getList(first)).rejects.toMatchObject({ statusCode: 500, message: 'Server Error' });
    expect(fake.calls('GET', 'accounts')).toHaveLength(1);
  });
});
