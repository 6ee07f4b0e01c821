/**
 * The one way a balance changes (DESIGN.md, ledger rules). Each change is an append-only entry
 * carrying balance_before and balance_after, written from the user's row by a conditional
 * INSERT ... SELECT that cannot take a balance below zero or above MAX_BALANCE (or bonus below zero,
 * or bonus above the total) at any of its steps, in the caller's transaction. Inserting the entry
 * applies it to the balance (triggers of migrations 0006 and 0014; the database refuses any other
 * balance change). Changes are applied in ascending user id so concurrent moves lock rows in one
 * order. On PostgreSQL a user's several changes (a bulk renewal's thousand) are one statement: its
 * trigger applies them together at the end, where SQLite's row triggers apply each entry as it is
 * written, and a statement there costs no round trip.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type Transaction, sql } from 'kysely';
import { CREDITS, MAX_BALANCE } from '../../src/contract';
import { isPostgres } from '../db/dialect';
import type { Database } from '../db/schema';
import { nowIso } from '../db/values';
import { ApiError } from '../http/errors';

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
export class BalanceCapExceeded extends ApiError {
  constructor(readonly userId: number) {
    const message = CREDITS.balanceCap(MAX_BALANCE);
    super(422, message, { credits: [message] });
  }
}

export const newTransactionNumber = (): string =>
  `TXN-${Date.now().toString(36).toUpperCase()}-${randomBytes(3).toString('hex').toUpperCase()}`;

export async function postChanges(
  trx: Transaction<Database>,
  changes: BalanceChange[],
  meta: { actorId: number | null; operationId?: string; createdAt?: string },
): Promise<PostedEntry[]> {
  const operationId = meta.operationId ?? randomUUID();
  const createdAt = meta.createdAt ?? nowIso();
  const postgres = isPostgres(trx);
  const ordered = [...changes].sort((a, b) => a.userId - b.userId);
  // Two entries written in the same millisecond share the prefix: their numbers must still differ.
  const numbers = new Set<string>();
  while (numbers.size < ordered.length) numbers.add(newTransactionNumber());
  const steps = [...numbers].map((transactionNumber, i) => ({ change: ordered[i], transactionNumber }));
  const runs: Step[][] = [];
  for (const step of steps) {
    const run = runs.at(-1);
    if (postgres && run && run[0].change.userId === step.change.userId && run.length < RUN_MAX) run.push(step);
    else runs.push([step]);
  }
  const posted: PostedEntry[] = [];
  for (const run of runs) posted.push(...(await postRun(trx, run, { actorId: meta.actorId, operationId, createdAt, postgres })));
  return posted;
}

interface Step {
  change: BalanceChange;
  transactionNumber: string;
}

/** Changes per statement: eleven bound values each, well under PostgreSQL's 65,535. */
const RUN_MAX = 1000;

/** Writes the entries of one user's changes, in order, in one statement: all of them or none. */
async function postRun(
  trx: Transaction<Database>,
  run: Step[],
  meta: { actorId: number | null; operationId: string; createdAt: string; postgres: boolean },
): Promise<PostedEntry[]> {
  const userId = run[0].change.userId;
  // Each step starts from the balance now plus the changes before it. The bounds on the balance now
  // under which every step keeps it valid are worked out here, so each condition compares a column
  // with a constant and no sum can overflow the 32-bit columns of PostgreSQL, whatever order it
  // evaluates them in. Only a credit can cross the cap (a balance above it may still be spent down).
  let offset = 0;
  let bonusOffset = 0;
  let minCredits = -Infinity;
  let minBonus = -Infinity;
  let maxGap = Infinity;
  let maxCredits = Infinity;
  const rows = run.map(({ change, transactionNumber }, i) => {
    const delta = change.credits;
    const bonusDelta = change.bonusCredits ?? 0;
    const before = offset;
    if (delta > 0) maxCredits = Math.min(maxCredits, MAX_BALANCE - delta - offset);
    offset += delta;
    bonusOffset += bonusDelta;
    minCredits = Math.max(minCredits, -offset);
    minBonus = Math.max(minBonus, -bonusOffset);
    maxGap = Math.min(maxGap, offset - bonusOffset);
    return sql`(${int(i)}, ${text(transactionNumber)}, ${text(change.type)}, ${int(delta)}, ${int(bonusDelta)}, ${big(before)},
      ${int(change.counterpartyId)}, ${int(change.accountId)}, ${text(change.coverageStart)}, ${text(change.coverageEnd)}, ${text(change.remarks)})`;
  });
  const capped = maxCredits < Infinity ? sql`and u.credits <= ${big(maxCredits)}` : sql``;
  // PostgreSQL: the row stays locked until commit (the same lock the balance update takes).
  const lock = meta.postgres ? sql`for no key update of u` : sql``;
  const result = await sql<{ id: number; transaction_number: string; balance_before: number; balance_after: number }>`
    insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after,
      counterparty_id, actor_id, account_id, operation_id, coverage_start, coverage_end, remarks, created_at)
    select c.column2, u.id, c.column3, c.column4, c.column5, u.credits + c.column6, u.credits + c.column6 + c.column4,
      c.column7, ${int(meta.actorId)}, c.column8, ${text(meta.operationId)}, c.column9, c.column10, c.column11, ${text(meta.createdAt)}
    from users u cross join (values ${sql.join(rows)}) as c
    where u.id = ${int(userId)}
      and u.credits >= ${big(minCredits)}
      and u.bonus_credits >= ${big(minBonus)}
      and u.bonus_credits - u.credits <= ${big(maxGap)}
      ${capped}
    order by c.column1
    ${lock}
    returning id, transaction_number, balance_before, balance_after`.execute(trx);
  if (result.rows.length === 0) {
    const current = await trx.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', userId).executeTakeFirst();
    if (current && current.credits > maxCredits) throw new BalanceCapExceeded(userId);
    const bonusShort = current && current.bonus_credits < minBonus;
    throw new InsufficientBalance(
      userId,
      bonusShort ? 'bonus' : 'paid',
      bonusShort ? (current?.bonus_credits ?? 0) : (current?.credits ?? 0),
      bonusShort ? minBonus : minCredits,
    );
  }
  if (result.rows.length !== run.length) throw new Error(`User ${userId}: ${result.rows.length} of ${run.length} entries written`);
  const written = new Map(result.rows.map((row) => [row.transaction_number, row]));
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
