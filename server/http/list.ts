/**
 * The list conventions of docs/api.md#lists in one place: page, per_page, filter[search] (or search),
 * filter[field], the list's one sort style, checked against the list's entry in the contract
 * (src/contract/lists.ts) and answered in the shape it declares.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import {
  CSV_BOM,
  CSV_MEDIA_TYPE,
  type CsvExport,
  DEFAULT_PAGE_SIZE,
  EXACT_TOTAL_LIMIT,
  type FilterOf,
  type ListEntry,
  type ListMeta,
  MAX_PAGE_SIZE,
  MAX_RECORD_ID,
  type Paginated,
  SEARCH_EXACT_TOTAL_LIMIT,
  type SortKeyOf,
  type SortStyle,
  csvHeader,
  csvRows,
  listMetaSchema,
} from '../../src/contract';
import { z } from 'zod';
import { type DialectName, isPostgres } from '../db/dialect';
import { badRequest, validationError } from './errors';

export type AnyQuery = SelectQueryBuilder<any, any, any>;

export type FilterDef =
  | { column: string; type: 'text' | 'int' | 'boolean' | 'before' | 'after' }
  | { column: string; type: 'enum'; values: readonly string[]; aliases?: Record<string, string> }
  | { apply: (qb: AnyQuery, value: string) => AnyQuery; validate?: (value: string) => string | null };

/**
 * A list as the server runs it: the contract's entry (path, search parameter, sort keys and style,
 * filter names, shape, page size) and what only the server knows, the column behind each of them.
 */
export interface ListSpec<L extends ListEntry = ListEntry> {
  entry: L;
  /** Columns that filter[search] matches, case-insensitively, anywhere in the text. */
  search?: string[];
  /** Each filter of the entry, and only those. */
  filters: Record<FilterOf<L>, FilterDef>;
  /** Each public sort key of the entry -> column. */
  sorts: Record<SortKeyOf<L>, string>;
  /** Tie-breaker column so pages never overlap. */
  idColumn: string;
  /**
   * The alias of the list's main table when every filter and sort is on its columns: with a lean
   * base (see paginate), the count and the page's ids are then read from that table alone.
   */
  mainAlias?: string;
  /** Rows counted exactly before the total becomes a lower bound (EXACT_TOTAL_LIMIT, or SEARCH_EXACT_TOTAL_LIMIT with a search, unless stated). */
  exactTotalUpTo?: number;
  /** The list's CSV export (src/contract/exports.ts): asked with `Accept: text/csv`, every row it selects. */
  csv?: CsvExport<any>;
}

/** A list's server declaration on its contract entry: the sorts and filters must map exactly the entry's keys. */
export const listSpec = <L extends ListEntry>(entry: L, server: Omit<ListSpec<L>, 'entry'>): ListSpec<L> => ({ entry, ...server });

const SORT_KEYS: Record<SortStyle, { field: string; direction: string | null }> = {
  'sort-order': { field: 'sort', direction: 'order' },
  dash: { field: 'sort', direction: null },
  'sort_by-direction': { field: 'sort_by', direction: 'sort_direction' },
  'sort_by-order': { field: 'sort_by', direction: 'sort_order' },
};
const ALL_SORT_KEYS = ['sort', 'order', 'sort_by', 'sort_direction', 'sort_order'];

export interface ListParams {
  page: number;
  perPage: number;
  search: string | null;
  filters: Record<string, string>;
  sortKey: string;
  direction: 'asc' | 'desc';
}

const single = (v: unknown): string | undefined => {
  if (Array.isArray(v)) return single(v[v.length - 1]);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
};

/** Only the spec's own keys: a name such as 'constructor' or '__proto__' is no filter or sort. */
const own = <T>(record: Record<string, T> | undefined, name: string): T | undefined => (record && Object.hasOwn(record, name) ? record[name] : undefined);

const TRUE = ['1', 'true', 'yes'];
const BOOLEAN_VALUES = [...TRUE, '0', 'false', 'no'];

