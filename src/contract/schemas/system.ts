/** The public endpoints (health, the panel's configuration before sign-in) and the dashboard figures. */
import { z } from 'zod';
import { LEDGER_ENTRY_TYPES } from './hierarchy';
import { THEME_ALGORITHMS } from './themes';

export const healthEntity = z.object({ status: z.string(), database: z.string() });

/** The active theme as GET /config hands it to the panel: its name, slug and stored tokens. */
export const themeTokensEntity = z.object({
  name: z.string(),
  slug: z.string(),
  colorPrimary: z.string().optional(),
  colorBgLayout: z.string().optional(),
  borderRadius: z.number().optional(),
  algorithm: z.enum(THEME_ALGORITHMS).optional(),
});

export const publicConfigEntity = z.object({
  demo_mode: z.boolean(),
  demo_users: z.array(z.string()),
  maintenance_mode: z.boolean(),
  /** Whether trial accounts may be created now, and how long they last (every role's account form). */
  enable_trials: z.boolean(),
  trial_days: z.number(),
  theme: themeTokensEntity.nullable(),
});

/** GET /dashboard/stats: the figures of the caller's subtree; system_health and performance for admin only. */
export const dashboardStatsEntity = z.object({
  range: z.object({ from: z.string(), to: z.string() }),
  total_users: z.number(),
  active_users: z.number(),
  expired_users: z.number(),
  /** Live accounts expiring from now to EXPIRY_WARNING_DAYS ahead (the accounts list's expiry filter of that many days). */
  expiring_users: z.number(),
  /** Live trial accounts ending from now to TRIAL_ENDING_DAYS ahead (the accounts list's trial_ending filter). */
  trials_ending: z.number(),
  /** The caller's own members (its direct children) with fewer than LOW_CREDITS_THRESHOLD credits. */
  low_credit_members: z.number(),
  total_managers: z.number(),
  total_resellers: z.number(),
  total_dealers: z.number(),
  credits_sold: z.number(),
  monthly_revenue: z.number(),
  yearly_credits: z.array(z.object({ month: z.number(), credits: z.number() })),
  recent_transactions: z.array(
    z.object({
      id: z.number(),
      transaction_number: z.string(),
      type: z.enum(LEDGER_ENTRY_TYPES),
      credits: z.number(),
      remarks: z.string().nullable(),
      created_at: z.string(),
      date: z.string(),
      username: z.string(),
    }),
  ),
  /** The caller's own balance (null for admin, who holds none). */
  my_credits: z.number().nullable(),
  system_health: z.object({ database: z.string(), status: z.string(), uptime_seconds: z.number() }).optional(),
  performance: z.object({ db_query_ms: z.number(), memory_mb: z.number() }).optional(),
});
export type DashboardStats = z.infer<typeof dashboardStatsEntity>;
