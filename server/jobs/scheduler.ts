/**
 * Periodic jobs. When several API processes share one PostgreSQL, a lease row in job_locks makes
 * sure one process at a time runs a given job; the lease expires if its holder dies.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

const processId = randomUUID();

/** Takes the named lease for `ttlMs` if it is free or expired; true when this process holds it. */
export async function acquireLease(db: Kysely<Database>, name: string, ttlMs: number, owner = processId): Promise<boolean> {
  const now = Date.now();
  const row = await db
    .insertInto('job_locks')
    .values({ name, owner, locked_until: now + ttlMs })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ owner, locked_until: now + ttlMs })
        .where(sql<boolean>`job_locks.locked_until <= ${now} or job_locks.owner = ${owner}`),
    )
    .returning('owner')
    .executeTakeFirst();
  return row?.owner === owner;
}

export async function releaseLease(db: Kysely<Database>, name: string, owner = processId): Promise<void> {
  await db.deleteFrom('job_locks').where('name', '=', name).where('owner', '=', owner).execute();
}

export interface Job {
  name: string;
  everyMs: number;
  run: (db: Kysely<Database>) => Promise<void>;
}

/** Runs a job once under its lease; returns false when another process holds it. */
export async function runExclusive(db: Kysely<Database>, job: Job, owner = processId): Promise<boolean> {
  if (!(await acquireLease(db, job.name, Math.max(job.everyMs, 60_000), owner))) return false;
  try {
    await job.run(db);
  } finally {
    await releaseLease(db, job.name, owner);
  }
  return true;
}

/** Starts every job on its interval; returns a function that stops them. */
export function startJobs(db: Kysely<Database>, jobs: Job[], onError: (job: Job, error: unknown) => void): () => void {
  const timers = jobs.map((job) =>
    setInterval(() => {
      runExclusive(db, job).catch((error) => onError(job, error));
    }, job.everyMs),
  );
  for (const t of timers) t.unref();
  return () => timers.forEach(clearInterval);
}
