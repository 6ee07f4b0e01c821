/**
 * The amounts the Add Credits and Recover Credits dialogs offer (decisions file):
 * admin -> manager: the credit levels; everything else: the credit options settings (inactive
 * settings: 10 in steps of 5 up to 2000 for admin, up to the balance for others). Each option carries
 * the bonus the same allocation would get, from the same rule the move applies.
 */
import type { Kysely } from 'kysely';
import {
  CHILD_ROLE,
  ALLOCATION_SHARES,
  CREDITS,
  type CreditAmountRules,
  type CreditChoice,
  type CreditOptionsResponse,
  FALLBACK_CREDIT_OPTIONS,
  HIERARCHY,
  MANAGER_ALLOCATION_MAX,
  type RecoveryOptionsResponse,
  RECOVERY_SHARES,
  creditChoices,
  creditLevels,
  pricedOption,
  isRole,
} from '../../src/contract';
import type { Database, UserRow } from '../db/schema';
import { type SystemSettings, getCreditLevels, getCreditOptionsSettings, getSystemSettings } from '../settings';
import { branchServerId } from '../hierarchy/branch';
import { type BonusCalculator, bonusCalculator } from './bonus';
import { type RecoveryTake, allocationsLeft, remainingOf } from './allocations';
import { type BonusBack, bonusBack, recoveryLimit } from './bonusBack';

/** Paid credits: what a user may give, and what can be recovered from it (bonus never moves). */
export const paidOf = (user: Pick<UserRow, 'credits' | 'bonus_credits'>) => user.credits - user.bonus_credits;

const priced = (choices: CreditChoice[], calc: BonusCalculator) => choices.map((c) => pricedOption(c.value, calc(c.value).bonus, c.share));

/**
 * Options for `actor` giving credits to `recipient` (or to a child of its own level when none is
 * named); `serverId` picks the promos when no recipient says which server it is on.
 */
export async function allocationOptions(
  db: Kysely<Database>,
  actor: UserRow,
  recipient: UserRow | null,
  serverId: number | null,
  forRole: string | null = null,
): Promise<CreditOptionsResponse> {
  const admin = actor.role === 'admin';
  const recipientRole = recipient?.role ?? forRole ?? (isRole(actor.role) ? CHILD_ROLE[actor.role] : null);
  const server = recipient ? await branchServerId(db, recipient) : (serverId ?? (admin ? null : await branchServerId(db, actor)));
  const calc = await bonusCalculator(db, actor.role, recipientRole, server);

  if (admin && recipientRole === 'manager') {
    const levels = await getCreditLevels(db);
    return {
      options: priced(
        creditLevels(levels).map((l) => ({ value: l.value })),
        calc,
      ),
      user_credits: null,
      min_credits: levels.minimum,
      max_credits: Math.min(levels.maximum, MANAGER_ALLOCATION_MAX),
      step: 1,
      bonus_rule: calc.rule,
    };
  }

  const { choices, min, max, step } = await allocationChoices(db, actor, await getSystemSettings(db));
  return {
    options: priced(choices, calc),
    user_credits: admin ? null : actor.credits,
    min_credits: min,
    max_credits: max,
    step,
    bonus_rule: calc.rule,
  };
}

/**
 * The amounts `actor` is offered to give and the bounds of a typed one (any recipient but admin's
 * manager, whose amounts are the credit levels): the allocation options above and the rule a move
 * checks are this one computation, so what the panel offers and what the API accepts cannot drift.
 */
async function allocationChoices(db: Kysely<Database>, actor: UserRow, { minimum_credit_limit }: Pick<SystemSettings, 'minimum_credit_limit'>) {
  const admin = actor.role === 'admin';
  const settings = await getCreditOptionsSettings(db);
  const paid = admin ? null : paidOf(actor);
  let choices = creditChoices(settings, paid, ALLOCATION_SHARES);
  if (!admin && minimum_credit_limit > 0) choices = choices.filter((c) => c.value >= minimum_credit_limit);
  const fallback = !settings.is_active;
  const ceiling = fallback ? FALLBACK_CREDIT_OPTIONS.adminMax : settings.max_credits;
  return {
    choices,
    min: Math.max(fallback ? FALLBACK_CREDIT_OPTIONS.start : settings.min_credits, admin ? 0 : minimum_credit_limit),
    max: paid === null ? ceiling : fallback ? paid : Math.min(ceiling, paid),
    step: fallback ? 1 : Math.max(1, settings.increment_step),
  };
}

