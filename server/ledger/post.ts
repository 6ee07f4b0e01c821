/**
 * The one way a balance changes (DESIGN.md, ledger rules). Each change is a conditional UPDATE that
 * cannot take a balance below zero (or bonus below zero, or bonus above the total), and an
 * append-only entry carrying balance_before and balance_after, written in the caller's transaction.
 * Changes are applied in ascending user id so concurrent moves lock rows in one order.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type Transaction, sql } from 'kysely';
import type { Database } from '../db/schema';
import { nowIso } from '../db/values';

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
    const row = await trx
      .updateTable('users')
      .set({
        credits: sql`credits + ${delta}`,
        bonus_credits: sql`bonus_credits + ${bonusDelta}`,
        updated_at: createdAt,
      })
      .where('id', '=', change.userId)
      .where(sql<boolean>`credits + ${delta} >= 0`)
      .where(sql<boolean>`bonus_credits + ${bonusDelta} >= 0`)
      .where(sql<boolean>`bonus_credits + ${bonusDelta} <= credits + ${delta}`)
      .returning(['credits', 'bonus_credits'])
      .executeTakeFirst();
    if (!row) {
      const current = await trx.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', change.userId).executeTakeFirst();
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
