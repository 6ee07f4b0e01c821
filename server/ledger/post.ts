/**
 * The one way a balance changes (DESIGN.md, ledger rules). Each change is an append-only entry
 * carrying balance_before and balance_after, written from the user's row by a conditional
 * INSERT ... SELECT that cannot take a balance below zero or above MAX_BALANCE (or bonus below zero,
 * or bonus above the total), in the caller's transaction. Inserting the entry applies it to the
 * balance (a trigger of migration 0006; the database refuses any other balance change). Changes are
 * applied in ascending user id so concurrent moves lock rows in one order.
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
  const posted: PostedEntry[] = [];
  const ordered = [...changes].sort((a, b) => a.userId - b.userId);
  const postgres = isPostgres(trx);
  for (const change of ordered) {
    const delta = change.credits;
    const bonusDelta = change.bonusCredits ?? 0;
    const transactionNumber = newTransactionNumber();
    // The entry is written from the user's row in one statement, only when the change keeps the
    // balance valid; inserting it applies it to the balance (migration 0006), which is the only way a
    // balance changes. Each bound compares a column with a constant worked out here, so no condition
    // can overflow the 32-bit columns of PostgreSQL, whatever order it evaluates them in. Only a credit
    // can cross the cap (a balance above it may still be spent down).
    const capped = delta > 0 ? sql`and credits <= ${MAX_BALANCE - delta}` : sql``;
    // PostgreSQL: the row stays locked until commit (the same lock the balance update takes).
    const lock = postgres ? sql`for no key update` : sql``;
    const int = (value: number | null | undefined) => sql`cast(${value ?? null} as integer)`;
    const text = (value: string | null | undefined) => sql`cast(${value ?? null} as text)`;
    const result = await sql<{ id: number; balance_before: number; balance_after: number }>`
      insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after,
        counterparty_id, actor_id, account_id, operation_id, coverage_start, coverage_end, remarks, created_at)
      select ${text(transactionNumber)}, id, ${text(change.type)}, ${int(delta)}, ${int(bonusDelta)}, credits, credits + ${int(delta)},
        ${int(change.counterpartyId)}, ${int(meta.actorId)}, ${int(change.accountId)}, ${text(operationId)},
        ${text(change.coverageStart)}, ${text(change.coverageEnd)}, ${text(change.remarks)}, ${text(createdAt)}
      from users
      where id = ${int(change.userId)}
        and credits >= ${int(-delta)}
        and bonus_credits >= ${int(-bonusDelta)}
        and bonus_credits - credits <= ${int(delta - bonusDelta)}
        ${capped}
      ${lock}
      returning id, balance_before, balance_after`.execute(trx);
    const entry = result.rows[0];
    if (!entry) {
      const current = await trx.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', change.userId).executeTakeFirst();
      if (current && delta > 0 && current.credits > MAX_BALANCE - delta) throw new BalanceCapExceeded(change.userId);
      const bonusShort = current && current.bonus_credits + bonusDelta < 0;
      throw new InsufficientBalance(
        change.userId,
        bonusShort ? 'bonus' : 'paid',
        bonusShort ? (current?.bonus_credits ?? 0) : (current?.credits ?? 0),
        -(bonusShort ? bonusDelta : delta),
      );
    }
    posted.push({
      id: Number(entry.id),
      transaction_number: transactionNumber,
      user_id: change.userId,
      type: change.type,
      credits: delta,
      bonus_credits: bonusDelta,
      balance_before: Number(entry.balance_before),
      balance_after: Number(entry.balance_after),
    });
  }
  return posted;
}
