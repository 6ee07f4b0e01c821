/**
 * Bonus (promo) credits of an allocation (decisions file):
 * - admin -> manager: the credit levels, round(amount x promo_ratio) when the levels' promo is on;
 * - every other allocation: the active user promo of the recipient's server with the largest
 *   credits_required <= amount, when reseller/dealer promos are on.
 * Both need the system's enable_promos master switch. The bonus is earned by credits that stay bought:
 * a recovery that reaches an allocation takes back its whole bonus (credits/bonusBack.ts).
 */
import type { Kysely } from 'kysely';
import { type BonusRule, bonusOf, levelBonusRule, matchingTier } from '../../src/contract';
import type { Database, UserRow } from '../db/schema';
import { branchServerId } from '../hierarchy/branch';
import { type SystemSettings, getCreditLevels, getSystemSettings } from '../settings';

export interface Bonus {
  bonus: number;
  /** Names the level or promo on the bonus ledger entry. */
  remarks: string | null;
  /** The promotion behind it, recorded with the allocation (allocation_bonuses). */
  source: 'promo' | 'level' | null;
  promoId: number | null;
}

const NONE: Bonus = { bonus: 0, remarks: null, source: null, promoId: null };

export type BonusCalculator = (amount: number) => Bonus;

/**
 * Loads what the bonus of allocations from `giverRole` to `recipientRole` on `serverId` depends on,
 * once: the rule the allocation options state (contract BonusRule, which prices a typed amount in the
 * panel) and the per-amount bonus from that same rule (the option lists price many amounts at a time).
 */
export async function bonusCalculator(
  db: Kysely<Database>,
  giverRole: string,
  recipientRole: string | null,
  serverId: number | null,
  settings?: SystemSettings,
): Promise<BonusCalculator & { rule: BonusRule }> {
  const none = Object.assign(() => NONE, { rule: null });
  const system = settings ?? (await getSystemSettings(db));
  if (!system.enable_promos) return none;
  if (giverRole === 'admin' && recipientRole === 'manager') {
    const rule = levelBonusRule(await getCreditLevels(db));
    const calc = (amount: number): Bonus => {
      const bonus = bonusOf(rule, amount);
      return bonus > 0 ? { bonus, remarks: `Credit level bonus for ${amount} credits`, source: 'level', promoId: null } : NONE;
    };
    return Object.assign(calc, { rule });
  }
  if (!system.enable_reseller_dealer_promos || serverId === null || recipientRole === 'manager') return none;
  const promos = await db
    .selectFrom('user_promos')
    .select(['id', 'name', 'credits_required', 'bonus_credits'])
    .where('is_active', '=', 1)
    .where('server_id', '=', serverId)
    .orderBy('credits_required', 'desc')
    .orderBy('id', 'asc')
    .execute();
  const rule: BonusRule = { kind: 'tiers', tiers: promos.map(({ credits_required, bonus_credits }) => ({ credits_required, bonus_credits })) };
  const calc = (amount: number): Bonus => {
    const promo = matchingTier(promos, amount);
    return promo ? { bonus: promo.bonus_credits, remarks: `Promo bonus: ${promo.name}`, source: 'promo', promoId: promo.id } : NONE;
  };
  return Object.assign(calc, { rule });
}

/** The bonus of one allocation from `giver` to `recipient`. */
export async function bonusFor(
  db: Kysely<Database>,
  giver: Pick<UserRow, 'role'>,
  recipient: Pick<UserRow, 'role' | 'path' | 'server_id'>,
  amount: number,
  settings?: SystemSettings,
  /** The recipient's branch server when the caller already knows it. */
  serverId?: number | null,
): Promise<Bonus> {
  const server = serverId !== undefined ? serverId : await branchServerId(db, recipient);
  const calc = await bonusCalculator(db, giver.role, recipient.role, server, settings);
  return calc(amount);
}
