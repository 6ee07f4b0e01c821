/**
 * Allocations are the paid credits a user received from another user (PURCHASED, counterparty set,
 * no bonus). Every recovery records which allocations it took back (table allocation_recoveries): a
 * recovery from history takes back the one it names, any other the newest allocations first. What is
 * left of an allocation is its credits minus everything taken back from it.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';
import { nowIso } from '../db/values';

export interface AllocationState {
  id: number;
  transaction_number: string;
  credits: number;
  created_at: string;
  remarks: string | null;
  counterparty_id: number | null;
  /** Taken back so far, and when last. */
  recovered: number;
  recovered_at: string | null;
}

/**
 * The allocations of a user with what was taken back from each, newest first. The sums are read per
 * allocation (by the recoveries' allocation index), so a LIMIT reads only that many allocations off
 * the user's allocation index instead of grouping all of them first.
 */
export function allocationStates(db: Kysely<Database>, userId: number) {
  const taken = (aggregate: 'sum' | 'max', column: 'credits' | 'created_at') =>
    sql`(select ${sql.raw(aggregate)}(r.${sql.raw(column)}) from allocation_recoveries r where r.allocation_id = t.id)`;
  return db
    .selectFrom('credit_transactions as t')
    .select([
      't.id',
      't.transaction_number',
      't.credits',
      't.created_at',
      't.remarks',
      't.counterparty_id',
      sql<number>`coalesce(${taken('sum', 'credits')}, 0)`.as('recovered'),
      sql<string | null>`${taken('max', 'created_at')}`.as('recovered_at'),
    ])
    .where('t.user_id', '=', userId)
    // Literals, as in the partial index that serves this (migration 0011): a bound value hides from
    // SQLite's planner that the index applies.
    .where(sql<boolean>`t.type = 'PURCHASED' and t.counterparty_id is not null and t.bonus_credits = 0 and t.credits > 0`)
    .orderBy('t.id', 'desc');
}

export const remainingOf = (a: Pick<AllocationState, 'credits' | 'recovered'>) => Math.max(0, a.credits - Number(a.recovered));

/**
 * Records what a recovery (the recovered user's RECOVERED entry) took back: `amount` from the named
 * allocation, else from the newest allocations with something left. Credits that came from elsewhere
 * (recoveries from the user's own children) are no allocation and stay unlinked. The caller holds the
 * user's row lock, so two recoveries never link the same credits.
 */
export async function linkRecovery(db: Kysely<Database>, userId: number, recoveryId: number, amount: number, allocationId?: number): Promise<void> {
  const createdAt = nowIso();
  let left = amount;
  const rows: Array<{ allocation_id: number; recovery_id: number; credits: number; created_at: string }> = [];
  // Newest first, a batch at a time: a long-lived user has thousands of allocations, and the
  // newest one usually covers a recovery.
  let before: number | null = null;
  while (left > 0) {
    let q = allocationStates(db, userId).limit(LINK_BATCH);
    if (before !== null) q = q.where('t.id', '<', before);
    if (allocationId !== undefined) q = q.where('t.id', '=', allocationId);
    const states = (await q.execute()) as AllocationState[];
    for (const state of states) {
      const take = Math.min(remainingOf(state), left);
      if (take <= 0) continue;
      rows.push({ allocation_id: state.id, recovery_id: recoveryId, credits: take, created_at: createdAt });
      left -= take;
      if (left <= 0) break;
    }
    if (states.length < LINK_BATCH) break;
    before = states[states.length - 1].id;
  }
  if (rows.length) await db.insertInto('allocation_recoveries').values(rows).execute();
}

/** Allocations read per query while linking a recovery. */
const LINK_BATCH = 5;
