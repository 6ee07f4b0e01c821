/**
 * The audit trail: who did what to which record, from where, with the values before and after.
 * Handlers record what they did with recordAudit; auditTrail records any successful mutation of the
 * API that did not, so every change leaves an entry. Entries are append-only (migrations 0006/0008).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Insertable, Kysely } from 'kysely';
import { prepared } from './db/prepared';
import type { AuditLogsTable, Database } from './db/schema';
import { nowIso } from './db/values';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request has written its audit entry. */
    auditRecorded?: boolean;
  }
}

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
  await recordAudits(db, request, [entry]);
}

/** Rows per INSERT: well under the bound-parameter limits of SQLite and PostgreSQL. */
export const AUDIT_BATCH = 500;

export type AuditRow = Insertable<AuditLogsTable>;

/**
 * Transactions whose audit rows are held back and written by whoever deferred them, with their own
 * last statement (a credit operation writes them with its idempotency answer: one round trip).
 */
const deferred = new WeakMap<Kysely<Database>, AuditRow[]>();

export function deferAudits(trx: Kysely<Database>): void {
  deferred.set(trx, []);
}

/** The rows held back in `trx` since deferAudits; they are the caller's to write now. */
export function takeDeferredAudits(trx: Kysely<Database>): AuditRow[] {
  const rows = deferred.get(trx) ?? [];
  deferred.delete(trx);
  return rows;
}

/** The columns an entry sets (recordAudits sets each of them). */
const AUDIT_COLUMNS = [
  'module',
  'action',
  'user_id',
  'username',
  'target_username',
  'entity_id',
  'description',
  'ip_address',
  'user_agent',
  'old_values',
  'new_values',
  'created_at',
  'api_token',
  'viewer_username',
] as const;

/** The row of one entry's column values, in AUDIT_COLUMNS order. */
export const auditRowOf = (values: unknown[]): AuditRow => Object.fromEntries(AUDIT_COLUMNS.map((column, i) => [column, values[i]])) as AuditRow;

/**
 * The column values of a lone entry that sets every column, the usual case, which compiled
 * statements take (server/db/prepared.ts); null for any other list of entries.
 */
export function singleAuditValues(rows: AuditRow[]): unknown[] | null {
  if (rows.length !== 1 || !AUDIT_COLUMNS.every((column) => rows[0][column] !== undefined)) return null;
  return AUDIT_COLUMNS.map((column) => rows[0][column]);
}

const insertAudit = prepared((db, ...values: unknown[]) => db.insertInto('audit_logs').values(auditRowOf(values)));

export async function writeAudits(db: Kysely<Database>, rows: AuditRow[]): Promise<void> {
  const single = singleAuditValues(rows);
  if (single) {
    await insertAudit(db, ...single);
    return;
  }
  for (let i = 0; i < rows.length; i += AUDIT_BATCH)
    await db
      .insertInto('audit_logs')
      .values(rows.slice(i, i + AUDIT_BATCH))
      .execute();
}

/** Several entries of one request (a bulk call) in as few statements as the batch size allows. */
export async function recordAudits(db: Kysely<Database>, request: FastifyRequest, entries: AuditEntry[]): Promise<void> {
  const userAgent = request.headers['user-agent'];
  const createdAt = nowIso();
  const rows: AuditRow[] = entries.map((entry) => ({
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
    created_at: createdAt,
    // The API token that acted, by its prefix and name (apiTokenGuard.ts).
    api_token: request.apiToken ? `${request.apiToken.prefix} ${request.apiToken.name}`.slice(0, 200) : null,
    // Acting through a view-as session: the entry names the user acted as and the parent who did.
    viewer_username: request.viewer?.username ?? null,
  }));
  const held = deferred.get(db);
  if (held) held.push(...rows);
  else await writeAudits(db, rows);
  if (rows.length > 0) request.auditRecorded = true;
}

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** POST routes that only compute an answer (price and option lookups): nothing changes, nothing to record. */
export const READ_ONLY_POSTS = new Set(['/api/v1/global-discounts/calculate-credits', '/api/v1/credit-options-settings/test']);

/**
 * The action of a mutation that recorded none itself: the route's last fixed path segment when it
 * names an operation ('/logout', '/accounts/:id/reset-device'), else what the method does.
 */
export function fallbackAction(method: string, url: string, resource: string | undefined): string {
  const fixed = url.split('/').filter((s) => s && !s.startsWith(':') && s !== 'api' && s !== 'v1');
  const last = fixed[fixed.length - 1];
  if (last && last !== resource) return last.replace(/-/g, '_');
  return method === 'POST' ? 'create' : method === 'DELETE' ? 'delete' : 'update';
}

/** Records every successful API mutation whose handler wrote no entry (replays of a stored answer excepted). */
export const auditTrail = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!MUTATIONS.has(request.method) || request.auditRecorded) return payload;
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api/') || READ_ONLY_POSTS.has(url)) return payload;
    if (reply.getHeader('idempotent-replayed') === 'true') return payload;
    const resource = request.routeOptions.config.access?.[0];
    const params = (request.params ?? {}) as Record<string, unknown>;
    const id = Number(params.id);
    const body = request.body && typeof request.body === 'object' ? request.body : undefined;
    try {
      await recordAudit(app.db.kysely, request, {
        module: (resource ?? 'auth').replace(/-/g, '_'),
        action: fallbackAction(request.method, url, resource),
        entityId: Number.isInteger(id) && id > 0 ? id : null,
        targetUsername: request.user?.username ?? null,
        description: `${request.method} ${url}`,
        newValues: body,
      });
    } catch (error) {
      // The change is made: its answer stands even when the trail could not be written.
      request.log.error({ err: error }, 'audit entry not written');
    }
    return payload;
  });
});
