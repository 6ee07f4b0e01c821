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
  credits: z.preprocess(
    integerInput,
    z.number({ error: CREDITS.selectAmount }).int(CREDITS.selectAmount).positive(CREDITS.selectAmount).max(1_000_000, CREDITS.selectAmount),
  ),
  /** The bonus the dialog showed; refused when it differs from the server's. */
  bonus_credits: z.preprocess(
    integerInput,
    z.number({ error: CREDITS.promoCredits }).int(CREDITS.promoCredits).min(0, CREDITS.promoCredits).max(1_000_000, CREDITS.promoCredits).nullish(),
  ),
});
export type CreditMoveBody = z.infer<typeof creditMoveBody>;

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