function checkFilterValue(name: string, def: FilterDef, value: string): string | null {
  if ('apply' in def) return def.validate?.(value) ?? null;
  switch (def.type) {
    case 'int':
      return /^\d+$/.test(value) && Number(value) <= MAX_RECORD_ID ? null : `The ${name} filter must be an integer.`;
    case 'boolean':
      return BOOLEAN_VALUES.includes(value.toLowerCase()) ? null : `The ${name} filter must be true or false.`;
    case 'before':
    case 'after':
      return Number.isNaN(Date.parse(value)) ? `The ${name} filter must be a date.` : null;
    case 'enum': {
      const v = own(def.aliases, value.toUpperCase()) ?? value;
      return def.values.includes(v) ? null : `The ${name} filter must be one of: ${def.values.join(', ')}.`;
    }
    default:
      return null;
  }
}

export function parseListQuery(query: Record<string, unknown>, spec: ListSpec): ListParams {
  const errors: Record<string, string> = {};
  const int = (key: string, fallback: number, max: number) => {
    const raw = single(query[key]);
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      errors[key] = `The ${key.replace('_', ' ')} must be a positive integer.`;
      return fallback;
    }
    return Math.min(Number(raw), max);
  };
  const page = int('page', 1, 1_000_000);
  const { entry } = spec;
  const perPage = int('per_page', entry.defaultPerPage ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);

  const filters: Record<string, string> = {};
  let search: string | null = single(query.search)?.trim() || null;
  const unknown: string[] = [];
  for (const [key, raw] of Object.entries(query)) {
    const match = /^filter\[([^\]]+)\]$/.exec(key);
    const plain = entry.plainFilters.includes(key) ? key : null;
    if (!match && !plain) continue;
    const name = match ? match[1] : plain!;
    const value = single(raw)?.trim() ?? '';
    if (name === 'search') {
      if (!spec.search) unknown.push(name);
      else search = value || search;
      continue;
    }
    const def = own(spec.filters, name);
    if (!def) {
      unknown.push(name);
      continue;
    }
    if (value === '') continue;
    const problem = checkFilterValue(name, def, value);
    if (problem) errors[`filter.${name}`] = problem;
    else filters[name] = value;
  }
  if (unknown.length) {
    const allowed = [...(spec.search ? ['search'] : []), ...entry.filters];
    throw badRequest(`Requested filter(s) \`${unknown.join(', ')}\` are not allowed. Allowed filter(s) are \`${allowed.join(', ')}\`.`);
  }

  const style = SORT_KEYS[entry.sortStyle];
  const foreign = ALL_SORT_KEYS.filter((key) => key !== style.field && key !== style.direction && query[key] !== undefined);
  if (foreign.length) {
    throw badRequest(
      `The sort parameter(s) \`${foreign.join(', ')}\` are not taken here. This list sorts with \`${[style.field, style.direction].filter(Boolean).join(', ')}\`.`,
    );
  }
  let sortRaw = single(query[style.field]) ?? entry.defaultSort;
  let direction: 'asc' | 'desc' = 'asc';
  // The default sort is written '-key' for descending; only the dash style takes that from the client.
  if (sortRaw.startsWith('-') && (style.direction === null || query[style.field] === undefined)) {
    direction = 'desc';
    sortRaw = sortRaw.slice(1);
  }
  const order = style.direction ? single(query[style.direction])?.toLowerCase() : undefined;
  if (order === 'desc' || order === 'asc') direction = order;
  else if (order) errors[style.direction!] = `The ${style.direction!.replace('_', ' ')} must be asc or desc.`;
  if (own(spec.sorts, sortRaw) === undefined) {
    throw badRequest(`Requested sort(s) \`${sortRaw}\` is not allowed. Allowed sort(s) are \`${entry.sorts.join(', ')}\`.`);
  }
  if (Object.keys(errors).length) throw validationError(errors);
  return { page, perPage, search, filters, sortKey: sortRaw, direction };
}

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Any of the columns containing the term, case-insensitively. `lower(col) like` works on both
 * databases; a caller that knows it runs on SQLite passes the dialect for the cheaper form.
 */
export function searchAny(eb: ExpressionBuilder<any, any>, columns: string[], term: string, dialect?: DialectName) {
  const pattern = `%${escapeLike(term.toLowerCase())}%`;
  // SQLite's LIKE already ignores ASCII case, the only case its lower() folds: the same rows without
  // two function calls per row. PostgreSQL's LIKE does not, and its trigram indexes are on lower().
  if (dialect === 'sqlite') return eb.or(columns.map((c) => sql<SqlBool>`${sql.ref(c)} like ${pattern} escape '\\'`));
  return eb.or(columns.map((c) => sql<SqlBool>`lower(${sql.ref(c)}) like ${pattern} escape '\\'`));
}

