/** The audit trail: who did what to which record, from where, with the values before and after. */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema';
import { nowIso } from './db/values';

export interface AuditEntry {
  module: string;
  action: string;
  entityId?: number | null;
  targetUsername?: string | null;
  description?: string | null;
  oldValues?: unknown;
  newValues?: unknown;
}

const SECRET_KEYS = /password|token|secret|db_password/i;

/** Secrets never reach the audit log. */
function redact(values: unknown): string | null {
  if (values === undefined || values === null) return null;
  return JSON.stringify(values, (key, value) => (key && SECRET_KEYS.test(key) ? '[redacted]' : value));
}

export async function recordAudit(db: Kysely<Database>, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  const userAgent = request.headers['user-agent'];
  await db
    .insertInto('audit_logs')
    .values({
      module: entry.module,
      action: entry.action,
      user_id: request.user?.id ?? null,
      username: request.user?.username ?? null,
      target_username: entry.targetUsername ?? null,
      entity_id: entry.entityId ?? null,
      description: entry.description ?? null,
      ip_address: request.ip ?? null,
      user_agent: typeof userAgent === 'string' ? userAgent.slice(0, 500) : null,
      old_values: redact(entry.oldValues),
      new_values: redact(entry.newValues),
      created_at: nowIso(),
    })
    .execute();
}
