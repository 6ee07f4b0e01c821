/**
 * How every credit call runs: an Idempotency-Key replay check, the per-actor rate limit, then one
 * database transaction that does the move and stores the answer under the key (decisions file).
 * - same key + same request: the first status and body again, nothing moves;
 * - same key + another request: 422 errors.idempotency_key;
 * - a failed call stores nothing: it moved nothing, so the key stays free for a retry.
 * A replay does nothing else: no rate-limit hit, no transaction (the pre-checks, read beside the
 * replay lookup, are set aside).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Insertable, Transaction } from 'kysely';
import { ACCOUNTS, CREDITS, HIERARCHY } from '../../src/contract';
import { AUDIT_BATCH, type AuditRow, auditRowOf, deferAudits, singleAuditValues, takeDeferredAudits, writeAudits } from '../audit';
import { isPostgres } from '../db/dialect';
import { prepared } from '../db/prepared';
import type { Database, IdempotencyKeysTable, UserRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import { DomainError, fieldError, tooManyRequests } from '../errors';
import { hit, releaseHit } from '../http/rateLimit';
import { assertBranchActive } from '../hierarchy/branch';

export interface OperationResult {
  status: number;
  body: unknown;
}

const RATE_WINDOW_MS = 60_000;

const insertKey = prepared((db, actorId: number, key: string, requestHash: string, statusCode: number, responseBody: string, createdAt: string) =>
  db
    .insertInto('idempotency_keys')
    .values({ actor_id: actorId, key, request_hash: requestHash, status_code: statusCode, response_body: responseBody, created_at: createdAt }),
);

// PostgreSQL: a move's audit entry and its answer, one statement compiled once.
const auditAndKey = prepared((db, actorId: number, key: string, requestHash: string, statusCode: number, responseBody: string, createdAt: string, ...audit: unknown[]) =>
  db
    .with('audit', (d) => d.insertInto('audit_logs').values(auditRowOf(audit)))
    .insertInto('idempotency_keys')
    .values({ actor_id: actorId, key, request_hash: requestHash, status_code: statusCode, response_body: responseBody, created_at: createdAt }),
);

const storedKey = prepared((db, actorId: number, key: string) => db.selectFrom('idempotency_keys').selectAll().where('actor_id', '=', actorId).where('key', '=', key));

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

function idempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || key.length > 255) throw fieldError('idempotency_key', HIERARCHY.idempotencyKeyInvalid);
  return key;
}

const rateKey = (actor: Pick<UserRow, 'id'>) => `credit-ops:${actor.id}`;

export async function rateLimitCredits(app: FastifyInstance, actor: UserRow): Promise<void> {
  const state = await hit(app.db.kysely, rateKey(actor), { max: app.config.creditOpsPerMinute, windowMs: RATE_WINDOW_MS });
  if (state.exceeded) {
    throw new DomainError('invalid', CREDITS.rateLimit.description, { rate_limit: [CREDITS.rateLimit.description] }, state.retryAfter);
  }
}

/**
 * Account changes that write the middleware without moving credits (status toggles, edits, device
 * resets, deletes, accounts created without months) have a per-actor limit of their own, as many per
 * minute as credit operations: a loop on one of them cannot keep a server's middleware busy for
 * everyone. Counted before the middleware is called; 429 with Retry-After past it.
 */
export async function rateLimitMiddlewareWrites(app: FastifyInstance, actor: Pick<UserRow, 'id'>): Promise<void> {
  const state = await hit(app.db.kysely, `middleware-writes:${actor.id}`, { max: app.config.creditOpsPerMinute, windowMs: RATE_WINDOW_MS });
  if (state.exceeded) throw tooManyRequests(ACCOUNTS.middlewareWriteRateLimit, state.retryAfter);
}

/** What a credit call does: checks that read no locked state, then the move in one transaction. */
export interface CreditOperation<P> {
  /**
   * Pre-checks (scope, form rules, uniqueness) that only read. They run beside the replay lookup,
   * and count only when the key is new: a retry of a call that succeeded must get its first answer,
   * not a refusal caused by its own effect.
   */
  prepare?: () => Promise<P>;
  run: (trx: Transaction<Database>, prepared: P) => Promise<OperationResult>;
  /**
   * How the move's transaction is run, when not as a plain transaction: an operation that writes a
   * middleware runs it as one outcome with the middleware (server/provisioning/journal.ts).
   */
  transact?: <T>(work: (trx: Transaction<Database>) => Promise<T>) => Promise<T>;
}

