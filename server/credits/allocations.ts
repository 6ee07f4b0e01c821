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
  /** The bonus it earned (allocation_bonuses) and what recoveries took back of it. */
  bonus: number;
  bonus_taken: number;
}

/**
 * The allocations of a user with what was taken back from each, newest first. The sums are read per
 * allocation (by the recoveries' allocation index), so a LIMIT reads only that many allocations off
 * the user's allocation index instead of grouping all of them first.
 */
export function allocationStates(db: Kysely<Database>, userId: number) {
  const taken = (aggregate: 'sum' | 'max', column: 'credits' | 'created_at') =>
    sql`(select ${sql.raw(aggregate)}(r.${sql.raw(column)}) from allocation_recoveries r where r.allocation_id = t.id)`;
  return (
    db
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
        sql<number>`coalesce((select b.credits from allocation_bonuses b where b.allocation_id = t.id), 0)`.as('bonus'),
        sql<number>`coalesce((select sum(r.credits) from bonus_recoveries r where r.allocation_id = t.id), 0)`.as('bonus_taken'),
      ])
      .where('t.user_id', '=', userId)
      // Literals, as in the partial index that serves this (migration 0011): a bound value hides from
      // SQLite's planner that the index applies.
      .where(sql<boolean>`t.type = 'PURCHASED' and t.counterparty_id is not null and t.bonus_credits = 0 and t.credits > 0`)
      .orderBy('t.id', 'desc')
  );
}

export const remainingOf = (a: Pick<AllocationState, 'credits' | 'recovered'>) => Math.max(0, a.credits - Number(a.recovered));

/** What a recovery takes back of one allocation. */
export interface RecoveryTake {
  state: AllocationState;
  credits: number;
}

/**
 * Which allocations a recovery of `amount` takes back: the named allocation, else the newest with
 * something left. Credits that came from elsewhere (recoveries from the user's own children) are no
 * allocation and stay unlinked. The caller holds the user's row lock, so two recoveries never plan
 * on the same credits.
 */
export async function planRecovery(db: Kysely<Database>, userId: number, amount: number, allocationId?: number): Promise<RecoveryTake[]> {
  let left = amount;
  const takes: RecoveryTake[] = [];
  if (left <= 0) return takes;
  for await (const state of allocationsLeft(db, userId, allocationId)) {
    const take = Math.min(remainingOf(state), left);
    takes.push({ state, credits: take });
    left -= take;
    if (left <= 0) break;
  }
  return takes;
}

/**
 * The allocations of a user with something left, newest first (only the named one when given), a
 * batch at a time: a long-lived user has thousands of allocations, and the newest usually suffice.
 */
export async function* allocationsLeft(db: Kysely<Database>, userId: number, allocationId?: number): AsyncGenerator<AllocationState> {
  let before: number | null = null;
  for (;;) {
    let q = allocationStates(db, userId).limit(LINK_BATCH);
    if (before !== null) q = q.where('t.id', '<', before);
    if (allocationId !== undefined) q = q.where('t.id', '=', allocationId);
    const states = (await q.execute()) as AllocationState[];
    for (const state of states) if (remainingOf(state) > 0) yield state;
    if (states.length < LINK_BATCH) return;
    before = states[states.length - 1].id;
  }
}

/** Records what a recovery (the recovered user's RECOVERED entry) took back, as planned. */
export async function linkRecovery(db: Kysely<Database>, recoveryId: number, takes: RecoveryTake[]): Promise<void> {
  const createdAt = nowIso();
  const rows = takes.map((t) => ({ allocation_id: t.state.id, recovery_id: recoveryId, credits: t.credits, created_at: createdAt }));
  if (rows.length) await db.insertInto('allocation_recoveries').values(rows).execute();
}

/** Allocations read per query while planning a recovery. */
const LINK_BATCH = 5;
