/** Payloads of the credit calls: add/recover, recover-from-history, and the option lookups. */
import { z } from 'zod';
import { MAX_RECORD_ID } from '../constants';
import { CREDITS, HIERARCHY } from '../messages';
import { integerInput } from './common';

export const CREDIT_ACTIONS = ['renew', 'recover'] as const;
export type CreditAction = (typeof CREDIT_ACTIONS)[number];

/** POST /{managers|resellers|dealers}/{id}/credits: renew adds credits, recover takes them back. */
export const creditMoveBody = z.object({
  action: z.enum(CREDIT_ACTIONS, { error: HIERARCHY.actionInvalid }),
  /** A whole number; the amount rules (creditAmountIssue) refuse one below their minimum, with its message. */
  credits: z.preprocess(integerInput, z.number({ error: CREDITS.selectAmount }).int(CREDITS.selectAmount).max(1_000_000, CREDITS.selectAmount)),
  /** The bonus the dialog showed; refused when it differs from the server's. */
  bonus_credits: z.preprocess(
    integerInput,
    z.number({ error: CREDITS.promoCredits }).int(CREDITS.promoCredits).min(0, CREDITS.promoCredits).max(1_000_000, CREDITS.promoCredits).nullish(),
  ),
});
export type CreditMoveBody = z.infer<typeof creditMoveBody>;

/**
 * The rules an amount typed in the panel meets, as the option lookups state them: at least `min`
 * (never below 1), at most the `balance` (refused naming it) and `max`, a multiple of `step`. An
 * amount the lookup offered always passes (its "all your credits" need not be a multiple of the step).
 */
export interface CreditAmountRules {
  min: number;
  max?: number;
  step?: number;
  /** What may be spent: the giver's paid credits, or the child's for a recovery. */
  balance?: number;
  /** How an amount above `balance` is refused (default: 'Insufficient credits: You need X credits but only have Y'). */
  overBalance?: (amount: number, balance: number) => string;
  offered?: readonly number[];
}

/** The message refusing a whole `amount` under `rules`, or undefined when it may be sent as it is. */
export function creditAmountIssue(amount: number, rules: CreditAmountRules): string | undefined {
  const { max, step = 1, balance, overBalance = CREDITS.insufficientCredits, offered = [] } = rules;
  if (offered.includes(amount)) return undefined;
  const min = Math.max(1, rules.min);
  if (amount < min) return HIERARCHY.minimumCreditLimit(min);
  if (balance !== undefined && amount > balance) return overBalance(amount, balance);
  if (max !== undefined && amount > max) return CREDITS.maximumAmount(max);
  if (step > 1 && amount % step !== 0) return CREDITS.amountStep(step);
  return undefined;
}

/** `schema` (a whole number) refused by `rules`' message when the amount breaks them; `zeroIsNone`: 0 gives nothing and passes. */
export function withCreditAmountRules<S extends z.ZodType<unknown>>(schema: S, rules: CreditAmountRules, { zeroIsNone = false } = {}) {
  return schema.superRefine((value, ctx) => {
    if (typeof value !== 'number' || (zeroIsNone && value === 0)) return;
    const message = creditAmountIssue(value, rules);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}

/**
 * The amount of a credit dialog: a whole number ('Please select a valid amount' otherwise) within
 * `rules`, then the API's own rule for `credits` above.
 */
export const creditAmount = (rules: CreditAmountRules) =>
  withCreditAmountRules(z.preprocess(integerInput, z.number({ error: CREDITS.selectAmount }).int(CREDITS.selectAmount)), rules).pipe(
    creditMoveBody.shape.credits as z.ZodType<number, number>,
  );

export const recoverFromHistoryBody = z.object({
  transaction_id: z.preprocess(
    integerInput,
    z.number({ error: HIERARCHY.historyInvalid }).int(HIERARCHY.historyInvalid).positive(HIERARCHY.historyInvalid).max(MAX_RECORD_ID, HIERARCHY.historyInvalid),
  ),
});
export type RecoverFromHistoryBody = z.infer<typeof recoverFromHistoryBody>;

const optionalQueryId = z.preprocess((v) => (v === '' ? undefined : integerInput(v)), z.number().int().positive().max(MAX_RECORD_ID).optional());

/**
 * GET /credit-options/allocation?server_id=&user_id=&role= — `role` names the recipient's role when
 * there is no recipient yet (initial credits in a create form); it defaults to the caller's child role.
 */
export const allocationQuery = z.object({
  server_id: optionalQueryId,
  user_id: optionalQueryId,
  role: z.enum(['manager', 'reseller', 'dealer']).optional(),
});
export type AllocationQuery = z.infer<typeof allocationQuery>;

/** One amount a credit dialog offers, with the bonus it brings (or removes). */
export const creditOptionEntity = z.object({
  value: z.number(),
  display_text: z.string(),
  bonus_credits: z.number(),
  total_credits: z.number(),
  /** Set on an amount computed from a balance rather than configured ('25% of your balance'). */
  share: z.string().optional(),
});

/** How an allocation's bonus is reckoned (contract BonusRule): a ratio, promo tiers, or none. */
export const bonusRuleEntity = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('ratio'), ratio: z.number() }),
    z.object({ kind: z.literal('tiers'), tiers: z.array(z.object({ credits_required: z.number(), bonus_credits: z.number() })) }),
  ])
  .nullable();

/** GET /credit-options/allocation: { data: CreditOptionsResponse }. */
export const creditOptionsResponseEntity = z.object({
  /** The configured amounts first, then those computed from the giver's balance (with `share`). */
  options: z.array(creditOptionEntity),
  /** The giver's balance (null for admin, who holds none). */
  user_credits: z.number().nullable(),
  min_credits: z.number(),
  max_credits: z.number(),
  /** A typed amount is a multiple of this (the settings' increment step; 1 for the credit levels). */
  step: z.number(),
  /** The rule the offered amounts' bonus comes from, for pricing a typed amount (contract bonusOf). */
  bonus_rule: bonusRuleEntity,
});

/** GET .../credits/recovery-options and /credit-options/recovery/{id}: { data: RecoveryOptionsResponse }. */
export const recoveryOptionsResponseEntity = z.object({
  options: z.array(creditOptionEntity),
  message: z.string(),
  /** credits - bonus_credits: what a recovery may take. */
  available_paid_credits: z.number(),
  /** The bonus removed when every paid credit is recovered. */
  bonus_credits_to_zero: z.number(),
  user_credits: z.number(),
  bonus_credits: z.number(),
});

/** POST /credit-options-settings/test: what a giver holding `user_credits` would be offered. */
export const creditOptionsTestResultEntity = z.object({
  options_count: z.number(),
  user_credits: z.number(),
  generated_options: z.array(z.number()),
});
