/** The analytics page (admin): what each figure endpoint answers. */
import { z } from 'zod';

export const ANALYTICS_ROLES = ['manager', 'reseller', 'dealer'] as const;
export const EXPIRY_WINDOWS = [7, 30, 90] as const;
/** The longest range one analytics request reads: ten years, a chart of 120 months. */
export const ANALYTICS_MAX_RANGE_DAYS = 3653;

/** Credits received per month by each role level (PURCHASED entries: allocations and bonus). */
export const creditsFlowSchema = z.array(z.object({ period: z.string(), role: z.enum(ANALYTICS_ROLES), credits: z.number(), entries: z.number() }));
export type CreditsFlowPoint = z.infer<typeof creditsFlowSchema>[number];

/** Paid renewals and new accounts per month. */
export const renewalsSchema = z.array(z.object({ period: z.string(), renewals: z.number(), credits: z.number(), new_accounts: z.number() }));
export type RenewalsPoint = z.infer<typeof renewalsSchema>[number];

export const expiringAccountSchema = z.object({
  id: z.number(),
  login: z.string(),
  full_name: z.string(),
  expiry_date: z.string(),
  owner: z.object({ id: z.number(), username: z.string(), role: z.string() }),
});
export type ExpiringAccount = z.infer<typeof expiringAccountSchema>;

export const expiringSchema = z.object({
  /** Accounts expiring within 7, 30 and 90 days from now. */
  counts: z.object({ days_7: z.number(), days_30: z.number(), days_90: z.number() }),
  /** The soonest of the requested window, up to the limit. */
  accounts: z.array(expiringAccountSchema),
});
export type ExpiringReport = z.infer<typeof expiringSchema>;

export const topUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  username: z.string(),
  role: z.string(),
  /** Credits spent in the range: given down the hierarchy and paid for renewals. */
  credits_spent: z.number(),
  renewals: z.number(),
});
export type TopUser = z.infer<typeof topUserSchema>;
