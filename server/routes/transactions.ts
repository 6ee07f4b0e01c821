/**
 * Ledger entries as the transaction pages show them: the global list (also at the legacy
 * /api/transactions), and per manager, reseller, dealer and account. A caller sees the entries of
 * users in its own subtree, its own included.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { LIST_EXPORTS, LISTS, type NamedRef, type Role, type TransactionEntry, apiErrorBody, idParam, paginatedOf, transactionEntryEntity } from '../../src/contract';
import type { Database, TransactionRow, UserRow } from '../db/schema';
import { notFound } from '../http/errors';
import { actorOf } from '../http/guard';
import { type AnyQuery, type FilterDef, listQuerystring, listSpec, respondList } from '../http/list';
import { ownedWithin, pathIds, within } from '../http/scope';
import { ENTRY_TYPES, LEGACY_TYPE_CODES } from '../ledger/post';
import { findMember } from '../hierarchy/members';

type Db = Kysely<Database>;

type Row = TransactionRow & {
  user_name: string;
  user_username: string;
  user_role: string;
  user_path: string;
  account_login: string | null;
  cp_name: string | null;
  cp_username: string | null;
  cp_role: string | null;
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const checkDate = (name: string) => (value: string) => (Number.isNaN(Date.parse(value)) ? `The ${name} filter must be a date.` : null);

const dateFrom: FilterDef = {
  validate: checkDate('date_from'),
  apply: (qb, value) => qb.where('t.created_at', '>=', new Date(value).toISOString()),
};
/** A date-only end includes that whole day (UTC). */
const dateTo: FilterDef = {
  validate: checkDate('date_to'),
  apply: (qb, value) =>
    DATE_ONLY.test(value)
      ? qb.where('t.created_at', '<', new Date(Date.parse(value) + 86_400_000).toISOString())
      : qb.where('t.created_at', '<=', new Date(value).toISOString()),
};

export const transactionListSpec = listSpec(LISTS.transactions, {
  search: ['t.transaction_number', 't.remarks', 'u.username', 'u.name', 'cp.username', 'a.login'],
  filters: {
    type: {
      column: 't.type',
      type: 'enum',
      values: ENTRY_TYPES,
      aliases: { ...LEGACY_TYPE_CODES, ...Object.fromEntries(ENTRY_TYPES.map((t) => [t, t])) },
    },
    date_from: dateFrom,
    date_to: dateTo,
    user_id: { column: 't.user_id', type: 'int' },
    account_id: { column: 't.account_id', type: 'int' },
  },
  sorts: {
    created_at: 't.created_at',
    date: 't.created_at',
    id: 't.id',
    credits: 't.credits',
    type: 't.type',
    transaction_number: 't.transaction_number',
    balance_after: 't.balance_after',
  },
  idColumn: 't.id',
  mainAlias: 't',
  csv: LIST_EXPORTS.transactions,
});

/** The plain date_from, date_to, type and user_id are taken as filter[...], which wins when both are given. */
function normaliseQuery(query: Record<string, unknown>): Record<string, unknown> {
  const out = { ...query };
  for (const name of LISTS.transactions.plainFilters) {
    if (out[name] === undefined) continue;
    out[`filter[${name}]`] ??= out[name];
    delete out[name];
  }
  return out;
}