export function applyFilters<Q extends AnyQuery>(qb: Q, params: ListParams, spec: ListSpec): Q {
  let q: AnyQuery = qb;
  if (params.search && spec.search) {
    const term = params.search;
    q = q.where((eb) => searchAny(eb, spec.search!, term));
  }
  for (const [name, value] of Object.entries(params.filters)) {
    const def = (spec.filters as Record<string, FilterDef>)[name];
    if ('apply' in def) {
      q = def.apply(q, value);
      continue;
    }
    switch (def.type) {
      case 'int':
        q = q.where(def.column, '=', Number(value));
        break;
      case 'boolean':
        q = q.where(def.column, '=', TRUE.includes(value.toLowerCase()) ? 1 : 0);
        break;
      case 'before':
        q = q.where(def.column, '<=', new Date(value).toISOString());
        break;
      case 'after':
        q = q.where(def.column, '>=', new Date(value).toISOString());
        break;
      case 'enum':
        q = q.where(def.column, '=', own(def.aliases, value.toUpperCase()) ?? value);
        break;
      default:
        q = q.where(def.column, '=', value);
    }
  }
  return q as Q;
}

export interface Counted {
  total: number;
  /** False when `total` is a lower bound. */
  exact: boolean;
}

/**
 * The meta block of a page. With an inexact total the last page is at least the one after a full
 * page, so the next rows can always be reached.
 */
export function listMeta(counted: number | Counted, params: Pick<ListParams, 'page' | 'perPage'>, rowsOnPage = 0): ListMeta {
  const { total, exact } = typeof counted === 'number' ? { total: counted, exact: true } : counted;
  const firstOfPage = (params.page - 1) * params.perPage + 1;
  if (!exact) {
    const lastPage = Math.max(Math.ceil(total / params.perPage), params.page + (rowsOnPage === params.perPage ? 1 : 0));
    const shown = rowsOnPage > 0;
    return {
      total,
      current_page: params.page,
      per_page: params.perPage,
      last_page: lastPage,
      from: shown ? firstOfPage : null,
      to: shown ? firstOfPage + rowsOnPage - 1 : null,
      total_exact: false,
    };
  }
  const lastPage = Math.max(1, Math.ceil(total / params.perPage));
  const from = total === 0 ? null : firstOfPage;
  const to = from === null ? null : Math.min(total, from + params.perPage - 1);
  return {
    total,
    current_page: params.page,
    per_page: params.perPage,
    last_page: lastPage,
    from: from && from <= total ? from : null,
    to: from && from <= total ? to : null,
    total_exact: true,
  };
}

/**
 * Counts a list's rows up to `limit`, in one statement whose inner scan stops after limit + 1 rows:
 * past the limit the answer is the limit, marked inexact.
 */
async function countUpTo(q: AnyQuery, limit: number): Promise<Counted> {
  const unordered = q.clearSelect().clearOrderBy();
  const capped = unordered.select(sql<number>`1`.as('one')).limit(limit + 1);
  // The outer query only carries the subquery (it stops at its first row; no row: nothing to count).
  const row = (await unordered
    .select((eb) =>
      eb
        .selectFrom(capped.as('capped'))
        .select(sql<number>`count(*)`.as('n'))
        .as('total'),
    )
    .limit(1)
    .executeTakeFirst()) as { total?: number | string | null } | undefined;
  const n = Number(row?.total ?? 0);
  return n > limit ? { total: limit, exact: false } : { total: n, exact: true };
}

/**
 * Runs a list: `base` has the FROM, joins and scoping; `select` adds the columns. Filters, search,
 * sort and paging come from the query string, checked against `spec`.
 *
 * `lean` is the same list over its main table alone (spec.mainAlias; scoped without joins). When
 * the query's filters, search and sort all fall on that table, the total and the page's ids are read
 * from it (an index can answer both), and only the page's rows are joined for display: counting a
 * million rows through joins, or sorting them before the limit, is what made large lists slow.
 */
