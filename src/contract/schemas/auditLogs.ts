/** The audit log as the admin reads it: entries, the list's pagination, the stats. */
import { z } from 'zod';
import { listMetaSchema } from './common';

export const auditLogSchema = z.object({
  id: z.number(),
  module: z.string(),
  action: z.string(),
  user_id: z.number().nullable(),
  username: z.string().nullable(),
  target_username: z.string().nullable(),
  entity_id: z.number().nullable(),
  description: z.string().nullable(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The values before and after, as recorded (secrets redacted); null when none apply. */
  old_values: z.unknown().nullable(),
  new_values: z.unknown().nullable(),
  created_at: z.string(),
  /** The API token the user acted with (`cpt_… name`); null for a signed-in session. */
  api_token: z.string().nullable(),
  /** The parent who acted as `username` through a view-as session. */
  viewer_username: z.string().nullable().optional(),
});
export type AuditLog = z.infer<typeof auditLogSchema>;

/** GET /audit-logs answers { data, pagination } (docs/api.md#lists). */
export const auditPaginationSchema = listMetaSchema;

export const auditStatsSchema = z.object({
  total_logs: z.number(),
  by_module: z.array(z.object({ module: z.string(), count: z.number() })),
  by_action: z.array(z.object({ action: z.string(), count: z.number() })),
  by_date: z.array(z.object({ date: z.string(), count: z.number() })),
  /** Entries written today (UTC): the Recent Activity card. */
  today: z.number(),
});
export type AuditStats = z.infer<typeof auditStatsSchema>;
