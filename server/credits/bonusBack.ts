/**
 * A promotion's bonus is earned by credits that stay bought (docs/reliability.md,
 * "Promotion bonuses"). A recovery that reaches an allocation takes back the whole bonus that
 * allocation earned, once, however few of its credits it takes: whole rather than in proportion,
 * because it is exact in integers, the same however a recovery is split (twenty recoveries of one
 * credit take back what one of twenty does), and a promo's threshold was met by the allocation, not
 * by what would be left of it. The user's bonus balance gives it back first; bonus the user already
 * spent comes back from its paid credits (burned, as the bonus was minted), so a recovery can take
 * at most what the paid credits cover after that (recoveryLimit).
 */
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema';
import { nowIso } from '../db/values';
import { type AllocationState, type RecoveryTake, allocationsLeft, remainingOf } from './allocations';

/** What of its bonus an allocation still owes once a recovery reaches it. */
export const owedOf = (s: Pick<AllocationState, 'bonus' | 'bonus_taken'>) => Math.max(0, Number(s.bonus) - Number(s.bonus_taken));

export interface BonusBack {
  /** The bonus the reached allocations earned and still hold. */
  owed: number;
  /** Taken from the bonus balance. */
  fromBonus: number;
  /** Bonus already spent, taken from the paid balance. */
  charged: number;
  byAllocation: Array<{ allocationId: number; credits: number }>;
}

/** The bonus a recovery taking `takes` gives back, with `bonusHeld` bonus credits on the balance. */
export function bonusBack(takes: RecoveryTake[], bonusHeld: number): BonusBack {
  const byAllocation = takes.map((t) => ({ allocationId: t.state.id, credits: owedOf(t.state) })).filter((a) => a.credits > 0);
  const owed = byAllocation.reduce((sum, a) => sum + a.credits, 0);
  const fromBonus = Math.min(owed, Math.max(0, bonusHeld));
  return { owed, fromBonus, charged: owed - fromBonus, byAllocation };
}

/**
 * The most paid credits a recovery can take back from `user` now (from the named allocation only,
 * when given): its paid credits, less the spent bonus that taking them back would charge. What a
 * recovery charges only grows with its amount, so the amounts that can be recovered run from 0 to
 * this limit. Read under the user's row lock to be exact; the dialogs read it without.
 */
export async function recoveryLimit(db: Kysely<Database>, user: Pick<UserRow, 'id' | 'credits' | 'bonus_credits'>, allocationId?: number): Promise<number> {
  const paid = user.credits - user.bonus_credits;
  const charge = (owed: number) => Math.max(0, owed - user.bonus_credits);
  let reached = 0;
  let owed = 0;
  let best = 0;
  for await (const state of allocationsLeft(db, user.id, allocationId)) {
    if (reached >= paid) return best;
    owed += owedOf(state);
    const top = reached + remainingOf(state);
    const most = Math.min(top, paid - charge(owed));
    // Past here every amount charges at least as much: nothing further fits.
    if (most <= reached) return best;
    best = most;
    reached = top;
  }
  // Paid credits that came from no allocation (recovered from the user's own children) carry no bonus.
  if (allocationId === undefined && reached < paid) best = Math.max(best, paid - charge(owed));
  return Math.max(0, best);
}

/** Records which allocations' bonus a recovery took back, and by which of its entries. */
export async function recordBonusBack(db: Kysely<Database>, back: BonusBack, bonusEntryId: number | null, chargeEntryId: number | null): Promise<void> {
  const createdAt = nowIso();
  let fromBonus = back.fromBonus;
  const rows: Array<{ allocation_id: number; entry_id: number; credits: number; created_at: string }> = [];
  for (const { allocationId, credits } of back.byAllocation) {
    const bonusPart = Math.min(credits, fromBonus);
    fromBonus -= bonusPart;
    if (bonusPart > 0 && bonusEntryId !== null) rows.push({ allocation_id: allocationId, entry_id: bonusEntryId, credits: bonusPart, created_at: createdAt });
    if (credits - bonusPart > 0 && chargeEntryId !== null)
      rows.push({ allocation_id: allocationId, entry_id: chargeEntryId, credits: credits - bonusPart, created_at: createdAt });
  }
  if (rows.length) await db.insertInto('bonus_recoveries').values(rows).execute();
}

/** Records the bonus an allocation earned and the promotion behind it. */
export async function recordBonus(
  db: Kysely<Database>,
  allocationId: number,
  bonusId: number,
  credits: number,
  promo: { source: 'promo' | 'level' | null; promoId: number | null },
): Promise<void> {
  await db
    .insertInto('allocation_bonuses')
    .values({ allocation_id: allocationId, bonus_id: bonusId, credits, source: promo.source ?? 'unknown', promo_id: promo.promoId, created_at: nowIso() })
    .execute();
}