export async function paginate<Row, Out = Row>(
  base: AnyQuery,
  query: Record<string, unknown>,
  spec: ListSpec,
  select: (qb: AnyQuery) => AnyQuery,
  toApi: (row: Row) => Out = (row) => row as unknown as Out,
  lean?: AnyQuery,
): Promise<Paginated<Out>> {
  const params = parseListQuery(query, spec);
  const onMain = (column: string) => column.startsWith(`${spec.mainAlias}.`);
  const leanFits = lean && spec.mainAlias && (!params.search || (spec.search ?? []).every(onMain));
  const page = (q: AnyQuery) =>
    q
      .orderBy((spec.sorts as Record<string, string>)[params.sortKey], params.direction)
      .orderBy(spec.idColumn, params.direction)
      .limit(params.perPage)
      .offset((params.page - 1) * params.perPage);

  const limit = spec.exactTotalUpTo ?? (params.search ? SEARCH_EXACT_TOTAL_LIMIT : EXACT_TOTAL_LIMIT);
  // The count and the page run at once (PostgreSQL connections of the pool, SQLite reader threads):
  // a list then takes as long as the slower of the two, not their sum.
  if (!leanFits) {
    const filtered = applyFilters(base, params, spec);
    const [counted, rows] = await Promise.all([countUpTo(filtered, limit), page(select(filtered)).execute() as Promise<Row[]>]);
    return { data: rows.map(toApi), meta: listMeta(counted, params, rows.length) };
  }
  const filtered = applyFilters(lean, params, spec);
  const pageRows = async () => {
    const ids = (await page(filtered.clearSelect().select(sql.ref(spec.idColumn).as('id'))).execute()).map((r) => Number((r as { id: number }).id));
    if (ids.length === 0) return [];
    const found = (await select(base).where(spec.idColumn, 'in', ids).execute()) as Array<Row & { id: number }>;
    const byId = new Map(found.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
  };
  const [counted, rows] = await Promise.all([countUpTo(filtered, limit), pageRows()]);
  if (rows.length === 0) return { data: [], meta: listMeta(counted, params) };
  return { data: rows.map(toApi), meta: listMeta(counted, params, rows.length) };
}

/** A query value as the query string parser gives it: text, or a list when the key repeats. */
const queryValue = z.union([z.string(), z.array(z.string())]).optional();

function filterDoc(name: string, def: FilterDef): string {
  if ('apply' in def) return `Filter on ${name}.`;
  switch (def.type) {
    case 'int':
      return `Filter on ${name}: an integer.`;
    case 'boolean':
      return `Filter on ${name}: true or false (1/0, yes/no).`;
    case 'before':
      return `Filter on ${name}: a date, at or before.`;
    case 'after':
      return `Filter on ${name}: a date, at or after.`;
    case 'enum':
      return `Filter on ${name}: one of ${def.values.join(', ')}.`;
    default:
      return `Filter on ${name}.`;
  }
}

/**
 * The query string of a list as OpenAPI documents it: page, per_page, the search and filter keys
 * and the list's one sort style. Every key is optional text and other keys pass through, so
 * parseListQuery stays the judge (an unknown filter or sort parameter answers 400 with its message).
 */
export function listQuerystring(spec: ListSpec) {
  const keys: Record<string, z.ZodType> = {
    page: queryValue.describe('Page number, from 1.'),
    per_page: queryValue.describe(`Rows per page: ${spec.entry.defaultPerPage ?? DEFAULT_PAGE_SIZE} unless given, at most ${MAX_PAGE_SIZE}.`),
  };
  if (spec.search) {
    const doc = `Case-insensitive text search in ${spec.search.map((c) => c.replace(/^\w+\./, '')).join(', ')}.`;
    keys.search = queryValue.describe(doc);
    keys['filter[search]'] = queryValue.describe(doc);
  }
  for (const [name, def] of Object.entries<FilterDef>(spec.filters)) {
    keys[`filter[${name}]`] = queryValue.describe(filterDoc(name, def));
    if (spec.entry.plainFilters.includes(name)) keys[name] = queryValue.describe(filterDoc(name, def));
  }
  const style = SORT_KEYS[spec.entry.sortStyle];
  const sorts = spec.entry.sorts.join(', ');
  const defaultSort = spec.entry.defaultSort;
  keys[style.field] = queryValue.describe(
    style.direction
      ? `Sort key, one of ${sorts} (default ${defaultSort.replace(/^-/, '')}).`
      : `Sort key, one of ${sorts}; a leading '-' sorts descending (default ${defaultSort}).`,
  );
  if (style.direction) keys[style.direction] = queryValue.describe('Sort direction: asc or desc.');
  return z.object(keys).loose();
}

/** A page as the list's entry shapes it (docs/api.md#lists); the route's response schema (pageSchema) types it. */
export function shapePage<T>(entry: ListEntry, page: Paginated<T>): any {
  switch (entry.shape.kind) {
    case 'key':
      return { [entry.shape.key]: page.data, meta: page.meta };
    case 'nested':
      return { data: { data: page.data, ...page.meta } };
    case 'pagination':
      return { data: page.data, pagination: page.meta };
    default:
      return { data: page.data, meta: page.meta };
  }
}

/** The response schema of a page in the list's shape (an object with the rows under the entry's key, or data). */
export function pageSchema<T extends z.ZodType>(entry: ListEntry, row: T) {
  switch (entry.shape.kind) {
    case 'key':
      return z.object({ [entry.shape.key]: z.array(row), meta: listMetaSchema });
    case 'nested':
      return z.object({ data: listMetaSchema.extend({ data: z.array(row) }) });
    case 'pagination':
      return z.object({ data: z.array(row), pagination: listMetaSchema });
    default:
      return z.object({ data: z.array(row), meta: listMetaSchema });
  }
}

/**
 * A list as a route runs it: the scoped base, its columns, the lean base (see paginate) and how rows
 * become the API's objects, a page (or an export's batch) at a time. respondList answers it as a
 * page or, asked for CSV, as every row it selects.
 */
export interface ListRun<Row, Out> {
  base: AnyQuery;
  spec: ListSpec;
  select: (qb: AnyQuery) => AnyQuery;
  lean?: AnyQuery;
  present: (rows: Row[]) => Out[] | Promise<Out[]>;
  /** The query string as the list reads it (default: the request's). */
  query?: Record<string, unknown>;
}

/**
 * Whether the Accept header prefers CSV to JSON: text/csv with a higher quality than
 * application/json (explicit or through a wildcard), or listed before it at the same quality.
 */
export function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv: { q: number; at: number } | null = null;
  let json: { q: number; at: number } | null = null;
  accept.split(',').forEach((part, at) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!(q > 0)) return;
    if (type === CSV_MEDIA_TYPE) csv = { q, at };
    if (type === 'application/json' || ((type === '*/*' || type === 'application/*') && json === null)) json = { q, at };
  });
  const c = csv as { q: number; at: number } | null;
  const j = json as { q: number; at: number } | null;
  return c !== null && (j === null || c.q > j.q || (c.q === j.q && c.at < j.at));
}

