/**
 * How each list endpoint of spec section 7 takes its query and shapes its answer. Most follow the
 * default; the rest differ only in the few ways listed here.
 */
export interface ListConvention {
  /** Path under /api/v1 when it is not the resource name. */
  path?: string;
  /** Search goes in filter[search] (default) or a plain `search` parameter. */
  search: 'filter' | 'plain';
  /** sort=field&order=asc|desc (default), sort=-field, sort_by=&sort_direction=, sort_by=&sort_order=. */
  sort: 'sort-order' | 'dash' | 'sort_by-direction' | 'sort_by-order';
  /** Where rows and the total are: {data, meta.total} (default), {<key>: rows, meta}, nested {data:{data,total}}, {data, pagination.total}. */
  shape: { kind: 'meta' } | { kind: 'key'; key: string } | { kind: 'nested' } | { kind: 'pagination' };
  /** Filters sent without the filter[...] wrapper (announcements, audit logs). */
  plainFilters?: boolean;
}

const DEFAULT: ListConvention = { search: 'filter', sort: 'sort-order', shape: { kind: 'meta' } };

const CONVENTIONS: Record<string, Partial<ListConvention>> = {
  transactions: { sort: 'dash' },
  tickets: { search: 'plain', shape: { kind: 'nested' } },
  'ticket-categories': { search: 'plain', sort: 'sort_by-direction' },
  themes: { shape: { kind: 'key', key: 'themes' } },
  'user-promos': { shape: { kind: 'key', key: 'promos' } },
  promos: { path: 'user-promos', shape: { kind: 'key', key: 'promos' } },
  users: { path: 'accounts' },
  announcements: { search: 'plain', sort: 'sort_by-order', plainFilters: true },
  'user-announcements': { path: 'user/announcements', search: 'plain', plainFilters: true },
  'audit-logs': { search: 'plain', plainFilters: true, shape: { kind: 'pagination' } },
};

export const conventionOf = (resource: string): ListConvention => ({ ...DEFAULT, ...CONVENTIONS[resource] });
export const pathOf = (resource: string): string => conventionOf(resource).path ?? resource;
