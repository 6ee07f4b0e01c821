/**
 * A list's view (page, page size, sort, filters) kept in the page's URL, in Refine's syncWithLocation
 * format (`currentPage`, `pageSize`, `sorters[0][field]`, `filters[0][field|operator|value]`), read and
 * written through Refine's router hooks (docs/domain.md#lists).
 *
 * Not useTable's own syncWithLocation: it writes values unencoded (a search for "a&b" or "#1" breaks
 * the URL), takes the URL's values unchecked (a page size or sort key the list does not offer would
 * reach the API), and reads the URL only on mount (Back to the same list would not restore it).
 */
import { type CrudFilter, type CrudSort, useGo, useParsed } from '@refinedev/core';
import { useEffect, useRef, useState } from 'react';

export interface ListView {
  currentPage: number;
  pageSize: number;
  sorters: CrudSort[];
  filters: CrudFilter[];
}

/** A filter the list offers: its operator, and its value from the URL's text (undefined: not a value it takes). */
export interface FilterRule {
  field: string;
  operator: 'eq' | 'contains';
  accept: (raw: string) => unknown;
}

/** What a list accepts from the URL, and the view it shows when the URL says nothing. */
export interface ViewRules {
  pageSizes: readonly number[];
  defaultPageSize: number;
  sortKeys: readonly string[];
  initialSorters: CrudSort[];
  filters: FilterRule[];
}

/** The URL parameters a list's view takes (Refine's names). */
type ViewParam = 'currentPage' | 'pageSize' | 'sorters' | 'filters';

/** Any text (the search, a text filter). */
export const anyText = (raw: string) => (raw.trim() === '' ? undefined : raw);

/** One of the options (the URL holds their text: true, 3). */
export const oneOf = (values: ReadonlyArray<string | number | boolean>) => (raw: string) => values.find((v) => String(v) === raw);

/** A calendar day. */
export const calendarDay = (raw: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return undefined;
  const date = new Date(`${raw}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(raw) ? raw : undefined;
};

/** qs parses `x[0]` as an array and `x[30]` as an object: either way, its entries. */
const entries = (value: unknown): unknown[] => (Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : []);
const record = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const whole = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
};

/** The view the URL's parameters describe, each value the list does not offer left at its default. */
export function readView(params: Record<string, unknown> | undefined, rules: ViewRules): ListView {
  const pageSize = whole(params?.pageSize);
  const sorters = entries(params?.sorters)
    .map(record)
    .filter((s) => typeof s.field === 'string' && rules.sortKeys.includes(s.field) && (s.order === 'asc' || s.order === 'desc'))
    .slice(0, 1)
    .map((s) => ({ field: s.field as string, order: s.order as 'asc' | 'desc' }));
  const given = new Map<string, unknown>();
  for (const f of entries(params?.filters).map(record)) {
    const rule = rules.filters.find((r) => r.field === f.field);
    const value = rule && typeof f.value === 'string' ? rule.accept(f.value) : undefined;
    if (rule && value !== undefined && !given.has(rule.field)) given.set(rule.field, value);
  }
  return {
    currentPage: whole(params?.currentPage) ?? 1,
    pageSize: pageSize !== undefined && rules.pageSizes.includes(pageSize) ? pageSize : rules.defaultPageSize,
    sorters: sorters.length > 0 ? sorters : rules.initialSorters,
    // In the order the list declares them, so one view has one URL.
    filters: rules.filters.filter((r) => given.has(r.field)).map((r) => ({ field: r.field, operator: r.operator, value: given.get(r.field) })),
  };
}

const sameSort = (a: CrudSort[], b: CrudSort[]) => a.length === b.length && a.every((s, i) => s.field === b[i].field && s.order === b[i].order);

/**
 * The URL parameters of a view: only what differs from the list's defaults (a fresh list has none),
 * values encoded here because Refine's router writes them as given. No sort and the initial sort
 * write the same (none).
 */
export function viewQuery(view: ListView, rules: ViewRules): Record<ViewParam, unknown> {
  const filters = rules.filters.flatMap((rule) => {
    const found = view.filters.find((f) => 'field' in f && f.field === rule.field);
    const value = found?.value;
    return value === undefined || value === null || value === '' ? [] : [{ field: rule.field, operator: rule.operator, value: encodeURIComponent(String(value)) }];
  });
  return {
    currentPage: view.currentPage > 1 ? view.currentPage : undefined,
    pageSize: view.pageSize !== rules.defaultPageSize ? view.pageSize : undefined,
    sorters: view.sorters.length === 0 || sameSort(view.sorters, rules.initialSorters) ? undefined : view.sorters.slice(0, 1),
    filters: filters.length > 0 ? filters : undefined,
  };
}

/** The view the URL gives (undefined when `enabled` is false), and the one it gave on the first render. */
export function useUrlView(enabled: boolean, rules: ViewRules) {
  const { params } = useParsed();
  const fromUrl = enabled ? readView(params, rules) : undefined;
  const [initial] = useState(fromUrl);
  return { fromUrl, initial };
}

/**
 * Keeps `view` in the URL while `enabled` (a list that is its page's; a list in a dialog or drawer
 * leaves the URL alone): writes each change in place (replace, so typing in the search adds no
 * history entry), and calls `follow` with the URL's view when the URL changes to another one (Back,
 * Forward, the menu's link to the same list).
 */
export function useViewInUrl(enabled: boolean, rules: ViewRules, fromUrl: ListView | undefined, view: ListView, follow: (view: ListView) => void) {
  const go = useGo();
  const urlKey = fromUrl ? JSON.stringify(viewQuery(fromUrl, rules)) : '';
  const stateQuery = viewQuery(view, rules);
  const stateKey = enabled ? JSON.stringify(stateQuery) : '';

  const latest = useRef({ fromUrl, stateKey, follow });
  latest.current = { fromUrl, stateKey, follow };

  // The URL changed: show its view unless it is the one shown (the URL just written).
  const seenUrl = useRef(urlKey);
  useEffect(() => {
    if (!enabled || seenUrl.current === urlKey) return;
    seenUrl.current = urlKey;
    if (urlKey !== latest.current.stateKey && latest.current.fromUrl) latest.current.follow(latest.current.fromUrl);
  }, [enabled, urlKey]);

  // The view changed: write it unless the URL already says it.
  useEffect(() => {
    if (!enabled || stateKey === seenUrl.current) return;
    seenUrl.current = stateKey;
    go({ type: 'replace', query: stateQuery, options: { keepQuery: true, keepHash: true } });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, stateKey]);
}

/** A link to a list showing only these filters (each `eq`), in the format the list reads from its URL. */
export function listUrl(path: string, filters: ReadonlyArray<readonly [field: string, value: string | number]>): string {
  const query = filters.flatMap(([field, value], i) => [
    `filters[${i}][field]=${encodeURIComponent(field)}`,
    `filters[${i}][operator]=eq`,
    `filters[${i}][value]=${encodeURIComponent(String(value))}`,
  ]);
  return query.length ? `${path}?${query.join('&')}` : path;
}
