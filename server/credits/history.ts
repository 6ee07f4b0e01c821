/**
 * Recovery history of a dealer: the paid allocations it received, and whether each has been taken
 * back with recover-from-history (the RECOVERED entry's remarks name the allocation).
 */
import type { Kysely, Transaction } from 'kysely';
import { HIERARCHY, type RecoveryHistoryItem, type Role } from '../../src/contract';
import type { Database, UserRow } from '../db/schema';
import { fieldError } from '../http/errors';
import { type MoveResult, lockUsers, paidOf, recoverCredits } from './moves';

export const historyRemark = (transactionNumber: string) => `Recovery of ${transactionNumber}`;
const REMARK_PREFIX = 'Recovery of ';

function allocations(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('credit_transactions as t')
    .leftJoin('users as cp', 'cp.id', 't.counterparty_id')
    .select([
      't.id',
      't.transaction_number',
      't.credits',
      't.created_at',
      't.remarks',
      'cp.id as from_id',
      'cp.name as from_name',
      'cp.username as from_username',
      'cp.role as from_role',
    ])
    .where('t.user_id', '=', userId)
    .where('t.type', '=', 'PURCHASED')
    .where('t.counterparty_id', 'is not', null)
    .where('t.bonus_credits', '=', 0)
    .where('t.credits', '>', 0);
}

async function recoveredAt(db: Kysely<Database>, userId: number): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('credit_transactions')
    .select(['remarks', 'created_at'])
    .where('user_id', '=', userId)
    .where('type', '=', 'RECOVERED')
    .where('remarks', 'like', `${REMARK_PREFIX}%`)
    .execute();
  return new Map(rows.map((r) => [r.remarks!.slice(REMARK_PREFIX.length), r.created_at]));
}

export async function recoveryHistory(db: Kysely<Database>, dealer: UserRow): Promise<RecoveryHistoryItem[]> {
  const [rows, recovered] = await Promise.all([allocations(db, dealer.id).orderBy('t.id', 'desc').execute(), recoveredAt(db, dealer.id)]);
  const paid = paidOf(dealer);
  return rows.map((r) => {
    const at = recovered.get(r.transaction_number) ?? null;
    return {
      id: r.id,
      transaction_number: r.transaction_number,
      credits: r.credits,
      date: r.created_at,
      remarks: r.remarks,
      from: r.from_id ? { id: r.from_id, name: r.from_name!, username: r.from_username!, role: r.from_role as Role } : null,
      recovered: at !== null,
      recovered_at: at,
      recoverable_credits: at !== null ? 0 : Math.min(r.credits, paid),
    };
  });
}

/** Takes back the credits of one earlier allocation, once. */
export async function recoverFromHistory(trx: Transaction<Database>, actorId: number, dealerId: number, transactionId: number): Promise<MoveResult> {
  // The dealer's row lock serialises two recoveries of the same allocation.
  await lockUsers(trx, [actorId, dealerId]);
  const entry = await allocations(trx, dealerId).where('t.id', '=', transactionId).executeTakeFirst();
  if (!entry) throw fieldError('transaction_id', HIERARCHY.historyInvalid);
  if ((await recoveredAt(trx, dealerId)).has(entry.transaction_number)) {
    throw fieldError('transaction_id', HIERARCHY.historyAlreadyRecovered);
  }
  return recoverCredits(trx, actorId, dealerId, entry.credits, { remarks: historyRemark(entry.transaction_number) });
}
