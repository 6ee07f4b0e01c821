/**
 * Runs bulk jobs (server/accounts/bulk.ts) a chunk at a time, each chunk one transaction with its
 * ledger entries, its results and the job's cursor. One process runs a job at a time (a lease in
 * job_locks); a job left running by a process that stopped is taken up again by `resume` (the
 * scheduler's `resume-bulk-jobs`), from its cursor: a committed chunk is never applied again.
 */
import type { Kysely } from 'kysely';
import { failJob, runChunk } from '../accounts/bulk';
import type { Database } from '../db/schema';
import { DomainError } from '../errors';
import { Provisioners } from '../provisioning';
import { acquireLease, releaseLease } from './scheduler';

const LEASE_MS = 60_000;
/** Accounts per chunk: one transaction's worth, short enough not to hold the database long. */
export const BULK_CHUNK_ROWS = 250;

export class BulkJobRunner {
  private static readonly registry = new WeakMap<Kysely<Database>, BulkJobRunner>();
  private readonly running = new Map<number, Promise<void>>();
  private stopping = false;
  chunkRows = BULK_CHUNK_ROWS;
  /** Tests: stop a run after this many chunks, as a process that dies between two chunks would. */
  stopAfterChunks: number | null = null;

  private constructor(private readonly db: Kysely<Database>) {}

  static of(db: Kysely<Database>): BulkJobRunner {
    let runner = BulkJobRunner.registry.get(db);
    if (!runner) {
      runner = new BulkJobRunner(db);
      BulkJobRunner.registry.set(db, runner);
    }
    return runner;
  }

  /** Runs the job in the background (once per process at a time). */
  start(jobId: number): void {
    if (this.stopping || this.running.has(jobId)) return;
    const run = this.run(jobId)
      .catch(() => {})
      .finally(() => this.running.delete(jobId));
    this.running.set(jobId, run);
  }

  /** Runs the job's remaining chunks now, unless another process holds it. */
  async run(jobId: number): Promise<void> {
    const lease = `bulk-job:${jobId}`;
    if (!(await acquireLease(this.db, lease, LEASE_MS))) return;
    const kind = await this.db.selectFrom('bulk_jobs').select('action').where('id', '=', jobId).executeTakeFirst();
    const provisioners = Provisioners.of(this.db);
    try {
      for (let chunks = 0; !this.stopping; chunks++) {
        if (this.stopAfterChunks !== null && chunks >= this.stopAfterChunks) return;
        const outcome = await provisioners.outcome(kind?.action === 'renew' ? 'bulk_renew' : 'bulk_status', null);
        const done = await outcome.transact(async (trx) => {
          const applied = await runChunk(trx, jobId, this.chunkRows, outcome.now);
          if (applied && kind?.action !== 'message') outcome.mirror(applied.changed);
          return applied;
        });
        if (!done) return;
        await acquireLease(this.db, lease, LEASE_MS);
      }
    } catch (error) {
      // A refusal that will not pass by itself (the caller's branch stopped): the job stops, its
      // committed chunks stay. Anything else (the database went away) leaves it running for a resume.
      if (error instanceof DomainError) await failJob(this.db, jobId, error.message);
    } finally {
      await releaseLease(this.db, lease);
    }
  }

  /** Takes up every job left running (after a restart). */
  async resume(): Promise<void> {
    const jobs = await this.db.selectFrom('bulk_jobs').select('id').where('status', '=', 'running').orderBy('id').execute();
    for (const { id } of jobs) if (!this.running.has(id)) await this.run(id);
  }

  /** Resolves when the runs started here have ended. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /** Ends the runs after their current chunk (the API's shutdown); the jobs stay running for a resume. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }
}
