/** The accounts list (GET /accounts, GET /user-search): filters, search on login, name and MAC, sorts. */
import { type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import {
  ACCOUNT_STATES,
  type Account,
  EXACT_TOTAL_LIMIT,
  EXPIRY_FILTERS,
  LIST_EXPORTS,
  LISTS,
  SEARCH_EXACT_TOTAL_LIMIT,
  TRIAL_ENDING_FILTERS,
  USER_STATUSES,
} from '../../src/contract';
import { type DialectName, isPostgres } from '../db/dialect';
import type { Database } from '../db/schema';
import { type ListRun, type ListSpec, listQuerystring, listSpec, searchAny } from '../http/list';
import { pathEndSql, within } from '../http/scope';
import { addDays } from './dates';
import { type AccountJoined, type Actor, scopedAccounts, selectAccount, toAccount } from './store';

const TRUE = ['1', 'true', 'yes'];
const BOOLEAN = [...TRUE, '0', 'false', 'no'];
const booleanValue = (name: string) => (value: string) => (BOOLEAN.includes(value.toLowerCase()) ? null : `The ${name} filter must be true or false.`);

/** expired: expiry in the past; N: expires within the next N days and has not expired yet. */
function expiryFilter(qb: any, value: string) {
  const now = new Date();
  if (value === 'expired') return qb.where('a.expiry_date', '<', now.toISOString());
  return qb.where('a.expiry_date', '>=', now.toISOString()).where('a.expiry_date', '<=', addDays(now, Number(value)).toISOString());
}

/** The search is not here: accountsRun applies it (it also matches MAC notations). */
export const accountListSpec = listSpec(LISTS.accounts, {
  filters: {
    status: { column: 'a.status', type: 'enum', values: USER_STATUSES },
    is_active: {
      apply: (qb, v) => qb.where('a.status', TRUE.includes(v.toLowerCase()) ? '=' : '!=', 'active'),
      validate: booleanValue('is_active'),
    },
    is_trial: { column: 'a.is_trial', type: 'boolean' },
    is_promo: { column: 'a.is_promo', type: 'boolean' },
    auto_renew: {
      apply: (qb, v) =>
        TRUE.includes(v.toLowerCase())
          ? qb.where('a.auto_renew_months', '>', 0)
          : qb.where((eb: ExpressionBuilder<any, any>) => eb.or([eb('a.auto_renew_months', 'is', null), eb('a.auto_renew_months', '<=', 0)])),
      validate: booleanValue('auto_renew'),
    },
    server_id: { column: 'a.server_id', type: 'int' },
    owner_id: { column: 'a.owner_id', type: 'int' },
    // A member's branch: its own accounts and those of everyone below it (the hierarchy tree opens it).
    branch: {
      apply: (qb, v) => {
        const member = (eb: ExpressionBuilder<any, any>) => eb.selectFrom('users as branch_u').where('branch_u.id', '=', Number(v));
        return qb.where((eb: ExpressionBuilder<any, any>) =>
          eb.and([eb('a.owner_path', '>=', member(eb).select('branch_u.path')), eb('a.owner_path', '<', member(eb).select(pathEndSql('branch_u.path').as('end')))]),
        );
      },
      validate: (v) => (/^[1-9]\d{0,8}$/.test(v) ? null : 'The branch filter must be a member id.'),
    },
    state: { column: 'a.state', type: 'enum', values: ACCOUNT_STATES },
    expiry: {
      apply: expiryFilter,
      validate: (v) => ((EXPIRY_FILTERS as readonly string[]).includes(v) ? null : `The expiry filter must be one of: ${EXPIRY_FILTERS.join(', ')}.`),
    },
    // Trial accounts ending from now to N days ahead (the dashboard's Trials ending card opens it).
    trial_ending: {
      apply: (qb, v) => expiryFilter(qb, v).where('a.is_trial', '=', 1),
      validate: (v) => ((TRIAL_ENDING_FILTERS as readonly string[]).includes(v) ? null : `The trial_ending filter must be one of: ${TRIAL_ENDING_FILTERS.join(', ')}.`),
    },
    expiry_date_before: { column: 'a.expiry_date', type: 'before' },
    expiry_date_after: { column: 'a.expiry_date', type: 'after' },
  },
  sorts: {
    login: 'a.login',
    full_name: 'a.full_name',
    expiry_date: 'a.expiry_date',
    created_at: 'a.created_at',
    updated_at: 'a.updated_at',
    status: 'a.status',
    mac_address: 'a.mac_address',
    last_active: 'a.last_active',
    id: 'a.id',
  },
  idColumn: 'a.id',
  mainAlias: 'a',
  csv: LIST_EXPORTS.accounts,
});

/**
 * The accounts list's query string as OpenAPI documents it: the spec's filters and sorts, and the
 * search (filter[search] or search) that accountsRun applies itself (login, full name, MAC address).
 */
export const accountsQuerystring = listQuerystring({ ...accountListSpec, search: ['a.login', 'a.full_name', 'a.mac_address'] });

const single = (v: unknown): string | undefined => {
  if (Array.isArray(v)) return single(v[v.length - 1]);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
};

/** The term's hex digits when it can be (part of) a MAC address in any notation, else null. */
const macDigits = (term: string) => {
  const hex = term.replace(/[\s:.-]/g, '').toUpperCase();
  return hex.length >= 2 && /^[0-9A-F]+$/.test(hex) ? hex : null;
};

/** Login or full name containing the term, or a MAC containing its hex digits in any notation. */
export function accountSearch(term: string, dialect: DialectName) {
  const hex = macDigits(term);
  return (eb: ExpressionBuilder<any, any>) => {
    const byText = searchAny(eb, ['a.login', 'a.full_name'], term, dialect);
    if (hex === null) return byText;
    return eb.or([byText, sql<SqlBool>`a.mac_address like ${`%${hex}%`}`]);
  };
}

/**
 * On SQLite, the accounts whose login, full name or MAC may hold the term, by the trigram index
 * (accounts_search, migration 0012), when it names few enough of them: reading those few beats
 * reading the rows in list order, where a rare term is found only after a million rows. A frequent
 * term is found within a page's worth of rows in any order, so it keeps the plain scan. The
 * candidates are a superset (the index folds every letter's case, SQLite's lower() only ASCII), and
 * accountSearch still decides, so the results are the same either way. Null when the index cannot
 * tell: on PostgreSQL (pg_trgm indexes answer the LIKE itself), for a part shorter than a trigram,
 * or with more candidates than a list counts exactly.
 */
async function searchCandidates(db: Kysely<Database>, term: string) {
  if (isPostgres(db)) return null;
  // The index folds case: a MAC term such as '001a79' is one phrase, not two.
  const parts = [...new Set([term, macDigits(term)].filter((part): part is string => part !== null).map((part) => part.toLowerCase()))];
  if (parts.some((part) => [...part].length < 3)) return null;
  const match = parts.map((part) => `"${part.replace(/"/g, '""')}"`).join(' OR ');
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from (select 1 from accounts_search where accounts_search match ${match} limit ${EXACT_TOTAL_LIMIT + 1})`.execute(db);
  if (Number(rows[0]?.n ?? 0) > EXACT_TOTAL_LIMIT) return null;
  return (eb: ExpressionBuilder<any, any>) => eb('a.id', 'in', sql<number>`(select rowid from accounts_search where accounts_search match ${match})`);
}

/**
 * The caller's accounts as a list run (respondList). The search (filter[search] or search) is
 * applied here because it also matches MAC notations; everything else follows the shared list
 * conventions.
 */
export async function accountsRun(
  db: Kysely<Database>,
  actor: Actor & { role: string },
  query: Record<string, unknown>,
  spec: ListSpec = accountListSpec,
): Promise<ListRun<AccountJoined, Account>> {
  const { 'filter[search]': filterSearch, search, ...rest } = query;
  const term = (single(filterSearch)?.trim() || single(search)?.trim() || '').slice(0, 255);
  let base = scopedAccounts(db, actor);
  // The same accounts without the owner and server joins, for counting and choosing the page.
  let lean = db.selectFrom('accounts as a').where('a.deleted_at', 'is', null).where(within(actor, 'a.owner_path'));
  if (term) {
    const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
    base = base.where(accountSearch(term, dialect));
    lean = lean.where(accountSearch(term, dialect));
    const candidates = await searchCandidates(db, term);
    if (candidates) {
      base = base.where(candidates);
      lean = lean.where(candidates);
    }
  }
  return {
    base,
    lean,
    query: rest,
    spec: term ? { ...spec, exactTotalUpTo: spec.exactTotalUpTo ?? SEARCH_EXACT_TOTAL_LIMIT } : spec,
    select: (qb) => selectAccount(qb as typeof base),
    present: (rows) => rows.map((row) => toAccount(row, actor.role)),
  };
}
