/**
 * Idempotency-Key for the calls that spend credits on accounts (DESIGN.md, ledger rule 5): the same
 * key and body replay the first answer; the same key with another body is refused. The key is stored
 * in the same transaction as the move, so a move and its key commit together or not at all.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { HIERARCHY } from '../../src/contract';
import type { Database } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import { fieldError } from '../http/errors';

export interface Outcome<T = unknown> {
  status: number;
  body: T;
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed: idempotency_keys/.test(e?.message ?? '');
};

function keyOf(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = (Array.isArray(raw) ? raw[0] : raw).trim();
  if (key.length < 1 || key.length > 255) throw fieldError('idempotency_key', HIERARCHY.idempotencyKeyInvalid);
  return key;
}

const hashOf = (request: FastifyRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url} ${JSON.stringify(request.params ?? {})} ${JSON.stringify(request.body ?? null)}`)
    .digest('hex');

async function stored(db: Kysely<Database>, actorId: number, key: string, hash: string): Promise<Outcome | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response_body'])
    .where('actor_id', '=', actorId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return null;
  if (row.request_hash !== hash) throw fieldError('idempotency_key', HIERARCHY.idempotencyMismatch);
  return { status: row.status_code, body: JSON.parse(row.response_body) };
}

/** Runs `fn` in one transaction, under the request's Idempotency-Key when it sends one. */
export async function idempotent<T>(
  db: Kysely<Database>,
  request: FastifyRequest,
  actorId: number,
  fn: (trx: Transaction<Database>) => Promise<Outcome<T>>,
): Promise<Outcome<T>> {
  const key = keyOf(request);
  if (!key) return inTransaction(db, fn);
  const hash = hashOf(request);
  try {
    return await inTransaction(db, async (trx) => {
      const replay = await stored(trx, actorId, key, hash);
      if (replay) return replay as Outcome<T>;
      const outcome = await fn(trx);
      await trx
        .insertInto('idempotency_keys')
        .values({ actor_id: actorId, key, request_hash: hash, status_code: outcome.status, response_body: JSON.stringify(outcome.body), created_at: nowIso() })
        .execute();
      return outcome;
    });
  } catch (error) {
    // A concurrent request with the same key committed first: answer as it did.
    if (!isUniqueViolation(error)) throw error;
    const replay = await stored(db, actorId, key, hash);
    if (!replay) throw error;
    return replay as Outcome<T>;
  }
}
