/**
 * Every list endpoint's wire facts, declared once: its path, how it is searched, filtered and sorted,
 * and how its page is shaped. The server's list code (server/http/list.ts) maps each entry's sort keys
 * and filters onto columns; the panel's data provider and its tables' sortable columns read the same
 * entry. docs/api.md#lists says which lists take which dialect.
 */
import { ANNOUNCEMENT_PAGE_SIZE, AUDIT_DEFAULT_PAGE_SIZE } from './constants';

/** sort=field&order=asc|desc (default), sort=-field, sort_by=&sort_direction=, sort_by=&sort_order=. */
export type SortStyle = 'sort-order' | 'dash' | 'sort_by-direction' | 'sort_by-order';

/** Where rows and the total are: {data, meta} (default), {<key>: rows, meta}, nested {data: {data, ...meta}}, {data, pagination}. */
export type ListShape = { kind: 'meta' } | { kind: 'key'; key: string } | { kind: 'nested' } | { kind: 'pagination' };

export interface ListEntry<S extends string = string, F extends string = string> {
  /** Under /api/v1. */
  path: string;
  /** The search parameter the panel sends (the server takes both spellings); null: not searchable. */
  search: 'filter' | 'plain' | null;
  /** The public sort keys. */
  sorts: readonly S[];
  /** '-key' for descending. */
  defaultSort: S | `-${S}`;
  sortStyle: SortStyle;
  filters: readonly F[];
  /** How the panel sends filters: filter[name] or plain name. */
  filterParam: 'filter' | 'plain';
  /** Filters also taken without the filter[...] wrapper (every filter when filterParam is plain). */
  plainFilters: readonly F[];
  shape: ListShape;
  /** Rows per page when per_page is not given (DEFAULT_PAGE_SIZE unless stated). */
  defaultPerPage?: number;
}

export type SortKeyOf<L extends ListEntry> = L['sorts'][number];
export type FilterOf<L extends ListEntry> = L['filters'][number];

/** A list as `list()` takes it: the defaults are filled in from what it leaves out. */
export type ListInput<S extends string, F extends string> = {
  path: string;
  search?: 'filter' | 'plain' | null;
  sorts: readonly S[];
  defaultSort: NoInfer<S> | `-${NoInfer<S>}`;
  sortStyle?: SortStyle;
  filters?: readonly F[];
  filterParam?: 'filter' | 'plain';
  /** On a filter[...] list: the filters its callers may also send plainly. */
  alsoPlain?: readonly NoInfer<F>[];
  shape?: ListShape;
  defaultPerPage?: number;
};

/** A list entry with the defaults filled in; the literal sort keys and filter names are kept for typing. */
export function list<const S extends string, const F extends string = never>(entry: ListInput<S, F>): ListEntry<S, F> {
  const { alsoPlain, ...rest } = entry;
  const filters = entry.filters ?? [];
  const filterParam = entry.filterParam ?? 'filter';
  return {
    search: 'filter',
    sortStyle: 'sort-order',
    shape: { kind: 'meta' },
    ...rest,
    filters,
    filterParam,
    plainFilters: filterParam === 'plain' ? filters : (alsoPlain ?? []),
  };
}

const HIERARCHY_SORTS = ['id', 'name', 'username', 'credits', 'is_active', 'status', 'created_at', 'updated_at', 'total_children', 'total_accounts'] as const;
/** The filters every hierarchy level's list takes; each level adds its own. */
export const HIERARCHY_LIST_FILTERS = ['is_active', 'status', 'parent_id', 'low_credits'] as const;
export type HierarchyListFilter = (typeof HIERARCHY_LIST_FILTERS)[number];

const accounts = list({
  path: 'accounts',
  sorts: ['login', 'full_name', 'expiry_date', 'created_at', 'updated_at', 'status', 'mac_address', 'last_active', 'id'],
  defaultSort: '-created_at',
  filters: [
    'status',
    'is_active',
    'is_trial',
    'is_promo',
    'auto_renew',
    'server_id',
    'owner_id',
    'branch',
    'state',
    'expiry',
    'trial_ending',
    'expiry_date_before',
    'expiry_date_after',
  ],
});

