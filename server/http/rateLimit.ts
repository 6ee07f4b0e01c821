/**
 * Fixed-window counters kept in the database, so every API process on one PostgreSQL shares them.
 * One atomic upsert per hit; no read-then-write race.
 */
import { type Kysely, sql } from 'kysely';
import { prepared } from '../db/prepared';
import type { Database } from '../db/schema';

export interface Limit {
  max: number;
  windowMs: number;
}

export interface LimitState {
  hits: number;
  /** Seconds until the window resets. */
  retryAfter: number;
  exceeded: boolean;
}

function state(row: { hits: number; window_start: number } | undefined, limit: Limit, now: number): LimitState {
  if (!row || Number(row.window_start) + limit.windowMs <= now) return { hits: 0, retryAfter: 0, exceeded: false };
  const retryAfter = Math.max(1, Math.ceil((Number(row.window_start) + limit.windowMs - now) / 1000));
  return { hits: row.hits, retryAfter, exceeded: row.hits >= limit.max };
}

/** Reads the counter without counting. */
export async function peek(db: Kysely<Database>, key: string, limit: Limit): Promise<LimitState> {
  const row = await db.selectFrom('rate_limits').selectAll().where('key', '=', key).executeTakeFirst();
  return state(row, limit, Date.now());
}

const counted = prepared((db, key: string, now: number, windowStartedBy: number) => {
  const expired = sql<boolean>`rate_limits.window_start <= ${windowStartedBy}`;
  return db
    .insertInto('rate_limits')
    .values({ key, window_start: now, hits: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql`case when ${expired} then 1 else rate_limits.hits + 1 end`,
        window_start: sql`case when ${expired} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning(['hits', 'window_start']);
});

/** Counts one hit and returns the state after it. */
export async function hit(db: Kysely<Database>, key: string, limit: Limit): Promise<LimitState> {
  const now = Date.now();
  const [row] = await counted(db, key, now, now - limit.windowMs);
  const s = state(row, limit, now);
  return { ...s, exceeded: row.hits > limit.max };
}

export const clearLimit = (db: Kysely<Database>, key: string) => db.deleteFrom('rate_limits').where('key', '=', key).execute();

/** Takes back one hit (an attempt that turned out not to count, such as a successful sign-in). */
export const releaseHit = (db: Kysely<Database>, key: string) =>
  db
    .updateTable('rate_limits')
    .set({ hits: sql`hits - 1` })
    .where('key', '=', key)
    .where('hits', '>', 0)
    .execute();
