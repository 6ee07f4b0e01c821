/**
 * A user's credit statement for a range of calendar days (docs/domain.md#statements): the balance
 * before the range, every entry in it, the balance after it and the totals by type. A balance
 * starts at 0 and moves only by its entries, so the opening balance is the sum of the entries
 * before the range and the closing one the opening plus the range's entries, to the credit.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { type Role, STATEMENT, type Statement, type StatementEntry, type UserRef, list } from '../../src/contract';
import type { Database } from '../db/schema';
import { notFound } from '../errors';
import { type ListParams, type ListRun, listBatches, listSpec } from '../http/list';
import { within } from '../http/scope';

type Db = Kysely<Database>;
type Actor = { id: number; role: string; path: string };

/** Entries a statement shows on screen; its CSV has every one. */
export const STATEMENT_SCREEN_ENTRIES = 500;

export interface StatementRange {
  /** YYYY-MM-DD, UTC, both included. */
  date_from: string;
  date_to: string;
}

const startOf = (day: string) => new Date(`${day}T00:00:00.000Z`).toISOString();
const endOf = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/** The user whose statement it is: the caller or a user of its subtree, else 404. */
export async function statementUser(db: Db, actor: Actor, userId: number): Promise<UserRef> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'name', 'username', 'role'])
    .where('id', '=', userId)
    .where('status', '!=', 'deleted')
    .where(within(actor, 'path'))
    .executeTakeFirst();
  if (!user) throw notFound();
  return { ...user, role: user.role as Role };
}

const entries = (db: Db, userId: number, range: StatementRange) =>
  db
    .selectFrom('credit_transactions as t')
    .where('t.user_id', '=', userId)
    .where('t.created_at', '>=', startOf(range.date_from))
    .where('t.created_at', '<', endOf(range.date_to));

const selectEntry = (qb: ReturnType<typeof entries>) =>
  qb
    .leftJoin('accounts as a', 'a.id', 't.account_id')
    .leftJoin('users as cp', 'cp.id', 't.counterparty_id')
    .leftJoin('users as act', 'act.id', 't.actor_id')
    .select([
      't.id',
      't.transaction_number',
      't.type',
      't.credits',
      't.bonus_credits',
      't.balance_before',
      't.balance_after',
      't.account_id',
      't.remarks',
      't.created_at',
      'a.login as account',
      'cp.id as cp_id',
      'cp.name as cp_name',
      'cp.username as cp_username',
      'cp.role as cp_role',
      'act.id as by_id',
      'act.name as by_name',
      'act.username as by_username',
      'act.role as by_role',
    ]);

type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntry>['execute']>>[number];

const ref = (id: number | null, name: string | null, username: string | null, role: string | null): UserRef | null =>
  id !== null && username !== null ? { id, name: name ?? username, username, role: role as Role } : null;

const toEntry = (r: EntryRow): StatementEntry => ({
  id: Number(r.id),
  transaction_number: r.transaction_number,
  type: r.type,
  credits: Number(r.credits),
  bonus_credits: Number(r.bonus_credits),
  balance_before: Number(r.balance_before),
  balance_after: Number(r.balance_after),
  account: r.account,
  account_id: r.account_id,
  counterparty: ref(r.cp_id, r.cp_name, r.cp_username, r.cp_role),
  actor: ref(r.by_id, r.by_name, r.by_username, r.by_role),
  remarks: r.remarks,
  created_at: r.created_at,
});

/** The figures of the range: opening balance, totals by type, closing balance. */
export async function statementFigures(db: Db, userId: number, range: StatementRange) {
  const [before, byType] = await Promise.all([
    db
      .selectFrom('credit_transactions')
      .select(sql<string | number | null>`sum(credits)`.as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '<', startOf(range.date_from))
      .executeTakeFirst(),
    entries(db, userId, range)
      .select(['t.type', sql<string | number>`count(*)`.as('count'), sql<string | number>`sum(t.credits)`.as('credits')])
      .groupBy('t.type')
      .orderBy('t.type')
      .execute(),
  ]);
  const opening = Number(before?.n ?? 0);
  const totals = byType.map((t) => ({ type: t.type, count: Number(t.count), credits: Number(t.credits) }));
  const net = totals.reduce((sum, t) => sum + t.credits, 0);
  return { opening, totals, net, closing: opening + net, count: totals.reduce((sum, t) => sum + t.count, 0) };
}

export async function statementOf(db: Db, actor: Actor, userId: number, range: StatementRange): Promise<Statement> {
  const user = await statementUser(db, actor, userId);
  const [figures, shown] = await Promise.all([
    statementFigures(db, user.id, range),
    selectEntry(entries(db, user.id, range))
      .orderBy('t.created_at')
      .orderBy('t.id')
      .limit(STATEMENT_SCREEN_ENTRIES + 1)
      .execute(),
  ]);
  return {
    user,
    date_from: range.date_from,
    date_to: range.date_to,
    opening_balance: figures.opening,
    closing_balance: figures.closing,
    net_change: figures.net,
    totals: figures.totals,
    entry_count: figures.count,
    entries: shown.slice(0, STATEMENT_SCREEN_ENTRIES).map(toEntry),
    entries_truncated: shown.length > STATEMENT_SCREEN_ENTRIES,
  };
}

/** The statement's entries in ledger order, as the list machinery reads an export: keyset batches. */
const statementList = listSpec(list({ path: 'statements/:id', search: null, sorts: ['created_at'], defaultSort: 'created_at' }), {
  filters: {},
  sorts: { created_at: 't.created_at' },
  idColumn: 't.id',
});
const IN_ORDER: ListParams = { page: 1, perPage: 1, search: null, filters: {}, sortKey: 'created_at', direction: 'asc' };

/**
 * The statement as CSV rows: an opening line, every entry, a closing line and a line per type's
 * total; the entries come a batch at a time, so a long range costs no more memory than a short one.
 */
export async function* statementLines(db: Db, userId: number, range: StatementRange, batch: number): AsyncGenerator<Array<Partial<StatementEntry>>> {
  const figures = await statementFigures(db, userId, range);
  yield [{ created_at: startOf(range.date_from), type: STATEMENT.openingLine, balance_after: figures.opening }];
  const run: ListRun<EntryRow, StatementEntry> = {
    base: entries(db, userId, range),
    spec: statementList,
    select: (qb) => selectEntry(qb as ReturnType<typeof entries>),
    present: (rows) => rows.map(toEntry),
  };
  yield* listBatches(db, run, IN_ORDER, batch);
  yield [
    { created_at: endOf(range.date_to), type: STATEMENT.closingLine, credits: figures.net, balance_before: figures.opening, balance_after: figures.closing },
    ...figures.totals.map((t) => ({ type: STATEMENT.totalLine(t.type), credits: t.credits, remarks: STATEMENT.totalRemark(t.count) })),
  ];
}