/** Keyed by the panel's resource name; with the lists of the resources that declare themselves it is LISTS (registry.ts). */
export const LIST_TABLE = {
  accounts,
  'user-search': { ...accounts, path: 'user-search' },
  'account-messages': list({ path: 'accounts/:id/messages', search: null, sorts: ['created_at', 'id'], defaultSort: '-created_at' }),
  managers: list({ path: 'managers', sorts: HIERARCHY_SORTS, defaultSort: '-created_at', filters: [...HIERARCHY_LIST_FILTERS, 'server_id'] }),
  resellers: list({ path: 'resellers', sorts: HIERARCHY_SORTS, defaultSort: '-created_at', filters: [...HIERARCHY_LIST_FILTERS, 'manager', 'manager_id'] }),
  dealers: list({
    path: 'dealers',
    sorts: HIERARCHY_SORTS,
    defaultSort: '-created_at',
    filters: [...HIERARCHY_LIST_FILTERS, 'reseller', 'reseller_id', 'manager', 'manager_id'],
  }),
  /** Also the transactions of one manager, reseller, dealer or account (meta.path). */
  transactions: list({
    path: 'transactions',
    sorts: ['created_at', 'date', 'id', 'credits', 'type', 'transaction_number', 'balance_after'],
    defaultSort: '-created_at',
    sortStyle: 'dash',
    filters: ['type', 'date_from', 'date_to', 'user_id', 'account_id'],
    alsoPlain: ['date_from', 'date_to', 'type', 'user_id'],
  }),
  tickets: list({
    path: 'tickets',
    search: 'plain',
    sorts: ['id', 'subject', 'priority', 'status', 'created_at', 'updated_at'],
    defaultSort: '-updated_at',
    filters: ['status', 'priority', 'category_id', 'user_id', 'unread'],
    alsoPlain: ['status', 'priority', 'category_id', 'user_id', 'unread'],
    shape: { kind: 'nested' },
  }),
  'ticket-categories': list({
    path: 'ticket-categories',
    search: 'plain',
    sorts: ['name', 'created_at', 'updated_at', 'id'],
    defaultSort: 'name',
    sortStyle: 'sort_by-direction',
    filters: ['is_active'],
  }),
  themes: list({
    path: 'themes',
    sorts: ['id', 'name', 'slug', 'is_active', 'created_at', 'updated_at'],
    defaultSort: 'name',
    filters: ['is_active'],
    shape: { kind: 'key', key: 'themes' },
  }),
  'user-promos': list({
    path: 'user-promos',
    sorts: ['id', 'name', 'credits_required', 'bonus_credits', 'is_active', 'created_at', 'updated_at'],
    defaultSort: 'name',
    filters: ['server_id', 'is_active'],
    shape: { kind: 'key', key: 'promos' },
  }),
  servers: list({
    path: 'servers',
    sorts: ['id', 'name', 'db_host', 'status', 'connection_status', 'last_checked_at', 'created_at'],
    defaultSort: 'name',
    filters: ['status', 'connection_status', 'driver'],
  }),
  'global-discounts': list({
    path: 'global-discounts',
    sorts: ['id', 'name', 'validity_months', 'credits_required', 'discount_percentage', 'current_uses', 'is_active', 'created_at', 'updated_at'],
    defaultSort: 'validity_months',
    filters: ['server_id', 'is_active', 'validity_months'],
    alsoPlain: ['server_id', 'is_active', 'validity_months'],
  }),
  announcements: list({
    path: 'announcements',
    search: 'plain',
    sorts: ['created_at', 'updated_at', 'title', 'priority', 'starts_at', 'expires_at', 'id'],
    defaultSort: '-created_at',
    sortStyle: 'sort_by-order',
    filters: ['type', 'priority', 'is_active', 'target_role', 'status'],
    filterParam: 'plain',
    defaultPerPage: ANNOUNCEMENT_PAGE_SIZE.admin,
  }),
  'user-announcements': list({
    path: 'user/announcements',
    search: 'plain',
    sorts: ['created_at', 'priority', 'title', 'expires_at', 'id'],
    defaultSort: '-created_at',
    filters: ['type', 'priority', 'target_role'],
    filterParam: 'plain',
    defaultPerPage: ANNOUNCEMENT_PAGE_SIZE.user,
  }),
  'audit-logs': list({
    path: 'audit-logs',
    search: 'plain',
    sorts: ['id', 'created_at', 'module', 'action', 'username'],
    defaultSort: '-id',
    filters: ['module', 'action', 'username', 'target_username', 'entity_id', 'date_from', 'date_to'],
    filterParam: 'plain',
    shape: { kind: 'pagination' },
    defaultPerPage: AUDIT_DEFAULT_PAGE_SIZE,
  }),
  /** The caller's own sign-ins (docs/security.md#sessions). */
  'sign-in-history': list({
    path: 'sign-in-history',
    search: null,
    sorts: ['created_at', 'id'],
    defaultSort: '-created_at',
    filters: ['outcome'],
  }),
} satisfies Record<string, ListEntry<string, string>>;
