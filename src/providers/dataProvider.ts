/**
 * The data provider for our API: maps Refine's pagination, sorters and filters onto the query its
 * list's entry declares (src/contract/lists.ts, docs/api.md#lists) and reads that list's shape back as
 * { data, total }. Every method sends `meta.headers` (an Idempotency-Key goes through useCreate / useCustomMutation that way).
 */
import type { CrudFilter, CrudSort, DataProvider, GetListParams } from '@refinedev/core';
import type { AxiosInstance } from 'axios';
import { API_PREFIX, type ListEntry, listOf } from '../contract';
import { http as defaultHttp } from './http';
import { session } from './session';

type Query = Record<string, string | number>;

/** Filter operators onto query keys: eq/contains as filter[field]; lte/gte as filter[field_before/_after]. */
export function filterParams(filters: CrudFilter[] | undefined, list: ListEntry): Query {
  const query: Query = {};
  const put = (key: string, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    if (text === '') return;
    if (key === 'search') query[list.search === 'plain' ? 'search' : 'filter[search]'] = text;
    else query[list.filterParam === 'plain' ? key : `filter[${key}]`] = text;
  };
  for (const filter of filters ?? []) {
    if (!('field' in filter)) {
      // Logical groups are not part of this API: flatten their plain conditions.
      Object.assign(query, filterParams(filter.value as CrudFilter[], list));
      continue;
    }
    switch (filter.operator) {
      case 'lte':
      case 'lt':
        put(`${filter.field}_before`, filter.value);
        break;
      case 'gte':
      case 'gt':
        put(`${filter.field}_after`, filter.value);
        break;
      default:
        put(filter.field, filter.value);
    }
  }
  return query;
}

export function sortParams(sorters: CrudSort[] | undefined, list: ListEntry): Query {
  const sorter = sorters?.[0];
  if (!sorter) return {};
  switch (list.sortStyle) {
    case 'dash':
      return { sort: sorter.order === 'desc' ? `-${sorter.field}` : sorter.field };
    case 'sort_by-direction':
      return { sort_by: sorter.field, sort_direction: sorter.order };
    case 'sort_by-order':
      return { sort_by: sorter.field, sort_order: sorter.order };
    default:
      return { sort: sorter.field, order: sorter.order };
  }
}

/**
 * A page of a list as the panel reads it: rows and the total, and whether that total is exact (past
 * EXACT_TOTAL_LIMIT it is a lower bound, and `lastPage` is the furthest page known to exist).
 */
export interface ListPage {
  data: any[];
  total: number;
  totalExact: boolean;
  lastPage?: number;
}

const pageOf = (rows: any[], meta: any): ListPage => ({
  data: rows,
  total: meta?.total ?? rows.length,
  totalExact: meta?.total_exact !== false,
  ...(typeof meta?.last_page === 'number' ? { lastPage: meta.last_page } : {}),
});

/** Reads rows and the total from each of the API's list shapes. */
export function readList(body: any, list: ListEntry): ListPage {
  switch (list.shape.kind) {
    case 'key':
      return pageOf(body?.[list.shape.key] ?? body?.data ?? [], body?.meta);
    case 'nested': {
      const inner = body?.data ?? {};
      return pageOf(Array.isArray(inner) ? inner : (inner.data ?? []), inner);
    }
    case 'pagination':
      return pageOf(body?.data ?? [], body?.pagination);
    default:
      return pageOf(Array.isArray(body) ? body : (body?.data ?? []), body?.meta);
  }
}

/** A resource's path under the API prefix: its list's path, or its own name. */
const pathOf = (resource: string) => listOf(resource).path;

/** A single record: { data: record } or the record itself. */
const one = (body: any) => (body && typeof body === 'object' && 'data' in body && !Array.isArray(body.data) ? body.data : body);

/** The key of a GET for the current token: a prefetched answer serves only the same request. */
const getKey = (path: string, params: Query = {}) =>
  `${session.token()} ${path}?${new URLSearchParams(
    Object.entries(params)
      .map(([k, v]) => [k, String(v)])
      .sort(),
  ).toString()}`;

/** The path and query of a getList call. */
function listRequest({ resource, pagination, sorters, filters, meta }: GetListParams) {
  const list = listOf(resource);
  const params: Query = {
    ...filterParams(filters, list),
    ...sortParams(sorters, list),
    ...(meta?.query as Query | undefined),
  };
  if (pagination?.mode !== 'off') {
    params.page = pagination?.currentPage ?? 1;
    params.per_page = pagination?.pageSize ?? 10;
  }
  const path: string = meta?.path ?? list.path;
  return { list, path, params, key: getKey(path, params) };
}

/**
 * The path and query of a list's CSV export: the list's own query (filters, search, sort) without
 * paging, so the export holds every row the list selects.
 */
export function exportRequest(params: Pick<GetListParams, 'resource' | 'filters' | 'sorters' | 'meta'>): { path: string; query: Query } {
  const { path, params: query } = listRequest({ ...params, pagination: { mode: 'off' } });
  return { path, query };
}

/** A custom call's path under the API prefix: both 'path' and Refine's usual `${apiUrl}/path` are accepted. */
const customPath = (url: string) => (url.startsWith(`${API_PREFIX}/`) ? url.slice(API_PREFIX.length + 1) : url);