/**
 * Where a keyset read is within its list's order: the rows with a sort key, or those without one
 * (SQLite sorts them first ascending and last descending, PostgreSQL the other way round). Each
 * part is read on its own, so that a part's condition is a plain range of the sort's index.
 */
type KeysetPart = 'keyed' | 'unkeyed';

/**
 * The rows of a part after the last row read there. A row value, `(key, id) > (last key, last id)`,
 * is one range of an index on (key, id) on both databases; the same test written with OR was read
 * by SQLite as two ranges merged and sorted, every row after the cursor for every batch (60 ms a
 * batch, late in a million rows, where the range reads it in under one).
 */
function after(eb: ExpressionBuilder<any, any>, key: string, id: string, part: KeysetPart, last: { key: unknown; id: unknown } | null, direction: 'asc' | 'desc') {
  const cmp = direction === 'asc' ? '>' : '<';
  if (part === 'unkeyed') return last === null ? eb(key, 'is', null) : eb.and([eb(key, 'is', null), eb(id, cmp, last.id)]);
  return last === null ? eb(key, 'is not', null) : eb(eb.refTuple(key, id), cmp, eb.tuple(last.key, last.id));
}

/**
 * Every row of the list, in its order, read a batch at a time with a keyset cursor (the last row's
 * sort key and id), never an offset and never the whole set: memory stays the same for ten rows or
 * a million. A generator, so the next batch is read only when the response has taken the last one.
 */
