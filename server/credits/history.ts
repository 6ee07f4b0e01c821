/**
 * Recovery history of a dealer: the paid allocations it received, what was already taken back from
 * each (by a recovery from history or by a normal recovery, credits/allocations.ts), and what
 * recover-from-history would take now: what is left of the allocation, at most the paid balance less
 * the allocation's bonus that was already spent and comes back from it (credits/bonusBack.ts).
 */
import type { Kysely, Transaction } from 'kysely';
import { CREDITS, HIERARCHY, type RecoveryHistoryItem, type Role } from '../../src/contract';
import type { Database, UserRow } from '../db/schema';
import { fieldError, notFound } from '../errors';
import { type AllocationState, allocationStates, remainingOf } from './allocations';
import { owedOf } from './bonusBack';
import { type MoveResult, lockUsers, paidOf, recoverCredits } from './moves';

export const historyRemark = (transactionNumber: string) => `Recovery of ${transactionNumber}`;

/** Bonus of this allocation already spent by `user`: reaching the allocation charges it to the paid credits. */
const spentBonusOf = (state: AllocationState, user: Pick<UserRow, 'bonus_credits'>) => Math.max(0, owedOf(state) - user.bonus_credits);

export async function recoveryHistory(db: Kysely<Database>, dealer: UserRow): Promise<RecoveryHistoryItem[]> {
  const rows = (await allocationStates(db, dealer.id).execute()) as AllocationState[];
  const fromIds = [...new Set(rows.map((r) => r.counterparty_id).filter((id): id is number => id !== null))];
  const senders = fromIds.length ? await db.selectFrom('users').select(['id', 'name', 'username', 'role']).where('id', 'in', fromIds).execute() : [];
  const byId = new Map(senders.map((u) => [u.id, u]));
  const paid = paidOf(dealer);
  return rows.map((r) => {
    const from = r.counterparty_id !== null ? byId.get(r.counterparty_id) : undefined;
    const recovered = Number(r.recovered);
    const remaining = remainingOf(r);
    return {
      id: r.id,
      transaction_number: r.transaction_number,
      credits: r.credits,
      date: r.created_at,
      remarks: r.remarks,
      from: from ? { id: from.id, name: from.name, username: from.username, role: from.role as Role } : null,
      recovered: remaining === 0,
      recovered_at: recovered > 0 ? r.recovered_at : null,
      recovered_credits: recovered,
      recoverable_credits: Math.max(0, Math.min(remaining, paid - spentBonusOf(r, dealer))),
    };
  });
}

/** Takes back what is left of one earlier allocation, as far as the dealer's paid credits go. */
export async function recoverFromHistory(trx: Transaction<Database>, actorId: number, dealerId: number, transactionId: number): Promise<MoveResult> {
  // The dealer's row lock serialises every recovery from it, so what is left cannot be taken twice.
  const dealer = (await lockUsers(trx, [actorId, dealerId])).get(dealerId);
  if (!dealer) throw notFound();
  const entry = (await allocationStates(trx, dealerId).where('t.id', '=', transactionId).executeTakeFirst()) as AllocationState | undefined;
  if (!entry) throw fieldError('transaction_id', HIERARCHY.historyInvalid);
  const remaining = remainingOf(entry);
  if (remaining === 0) throw fieldError('transaction_id', HIERARCHY.historyAlreadyRecovered);
  const spent = spentBonusOf(entry, dealer);
  const amount = Math.min(remaining, paidOf(dealer) - spent);
  if (amount <= 0) throw fieldError('paid_credits', spent > 0 ? CREDITS.cannotRecoverSpentBonus(0, spent) : CREDITS.cannotRecover(0));
  return recoverCredits(trx, actorId, dealerId, amount, { remarks: historyRemark(entry.transaction_number), allocationId: entry.id });
}