/** How long a prefetched answer waits for the page that asks for it before it is dropped. */
export const PREFETCHED_MS = 10_000;

/** A prefetched answer that has arrived, and when (Date.now()). */
export interface Arrived<T> {
  data: T;
  at: number;
}

export type PanelDataProvider = DataProvider & {
  /**
   * Requests a list before the page that shows it has loaded (the page a reload lands on): the first
   * getList of the same request, for the same token, gets this answer instead of asking again.
   */
  prefetchList(params: Omit<GetListParams, 'meta'> & { meta?: { path: string } }): void;
  /** The same for a GET the page makes through `custom` (useCustom), without a query. */
  prefetchGet(url: string): void;
  /**
   * The answer a getList of this request would be handed, when it has already arrived: handed over
   * here instead (once), so that the page's query starts with it. Undefined while it is on its way.
   */
  arrivedList(params: GetListParams): Arrived<ListPage> | undefined;
  /** The same for a GET through `custom`. */
  arrivedGet(url: string, query?: Query): Arrived<{ data: any }> | undefined;
};

export function createDataProvider(http: AxiosInstance = defaultHttp): PanelDataProvider {
  const prefetched = new Map<string, { answer: Promise<unknown>; arrived?: Arrived<unknown> }>();
  const fetchList = (params: GetListParams) => {
    const { list, path, params: query } = listRequest(params);
    return http.get(path, { params: query, headers: params.meta?.headers }).then(({ data }) => readList(data, list));
  };
  const prefetch = (key: string, request: () => Promise<unknown>) => {
    if (prefetched.has(key)) return;
    const entry: { answer: Promise<unknown>; arrived?: Arrived<unknown> } = { answer: request() };
    prefetched.set(key, entry);
    // A failure is the page's to show, when it asks; unasked, it is not an unhandled rejection.
    entry.answer.then(
      (data) => (entry.arrived = { data, at: Date.now() }),
      () => undefined,
    );
    setTimeout(() => {
      if (prefetched.get(key) === entry) prefetched.delete(key);
    }, PREFETCHED_MS);
  };
  /** The prefetched answer for this key, handed over once. */
  const take = <T>(key: string) => {
    const entry = prefetched.get(key);
    prefetched.delete(key);
    return entry?.answer as Promise<T> | undefined;
  };
  /** The same, only when it has arrived. */
  const takeArrived = <T>(key: string) => {
    const arrived = prefetched.get(key)?.arrived;
    if (arrived) prefetched.delete(key);
    return arrived as Arrived<T> | undefined;
  };
  // A call with headers of its own (an Idempotency-Key) is not the request that was prefetched.
  const listKey = (params: GetListParams) => (params.meta?.headers ? undefined : listRequest(params).key);

  return {
    getApiUrl: () => API_PREFIX,

    prefetchList(params) {
      prefetch(listRequest(params).key, () => fetchList(params));
    },

    prefetchGet(url) {
      const path = customPath(url);
      prefetch(getKey(path), () => http.get(path).then(({ data }) => ({ data })));
    },

    arrivedList(params) {
      const key = listKey(params);
      return key === undefined ? undefined : takeArrived<ListPage>(key);
    },

    arrivedGet(url, query) {
      return takeArrived<{ data: any }>(getKey(customPath(url), query));
    },

    async getList(params) {
      const key = listKey(params);
      return (key !== undefined && take<ListPage>(key)) || fetchList(params);
    },

    async getMany({ resource, ids, meta }) {
      const records = await Promise.all(ids.map((id) => http.get(`${meta?.path ?? pathOf(resource)}/${id}`, { headers: meta?.headers })));
      return { data: records.map((r) => one(r.data)) };
    },

    async getOne({ resource, id, meta }) {
      const { data } = await http.get(`${meta?.path ?? pathOf(resource)}/${id}`, { headers: meta?.headers });
      return { data: one(data) };
    },

    async create({ resource, variables, meta }) {
      const { data } = await http.post(meta?.path ?? pathOf(resource), variables, { headers: meta?.headers });
      return { data: one(data) ?? {} };
    },

    async update({ resource, id, variables, meta }) {
      const method = (meta?.method as 'put' | 'patch' | undefined) ?? 'put';
      const { data } = await http[method](`${meta?.path ?? pathOf(resource)}/${id}`, variables, { headers: meta?.headers });
      return { data: one(data) ?? {} };
    },

    async deleteOne({ resource, id, variables, meta }) {
      const { data } = await http.delete(`${meta?.path ?? pathOf(resource)}/${id}`, { data: variables, headers: meta?.headers });
      return { data: one(data) ?? { id } };
    },

    async custom({ url, method, payload, query, headers, meta }) {
      const path = customPath(url);
      const early = method === 'get' && !payload && !headers && !meta?.headers ? take<{ data: any }>(getKey(path, query as Query | undefined)) : undefined;
      if (early) return early;
      const { data } = await http.request({ url: path, method, data: payload, params: query, headers: { ...headers, ...meta?.headers } });
      return { data };
    },
  };
}

export const dataProvider = createDataProvider();
