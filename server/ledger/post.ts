/**
 * The one way a balance changes (docs/reliability.md). Each change is an append-only entry
 * carrying balance_before and balance_after, written from the user's row by a conditional
 * INSERT ... SELECT that cannot take a balance below zero or above MAX_BALANCE (or bonus below zero,
 * or bonus above the total) at any of its steps, in the caller's transaction. Inserting the entry
 * applies it to the balance (triggers of migrations 0006 and 0014; the database refuses any other
 * balance change). Changes are applied in ascending user id so concurrent moves lock rows in one
 * order. On PostgreSQL the changes of a call (both sides of a move, a bulk renewal's thousand) are
 * one statement: its trigger applies them together at the end, per user, where SQLite's row triggers
 * apply each entry as it is written, and a statement there costs no round trip.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type Insertable, type Transaction, sql } from 'kysely';
import { CREDITS, MAX_BALANCE } from '../../src/contract';
import { isPostgres } from '../db/dialect';
import { nameStatement } from '../db/namedStatements';
import { prepared } from '../db/prepared';
import type { Database, LedgerOperationsTable } from '../db/schema';
import { nowIso } from '../db/values';
import { DomainError } from '../errors';

export const ENTRY_TYPES = ['PURCHASED', 'USED', 'RECOVERED', 'TRIAL'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** Legacy codes accepted as filters: credit, debit, recredit. */
export const LEGACY_TYPE_CODES: Record<string, EntryType> = { CRDT: 'PURCHASED', DBIT: 'USED', RCDT: 'RECOVERED' };

export interface BalanceChange {
  userId: number;
  type: EntryType;
  /** Signed change of the total balance. */
  credits: number;
  /** Signed change of the bonus part (already included in `credits`). */
  bonusCredits?: number;
  counterpartyId?: number | null;
  accountId?: number | null;
  coverageStart?: string | null;
  coverageEnd?: string | null;
  remarks?: string | null;
}

export interface PostedEntry {
  id: number;
  transaction_number: string;
  user_id: number;
  type: EntryType;
  credits: number;
  bonus_credits: number;
  balance_before: number;
  balance_after: number;
}

/** Thrown when a change would overdraw a balance; callers map it to their 422 field error. */
export class InsufficientBalance extends Error {
  constructor(
    readonly userId: number,
    readonly kind: 'paid' | 'bonus',
    readonly available: number,
    readonly requested: number,
  ) {
    super(`User ${userId} has ${available} ${kind} credits, ${requested} requested`);
  }
}

/** Thrown when a change would take a balance above MAX_BALANCE: the same 422 for every caller. */
export class BalanceCapExceeded extends DomainError {
  constructor(readonly userId: number) {
    const message = CREDITS.balanceCap(MAX_BALANCE);
    super('invalid', message, { credits: [message] });
  }
}

export const newTransactionNumber = (): string => `TXN-${Date.now().toString(36).toUpperCase()}-${randomBytes(3).toString('hex').toUpperCase()}`;

/**
 * What wrote an operation's entries (ledger_operations.kind, migration 0022). 'adjustment' is a
 * posting by the operator's own code (tests, scripts) that names no other kind.
 */