export async function* listBatches<Row, Out>(db: Kysely<any>, run: ListRun<Row, Out>, params: ListParams, batch: number): AsyncGenerator<Out[]> {
  const { spec } = run;
  const key = (spec.sorts as Record<string, string>)[params.sortKey];
  const { direction } = params;
  const nullsFirst = !isPostgres(db) === (direction === 'asc');
  const onMain = (column: string) => column.startsWith(`${spec.mainAlias}.`);
  const leanFits = run.lean && spec.mainAlias && (!params.search || (spec.search ?? []).every(onMain));
  const parts: KeysetPart[] = nullsFirst ? ['unkeyed', 'keyed'] : ['keyed', 'unkeyed'];
  for (const part of parts) {
    let last: { key: unknown; id: unknown } | null = null;
    const ordered = (q: AnyQuery, k: string, id: string) =>
      q
        .where((eb) => after(eb, k, id, part, last, direction))
        .orderBy(k, direction)
        .orderBy(id, direction)
        .limit(batch);
    for (;;) {
      let rows: Row[];
      let keys: Array<{ __k: unknown; __id: unknown }>;
      if (leanFits) {
        // The ids and keys from the main table's index, then only those rows joined for display.
        const filtered = applyFilters(run.lean!, params, spec)
          .clearSelect()
          .select([sql.ref(key).as('__k'), sql.ref(spec.idColumn).as('__id')]);
        keys = (await ordered(filtered, key, spec.idColumn).execute()) as typeof keys;
        if (keys.length === 0) break;
        const ids = keys.map((k) => Number(k.__id));
        const found = (await run.select(run.base).where(spec.idColumn, 'in', ids).execute()) as Array<Row & { id: number }>;
        const byId = new Map(found.map((row) => [Number(row.id), row]));
        rows = ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
      } else if (key.includes('.')) {
        const selected = run.select(applyFilters(run.base, params, spec)).select([sql.ref(key).as('__k'), sql.ref(spec.idColumn).as('__id')]);
        rows = (await ordered(selected, key, spec.idColumn).execute()) as Row[];
        keys = rows as unknown as typeof keys;
      } else {
        // A key computed in the select list (a count) is compared through a subquery, where it is a column.
        const inner = run.select(applyFilters(run.base, params, spec)).select(sql.ref(spec.idColumn).as('__id'));
        const outer = db
          .selectFrom(inner.as('__rows'))
          .selectAll('__rows')
          .select(sql.ref(`__rows.${key}`).as('__k'));
        rows = (await ordered(outer, `__rows.${key}`, '__rows.__id').execute()) as Row[];
        keys = rows as unknown as typeof keys;
      }
      if (keys.length === 0) break;
      const end = keys[keys.length - 1];
      last = { key: end.__k, id: end.__id };
      if (rows.length > 0) yield await run.present(rows);
      if (keys.length < batch) break;
    }
  }
}

/**
 * Answers a list route: its page in the list's shape, or, when the request's Accept asks for
 * text/csv and the list has an export, every row its filters, search and sort select as CSV (the
 * contract's columns and cell rule, UTF-8 with a BOM), streamed: the next batch is read only as the
 * client takes the last, and a client that goes away stops the reading. The same route, so the same
 * guard and scope: an export holds exactly the rows the list would show page after page.
 */
export async function respondList<Row, Out, Shaped>(
  request: FastifyRequest,
  reply: FastifyReply,
  run: ListRun<Row, Out>,
  shape: (page: Paginated<Out>) => Shaped,
): Promise<Shaped> {
  const query = run.query ?? (request.query as Record<string, unknown>);
  const csv = run.spec.csv;
  void reply.header('vary', 'Accept');
  if (!csv || !wantsCsv(request.headers.accept)) {
    const page = await paginate<Row>(run.base, query, run.spec, run.select, undefined, run.lean);
    return shape({ data: await run.present(page.data), meta: page.meta });
  }
  // Checked before the first byte, so a bad filter is still a 400 or 422 in JSON.
  const params = parseListQuery(query, run.spec);
  // The reply carries the stream; the route's JSON answer type does not describe it.
  return sendCsv(
    reply,
    { ...csv, filename: `${csv.filename}-${new Date().toISOString().slice(0, 10)}` },
    listBatches(request.server.db.kysely, run, params, request.server.config.exportBatchRows),
  ) as never;
}

/** Streams CSV (BOM, header, then each batch's lines) with backpressure: Readable.from pulls a batch only when the socket has room. */
export function sendCsv<T>(reply: FastifyReply, csv: CsvExport<T>, batches: AsyncIterable<T[]>) {
  async function* lines() {
    yield CSV_BOM + csvHeader(csv.columns);
    for await (const rows of batches) yield csvRows(rows, csv.columns);
  }
  return reply
    .header('content-type', `${CSV_MEDIA_TYPE}; charset=utf-8`)
    .header('content-disposition', `attachment; filename="${csv.filename}.csv"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines(), { objectMode: true, highWaterMark: 1 }));
}