/**
 * The last writes of a credit operation: its audit rows and the answer under its key. The key is
 * written last: a concurrent twin that got here first holds it (uncommitted), so this insert waits
 * for it and then fails as a duplicate, which rolls this move back and replays the twin's answer.
 * On PostgreSQL both are one statement.
 */
async function storeAnswer(trx: Transaction<Database>, audits: AuditRow[], answer: Insertable<IdempotencyKeysTable> | null): Promise<void> {
  const single = singleAuditValues(audits);
  if (answer && single && isPostgres(trx)) {
    await auditAndKey(trx, answer.actor_id, answer.key, answer.request_hash, answer.status_code, answer.response_body, answer.created_at, ...single);
    return;
  }
  if (answer && audits.length > 0 && audits.length <= AUDIT_BATCH && isPostgres(trx)) {
    await trx
      .with('audit', (db) => db.insertInto('audit_logs').values(audits))
      .insertInto('idempotency_keys')
      .values(answer)
      .execute();
    return;
  }
  await writeAudits(trx, audits);
  if (answer) await insertKey(trx, answer.actor_id, answer.key, answer.request_hash, answer.status_code, answer.response_body, answer.created_at);
}

/**
 * Runs a credit move under the idempotency and rate-limit rules and sends its answer. It resolves to
 * nothing (never to the reply, which is a thenable): once it returns, the answer has been sent.
 * Order: the replay lookup and the pre-checks (a replay is answered, whatever the pre-checks found,
 * and costs no rate-limit hit), then the rate limit, and the transaction that moves and stores its
 * answer under the key.
 */
export async function runCreditOperation<P = void>(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  actor: UserRow,
  operation: CreditOperation<P> | CreditOperation<P>['run'],
): Promise<void> {
  const { prepare, run, transact } = typeof operation === 'function' ? { prepare: undefined, run: operation, transact: undefined } : operation;
  const db = app.db.kysely;
  const key = idempotencyKey(request);
  const requestHash = createHash('sha256')
    .update(`${request.method} ${request.url}\n${canonical(request.body)}`)
    .digest('hex');

  /** The stored answer of this key, or null; the same key with another request is refused. */
  const storedAnswer = async (): Promise<OperationResult | null> => {
    if (!key) return null;
    const [stored] = await storedKey(db, actor.id, key);
    if (!stored) return null;
    if (stored.request_hash !== requestHash) throw fieldError('idempotency_key', HIERARCHY.idempotencyMismatch);
    return { status: stored.status_code, body: JSON.parse(stored.response_body) };
  };
  const send = (answer: OperationResult, replayed: boolean): void => {
    if (replayed) reply.header('idempotent-replayed', 'true');
    reply.code(answer.status).send(answer.body);
  };

  const checked: Promise<{ prepared: P } | { refused: unknown }> = prepare
    ? prepare().then(
        (prepared) => ({ prepared }),
        (refused: unknown) => ({ refused }),
      )
    : Promise.resolve({ prepared: undefined as P });
  const [seen, check] = await Promise.all([storedAnswer(), checked]);
  if (seen) return send(seen, true);

  let counted = false;
  let result: OperationResult;
  try {
    if ('refused' in check) throw check.refused;
    const { prepared } = check;
    counted = true; // hit() counts even when it refuses
    await rateLimitCredits(app, actor);
    const inOne = transact ?? (<T>(work: (trx: Transaction<Database>) => Promise<T>) => inTransaction(db, work));
    result = await inOne(async (trx) => {
      deferAudits(trx);
      // The actor's branch may have stopped since the request was let in: checked again with the
      // actor's row locked, so a suspension above either waits for this move or is seen by it.
      await assertBranchActive(trx, actor);
      const out = await run(trx, prepared);
      await storeAnswer(
        trx,
        takeDeferredAudits(trx),
        key ? { actor_id: actor.id, key, request_hash: requestHash, status_code: out.status, response_body: JSON.stringify(out.body), created_at: nowIso() } : null,
      );
      return out;
    });
  } catch (error) {
    // A concurrent twin that committed first (seen here as a unique violation, or as a pre-check
    // that its effect made false) owns the answer: replay it, and this call was no operation.
    const twin = key ? await storedAnswer() : null;
    if (!twin) throw error;
    if (counted) await releaseHit(db, rateKey(actor));
    return send(twin, true);
  }
  return send(result, false);
}
