/**
 * How every credit call runs: an Idempotency-Key replay check, the per-actor rate limit, then one
 * database transaction that does the move and stores the answer under the key (decisions file).
 * - same key + same request: the first status and body again, nothing moves;
 * - same key + another request: 422 errors.idempotency_key;
 * - a failed call stores nothing: it moved nothing, so the key stays free for a retry.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { CREDITS, HIERARCHY } from '../../src/contract';
import type { Database, UserRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import { ApiError, fieldError } from '../http/errors';
import { hit } from '../http/rateLimit';

export interface OperationResult {
  status: number;
  body: unknown;
}

const RATE_WINDOW_MS = 60_000;

/** JSON with object keys sorted, so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function idempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || key.length > 255) throw fieldError('idempotency_key', HIERARCHY.idempotencyKeyInvalid);
  return key;
}

export async function rateLimitCredits(app: FastifyInstance, actor: UserRow): Promise<void> {
  const state = await hit(app.db.kysely, `credit-ops:${actor.id}`, { max: app.config.creditOpsPerMinute, windowMs: RATE_WINDOW_MS });
  if (state.exceeded) {
    throw new ApiError(422, CREDITS.rateLimit.description, { rate_limit: [CREDITS.rateLimit.description] }, { 'retry-after': String(state.retryAfter) });
  }
}

/** Runs a credit move under the idempotency and rate-limit rules and sends its answer. */
export async function runCreditOperation(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  actor: UserRow,
  run: (trx: Transaction<Database>) => Promise<OperationResult>,
): Promise<FastifyReply> {
  const db = app.db.kysely;
  const key = idempotencyKey(request);
  const requestHash = createHash('sha256').update(`${request.method} ${request.url}\n${canonical(request.body)}`).digest('hex');

  const replay = async (): Promise<FastifyReply | null> => {
    if (!key) return null;
    const stored = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('actor_id', '=', actor.id)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!stored) return null;
    if (stored.request_hash !== requestHash) throw fieldError('idempotency_key', HIERARCHY.idempotencyMismatch);
    return reply.code(stored.status_code).header('idempotent-replayed', 'true').send(JSON.parse(stored.response_body));
  };

  const replayed = await replay();
  if (replayed) return replayed;
  await rateLimitCredits(app, actor);

  let result: OperationResult;
  try {
    result = await inTransaction(db, async (trx) => {
      if (key) {
        // Claimed first: a concurrent twin waits on this unique row and then replays the answer.
        await trx
          .insertInto('idempotency_keys')
          .values({ actor_id: actor.id, key, request_hash: requestHash, status_code: 0, response_body: '', created_at: nowIso() })
          .execute();
      }
      const out = await run(trx);
      if (key) {
        await trx
          .updateTable('idempotency_keys')
          .set({ status_code: out.status, response_body: JSON.stringify(out.body) })
          .where('actor_id', '=', actor.id)
          .where('key', '=', key)
          .execute();
      }
      return out;
    });
  } catch (error) {
    if (key && isUniqueViolation(error)) {
      const again = await replay();
      if (again) return again;
    }
    throw error;
  }
  return reply.code(result.status).send(result.body);
}