const base = (db: Db, actor: Pick<UserRow, 'id' | 'role' | 'path'>) =>
  db
    .selectFrom('credit_transactions as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('accounts as a', 'a.id', 't.account_id')
    .leftJoin('users as cp', 'cp.id', 't.counterparty_id')
    .where(within(actor, 'u.path'));

type Base = ReturnType<typeof base>;

const select = (qb: Base) =>
  qb
    .selectAll('t')
    .select([
      'u.name as user_name',
      'u.username as user_username',
      'u.role as user_role',
      'u.path as user_path',
      'a.login as account_login',
      'cp.name as cp_name',
      'cp.username as cp_username',
      'cp.role as cp_role',
    ]);

/** Rows to API objects; the manager/reseller/dealer chain comes from each entry user's path. */
async function present(db: Db, rows: Row[]): Promise<TransactionEntry[]> {
  const ids = [...new Set(rows.flatMap((r) => pathIds(r.user_path)))];
  const chainUsers = ids.length ? await db.selectFrom('users').select(['id', 'name', 'role']).where('id', 'in', ids).execute() : [];
  const byId = new Map(chainUsers.map((u) => [u.id, u]));
  return rows.map((r) => {
    const chain = pathIds(r.user_path).map((id) => byId.get(id));
    const at = (role: string): NamedRef | null => {
      const u = chain.find((c) => c?.role === role);
      return u ? { id: u.id, name: u.name } : null;
    };
    return {
      id: r.id,
      transaction_number: r.transaction_number,
      type: r.type as TransactionEntry['type'],
      credits: r.credits,
      bonus_credits: r.bonus_credits,
      account: r.account_login,
      account_id: r.account_id,
      coverage_start: r.coverage_start,
      coverage_end: r.coverage_end,
      remarks: r.remarks,
      date: r.created_at,
      created_at: r.created_at,
      balance_before: r.balance_before,
      balance_after: r.balance_after,
      user: { id: r.user_id, name: r.user_name, username: r.user_username, role: r.user_role as Role },
      counterparty:
        r.counterparty_id !== null && r.cp_username !== null ? { id: r.counterparty_id, name: r.cp_name!, username: r.cp_username, role: r.cp_role as Role } : null,
      manager: at('manager'),
      reseller: at('reseller'),
      dealer: at('dealer'),
    };
  });
}

/** The entries alone, scoped by their user's path through a subquery (paginate's lean base). */
const lean = (db: Db, actor: Pick<UserRow, 'id' | 'role' | 'path'>) => db.selectFrom('credit_transactions as t').where(ownedWithin(actor, 't.user_id'));

function list(db: Db, request: FastifyRequest, reply: FastifyReply, narrow: (qb: AnyQuery) => AnyQuery = (qb) => qb) {
  const actor = actorOf(request);
  return respondList(
    request,
    reply,
    {
      base: narrow(base(db, actor)),
      lean: narrow(lean(db, actor)),
      query: normaliseQuery(request.query as Record<string, unknown>),
      spec: transactionListSpec,
      select: (qb) => select(qb as Base),
      present: (rows: Row[]) => present(db, rows),
    },
    (page) => page,
  );
}

/**
 * The transaction lists' query string and answer as OpenAPI documents them: the filters also taken
 * without their filter[...] wrapper (normaliseQuery) are listed both ways.
 */
const listSchema = {
  querystring: listQuerystring(transactionListSpec),
  response: { 200: paginatedOf(transactionEntryEntity), '4xx': apiErrorBody },
};

const globalList = (app: FastifyInstance) => (request: FastifyRequest, reply: FastifyReply) => list(app.db.kysely, request, reply);

const transactionRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const tags = ['transactions'];

  app.get('/transactions', { config: { access: ['transactions', 'list'] }, schema: { ...listSchema, tags } }, globalList(app));

  for (const [resource, role] of [
    ['managers', 'manager'],
    ['resellers', 'reseller'],
    ['dealers', 'dealer'],
  ] as const) {
    app.get(
      `/${resource}/:id/transactions`,
      { config: { access: [resource, 'transactions'] }, schema: { params: idParam, ...listSchema, tags } },
      async (request, reply) => {
        const target = await findMember(db, actorOf(request), request.params.id, role);
        return list(db, request, reply, (qb) => qb.where('t.user_id', '=', target.id));
      },
    );
  }

  app.get(
    '/accounts/:id/transactions',
    { config: { access: ['accounts', 'transactions'] }, schema: { params: idParam, ...listSchema, tags } },
    async (request, reply) => {
      const actor = actorOf(request);
      const account = await db.selectFrom('accounts').select('id').where('id', '=', request.params.id).where(within(actor, 'owner_path')).executeTakeFirst();
      if (!account) throw notFound();
      return list(db, request, reply, (qb) => qb.where('t.account_id', '=', account.id));
    },
  );
};

/** The legacy path /api/transactions (outside /api/v1): the same list. */
export const legacyTransactionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/transactions', { config: { access: ['transactions', 'list'] }, schema: { ...listSchema, tags: ['transactions'] } }, globalList(app));
};

export default transactionRoutes;