export const OPERATION_KINDS = ['credit_move', 'renewal', 'auto_renew', 'bulk_renew', 'recovery', 'trial', 'user_delete', 'seed', 'seed_scale', 'adjustment'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

export async function postChanges(
  trx: Transaction<Database>,
  changes: BalanceChange[],
  meta: { actorId: number | null; kind?: OperationKind; operationId?: string; createdAt?: string },
): Promise<PostedEntry[]> {
  const operationId = meta.operationId ?? randomUUID();
  const createdAt = meta.createdAt ?? nowIso();
  const postgres = isPostgres(trx);
  const ordered = [...changes].sort((a, b) => a.userId - b.userId);
  if (ordered.length === 0) return [];
  // The operation is recorded with its entries (the database refuses entries that name none); on
  // PostgreSQL by the first entries' statement itself, so a credit move costs no extra round trip.
  const operation = { id: operationId, kind: meta.kind ?? 'adjustment', actor_id: meta.actorId, entries: ordered.length, created_at: createdAt };
  if (!postgres) await insertOperation(trx, operation.id, operation.kind, operation.actor_id, operation.entries, operation.created_at);
  // Two entries written in the same millisecond share the prefix: their numbers must still differ.
  const numbers = new Set<string>();
  while (numbers.size < ordered.length) numbers.add(newTransactionNumber());
  const steps = [...numbers].map((transactionNumber, i) => ({ change: ordered[i], transactionNumber }));
  // PostgreSQL writes up to RUN_MAX entries, of any users, per statement; SQLite one per statement.
  const size = postgres ? RUN_MAX : 1;
  const runs: Step[][] = [];
  for (let i = 0; i < steps.length; i += size) runs.push(steps.slice(i, i + size));
  const posted: PostedEntry[] = [];
  for (const [i, run] of runs.entries()) {
    posted.push(...(await postRun(trx, run, { actorId: meta.actorId, operationId, createdAt, postgres, operation: postgres && i === 0 ? operation : null })));
  }
  return posted;
}

// Compiled once: on SQLite a move's operation costs a statement, not a query build as well.
const insertOperation = prepared((db, id: string, kind: string, actorId: number | null, entries: number, createdAt: string) =>
  db.insertInto('ledger_operations').values({ id, kind, actor_id: actorId, entries, created_at: createdAt }),
);

interface Step {
  change: BalanceChange;
  transactionNumber: string;
}

/** Changes per statement: sixteen bound values each, well under PostgreSQL's 65,535. */
const RUN_MAX = 1000;
/** Runs of up to this many changes (credit moves, single renewals) run as named statements on PostgreSQL. */
const NAMED_RUN_MAX = 4;

/** The balance a user must have now for all of its changes in a run to keep every rule, step by step. */
interface Bounds {
  minCredits: number;
  minBonus: number;
  maxGap: number;
  /** Only a credit can cross the cap (a balance above it may still be spent down). */
  maxCredits: number;
}

/**
 * Writes the entries of a run of changes (ordered by user, each user's in order) in one statement:
 * every user's entries or none of them. Each step starts from the user's balance now plus its changes
 * before it. The bounds on the balance now under which every step keeps it valid are worked out here,
 * so each condition compares a column with a constant and no sum can overflow the 32-bit columns of
 * PostgreSQL, whatever order it evaluates them in.
 */
async function postRun(
  trx: Transaction<Database>,
  run: Step[],
  meta: { actorId: number | null; operationId: string; createdAt: string; postgres: boolean; operation: Insertable<LedgerOperationsTable> | null },
): Promise<PostedEntry[]> {
  const bounds = new Map<number, Bounds>();
  const offsets = new Map<number, { credits: number; bonus: number }>();
  const rows = run.map(({ change, transactionNumber }, i) => {
    const userId = change.userId;
    const b = bounds.get(userId) ?? { minCredits: -Infinity, minBonus: -Infinity, maxGap: Infinity, maxCredits: Infinity };
    const offset = offsets.get(userId) ?? { credits: 0, bonus: 0 };
    const delta = change.credits;
    const before = offset.credits;
    if (delta > 0) b.maxCredits = Math.min(b.maxCredits, MAX_BALANCE - delta - offset.credits);
    offset.credits += delta;
    offset.bonus += change.bonusCredits ?? 0;
    b.minCredits = Math.max(b.minCredits, -offset.credits);
    b.minBonus = Math.max(b.minBonus, -offset.bonus);
    b.maxGap = Math.min(b.maxGap, offset.credits - offset.bonus);
    bounds.set(userId, b);
    offsets.set(userId, offset);
    return { i, change, transactionNumber, before };
  });
  const values = rows.map(({ i, change, transactionNumber, before }) => {
    const b = bounds.get(change.userId)!;
    return sql`(${int(i)}, ${text(transactionNumber)}, ${text(change.type)}, ${int(change.credits)}, ${int(change.bonusCredits ?? 0)}, ${big(before)},
      ${int(change.counterpartyId)}, ${int(change.accountId)}, ${text(change.coverageStart)}, ${text(change.coverageEnd)}, ${text(change.remarks)},
      ${int(change.userId)}, ${big(b.minCredits)}, ${big(b.minBonus)}, ${big(b.maxGap)}, ${b.maxCredits < Infinity ? big(b.maxCredits) : sql`cast(null as bigint)`})`;
  });
  // PostgreSQL: the rows stay locked until commit (the same lock the balance update takes), taken
  // in the order of the rows, which is ascending user id.
  const lock = meta.postgres ? sql`for no key update of u` : sql``;
  const op = meta.operation;
  const recordOperation = op
    ? sql`with operation as (insert into ledger_operations (id, kind, actor_id, entries, created_at)
        values (${text(op.id)}, ${text(op.kind)}, ${int(op.actor_id)}, ${int(op.entries)}, ${text(op.created_at)}))`
    : sql``;
  const statement = sql<{ id: number; transaction_number: string; balance_before: number; balance_after: number }>`
    ${recordOperation}
    insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after,
      counterparty_id, actor_id, account_id, operation_id, coverage_start, coverage_end, remarks, created_at)
    select c.column2, u.id, c.column3, c.column4, c.column5, u.credits + c.column6, u.credits + c.column6 + c.column4,
      c.column7, ${int(meta.actorId)}, c.column8, ${text(meta.operationId)}, c.column9, c.column10, c.column11, ${text(meta.createdAt)}
    from (values ${sql.join(values)}) as c
    join users u on u.id = c.column12
    where u.credits >= c.column13
      and u.bonus_credits >= c.column14
      and u.bonus_credits - u.credits <= c.column15
      and (c.column16 is null or u.credits <= c.column16)
    order by c.column1
    ${lock}
    returning id, transaction_number, balance_before, balance_after`.compile(trx);
  // A move's few entries: the same text for every move of its kind, planned once per connection.
  if (meta.postgres && run.length <= NAMED_RUN_MAX) nameStatement(statement.sql);
  const result = await trx.executeQuery(statement);
  const written = new Map(result.rows.map((row) => [row.transaction_number, row]));
  if (written.size !== run.length) {
    // The first user whose entries were refused names the error; the caller's transaction rolls back
    // what the statement wrote for the others.
    const refused = rows.find((r) => !written.has(r.transactionNumber));
    if (!refused) throw new Error(`${written.size} of ${run.length} entries written`);
    const userId = refused.change.userId;
    const b = bounds.get(userId)!;
    const current = await trx.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', userId).executeTakeFirst();
    if (current && current.credits > b.maxCredits) throw new BalanceCapExceeded(userId);
    const bonusShort = current && current.bonus_credits < b.minBonus;
    throw new InsufficientBalance(
      userId,
      bonusShort ? 'bonus' : 'paid',
      bonusShort ? (current?.bonus_credits ?? 0) : (current?.credits ?? 0),
      bonusShort ? b.minBonus : b.minCredits,
    );
  }
  return run.map(({ change, transactionNumber }) => {
    const entry = written.get(transactionNumber)!;
    return {
      id: Number(entry.id),
      transaction_number: transactionNumber,
      user_id: change.userId,
      type: change.type,
      credits: change.credits,
      bonus_credits: change.bonusCredits ?? 0,
      balance_before: Number(entry.balance_before),
      balance_after: Number(entry.balance_after),
    };
  });
}

const int = (value: number | null | undefined) => sql`cast(${value ?? null} as integer)`;
const big = (value: number) => sql`cast(${value} as bigint)`;
const text = (value: string | null | undefined) => sql`cast(${value ?? null} as text)`;
