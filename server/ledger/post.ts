/**
 * The one way a balance changes (DESIGN.md, ledger rules). Each change is a conditional UPDATE that
 * cannot take a balance below zero or above MAX_BALANCE (or bonus below zero, or bonus above the
 * total), and an
 * append-only entry carrying balance_before and balance_after, written in the caller's transaction.
 * Changes are applied in ascending user id so concurrent moves lock rows in one order.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type Transaction, sql } from 'kysely';
import { CREDITS, MAX_BALANCE } from '../../src/contract';
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
  meta: { actorId: number | null; operationId?: string },
): Promise<PostedEntry[]> {
  const operationId = meta.operationId ?? randomUUID();
  const createdAt = nowIso();
  const posted: PostedEntry[] = [];
  const ordered = [...changes].sort((a, b) => a.userId - b.userId);
  for (const change of ordered) {
    const delta = change.credits;
    const bonusDelta = change.bonusCredits ?? 0;
    let update = trx
      .updateTable('users')
      .set({
        credits: sql`credits + ${delta}`,
        bonus_credits: sql`bonus_credits + ${bonusDelta}`,
        updated_at: createdAt,
      })
      .where('id', '=', change.userId)
      // Each bound compares a column with a constant worked out here, so no condition can overflow
      // the 32-bit columns of PostgreSQL, whatever order it evaluates them in.
      .where(sql<boolean>`credits >= ${-delta}`)
      .where(sql<boolean>`bonus_credits >= ${-bonusDelta}`)
      .where(sql<boolean>`bonus_credits - credits <= ${delta - bonusDelta}`);
    // Only a credit can cross the cap (a balance above it, set by hand, may still be spent down).
    if (delta > 0) update = update.where(sql<boolean>`credits <= ${MAX_BALANCE - delta}`);
    const row = await update.returning(['credits', 'bonus_credits']).executeTakeFirst();
    if (!row) {
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
    const transactionNumber = newTransactionNumber();
    const entry = await trx
      .insertInto('credit_transactions')
      .values({
        transaction_number: transactionNumber,
        user_id: change.userId,
        type: change.type,
        credits: delta,
        bonus_credits: bonusDelta,
        balance_before: row.credits - delta,
        balance_after: row.credits,
        counterparty_id: change.counterpartyId ?? null,
        actor_id: meta.actorId,
        account_id: change.accountId ?? null,
        operation_id: operationId,
        coverage_start: change.coverageStart ?? null,
        coverage_end: change.coverageEnd ?? null,
        remarks: change.remarks ?? null,
        created_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    posted.push({
      id: entry.id,
      transaction_number: transactionNumber,
      user_id: change.userId,
      type: change.type,
      credits: delta,
      bonus_credits: bonusDelta,
      balance_before: row.credits - delta,
      balance_after: row.credits,
    });
  }
  return posted;
}