/**
 * The rules an amount `actor` gives (Add Credits, a new user's initial credits) meets, as the panel
 * applies them to what the allocation options answer: admin mints any amount from 1 (the manager cap
 * is the move's own check); anyone else one of the offered amounts, or one within their bounds and
 * its own paid credits. `actor` is the row as read under its lock, so the balance is exact.
 */
export async function allocationRules(db: Kysely<Database>, actor: UserRow, settings: Pick<SystemSettings, 'minimum_credit_limit'>): Promise<CreditAmountRules> {
  if (actor.role === 'admin') return { min: 1 };
  const { choices, min, max, step } = await allocationChoices(db, actor, settings);
  return { min, max, step, balance: paidOf(actor), offered: choices.map((c) => c.value) };
}

/**
 * The rules a typed recovery meets, as the Recover dialog applies them: 1 to `available`, what
 * can be recovered now (recoveryLimit, the recovery options' available_paid_credits), more refused
 * naming it.
 */
export const recoveryRules = (available: number): CreditAmountRules => ({ min: 1, balance: available, overBalance: (_amount, most) => CREDITS.cannotRecover(most) });

/**
 * What can be taken back from `target`: paid credits only, each amount with the bonus it takes back
 * (the whole bonus of every allocation it reaches, credits/bonusBack.ts), and no more than the paid
 * credits cover once the spent part of that bonus is paid back from them.
 */
export async function recoveryOptions(db: Kysely<Database>, target: UserRow): Promise<RecoveryOptionsResponse> {
  const paid = paidOf(target);
  const available = await recoveryLimit(db, target);
  const backOf = await bonusBackCurve(db, target, Math.min(paid, available + 1));
  const settings = await getCreditOptionsSettings(db);
  const choices = available > 0 ? creditChoices({ ...settings, min_credits: 1 }, available, RECOVERY_SHARES) : [];
  // Taking every credit that can be recovered is always offered.
  if (available > 0 && !choices.some((c) => c.value === available)) choices.push({ value: available, share: RECOVERY_SHARES.all });
  const options = choices.map(({ value: v, share }) => {
    const { fromBonus, charged } = backOf(v);
    const text =
      charged > 0
        ? `${v} credits (also removes ${fromBonus} bonus and ${charged} credits for spent bonus)`
        : fromBonus > 0
          ? `${v} credits (also removes ${fromBonus} bonus)`
          : `${v} credits`;
    return {
      value: v,
      display_text: text,
      bonus_credits: fromBonus + charged,
      total_credits: v + fromBonus + charged,
      ...(share ? { share } : {}),
    };
  });
  const all = backOf(available);
  // Below the paid credits, the limit is what paying back the spent bonus leaves: name that bonus.
  const spent = available < paid ? backOf(available + 1).charged : all.charged;
  const message = [
    available === 0 ? HIERARCHY.recoveryNone : HIERARCHY.recoveryAvailable(available),
    all.fromBonus > 0 ? HIERARCHY.recoveryBonusWarning(all.fromBonus) : null,
    spent > 0 ? HIERARCHY.recoveryBonusSpent(spent) : null,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    options,
    message,
    available_paid_credits: available,
    bonus_credits_to_zero: all.fromBonus,
    user_credits: target.credits,
    bonus_credits: target.bonus_credits,
  };
}

/** The bonus a recovery of each amount up to `limit` takes back, from one read of the allocations. */
async function bonusBackCurve(db: Kysely<Database>, target: UserRow, limit: number): Promise<(amount: number) => BonusBack> {
  const takesFor: RecoveryTake[] = [];
  let reached = 0;
  if (limit > 0) {
    for await (const state of allocationsLeft(db, target.id)) {
      takesFor.push({ state, credits: remainingOf(state) });
      reached += remainingOf(state);
      if (reached >= limit) break;
    }
  }
  return (amount) => {
    const takes: RecoveryTake[] = [];
    let left = amount;
    for (const t of takesFor) {
      if (left <= 0) break;
      takes.push(t);
      left -= t.credits;
    }
    return bonusBack(takes, target.bonus_credits);
  };
}
