/**
 * One outcome for a panel change and its middleware change (docs/middleware.md, "One outcome").
 *
 * 1. Rehearsal: the panel's work runs in a transaction that is rolled back; it validates everything
 *    (scope, prices, the balance) and shows what the middleware must hold afterwards (the plan). A
 *    change that touches no middleware commits there and then, as any other transaction.
 * 2. Journal: the plan is written as a `pending` row, with a claim per account (and per MAC and
 *    login on its server), and committed: from here a crash leaves a trace.
 * 3. The middleware call, outside any panel transaction: a slow middleware holds no panel lock and
 *    no pool connection.
 * 4. The work runs again in one transaction with the same clock; it must come to the same plan, and
 *    it marks the row `done` with the change, the charge and the Idempotency-Key's answer.
 * 5. Anything that fails after step 2 compensates: the middleware is made to match what the panel
 *    committed for those accounts (a subscriber the panel has no live account for is removed) and
 *    the row becomes `compensated`. A compensation that fails, or a process that died, leaves the
 *    row pending; the settle worker (every second, and at start-up) takes rows whose lease expired
 *    and compensates them, with backoff, until it succeeds.
 *
 * The lease on a row is held by the process running the operation (renewed by a heartbeat), so
 * the worker of another process never compensates an operation still in flight; the `done` mark
 * is conditional on still holding it.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { ACCOUNTS, formatMac } from '../../src/contract';
import type { Database } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import { conflict } from '../errors';
import type { Provisioners } from './index';
import { type MirroredAccount, isUnapplied } from './types';

/** How long a row's lease lasts without a heartbeat: a dead process's rows are settled after this. */
export const LEASE_MS = 4000;
const HEARTBEAT_MS = 1000;
/** The settle worker's period. */
export const SETTLE_EVERY_MS = 1000;
/** Settled rows are kept this long (for an operator's questions), then pruned by the worker. */
export const KEEP_SETTLED_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Backoff of a failed compensation: doubling from 1 s, at most a minute. */
const backoff = (attempts: number) => Math.min(60_000, 1000 * 2 ** Math.min(attempts, 6));
/** How long a retry with the same Idempotency-Key waits for its first attempt still in flight. */
const TWIN_WAIT_MS = 2 * LEASE_MS;

const processId = randomUUID();

/** One account the middleware must hold as planned (push) or no longer hold (remove). */
export interface PlanEntry {
  server_id: number;
  account: MirroredAccount;
  /** Created by this change: it has no committed panel row, its id is not yet settled. */
  fresh: boolean;
}
export interface Plan {
  push: PlanEntry[];
  remove: PlanEntry[];
}

export type JournalKind = 'create' | 'renew' | 'recover' | 'bulk_renew' | 'auto_renew' | 'update' | 'status' | 'bulk_status' | 'delete';

export type CrashStep = 'journal-written' | 'middleware-written' | 'before-commit' | 'after-commit';

/**
 * Fault injection for the crash tests (tests/server/middleware-crash.test.ts): with
 * MIDDLEWARE_CRASH_AT=KIND:STEP (e.g. `renew:middleware-written`) the process kills itself at that
 * step of that kind of change, as a power cut would. Never honoured in production.
 */
function crashPoint(kind: JournalKind, step: CrashStep): void {
  if (process.env.NODE_ENV !== 'production' && process.env.MIDDLEWARE_CRASH_AT === `${kind}:${step}`) process.kill(process.pid, 'SIGKILL');
}

const MIRRORED = ['a.id', 'a.server_id', 'a.middleware_id', 'a.login', 'a.full_name', 'a.pwd_txt', 'a.mac_address', 'a.status', 'a.expiry_date'] as const;
const macKey = (entry: PlanEntry) => `${entry.server_id}:${formatMac(entry.account.mac_address)}`;

/** What must be equal in the rehearsal's plan and the real run's: every mirrored field, not the ids a fresh row got. */
function planSignature(plan: Plan): string {
  const view = (e: PlanEntry) => {
    const { middleware_id: _, id, ...fields } = e.account;
    return [e.server_id, e.fresh ? null : id, fields];
  };
  const sorted = (entries: PlanEntry[]) => entries.map(view).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return JSON.stringify([sorted(plan.push), sorted(plan.remove)]);
}

/** The claims that keep two changes of one subscriber from interleaving. */
function claimsOf(plan: Plan): string[] {
  const claims = new Set<string>();
  for (const e of [...plan.push, ...plan.remove]) {
    if (!e.fresh) claims.add(`account:${e.account.id}`);
    claims.add(`mac:${macKey(e)}`);
    if (e.account.login) claims.add(`login:${e.server_id}:${e.account.login}`);
  }
  return [...claims];
}

/** Rows of this process still in flight: their leases are renewed until they are settled. */
const inFlight = new Map<Kysely<Database>, Set<number>>();
let heartbeat: NodeJS.Timeout | null = null;

function hold(db: Kysely<Database>, id: number): void {
  if (!inFlight.has(db)) inFlight.set(db, new Set());
  inFlight.get(db)!.add(id);
  heartbeat ??= setInterval(() => {
    for (const [q, ids] of inFlight) {
      if (ids.size === 0) continue;
      void q
        .updateTable('middleware_journal')
        .set({ lease_until: Date.now() + LEASE_MS })
        .where('id', 'in', [...ids])
        .where('lease_owner', '=', processId)
        .where('status', '=', 'pending')
        .execute()
        .catch(() => {});
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
}

function letGo(db: Kysely<Database>, id: number): void {
  const ids = inFlight.get(db);
  ids?.delete(id);
  if (ids?.size === 0) inFlight.delete(db);
  if (inFlight.size === 0 && heartbeat) {
    clearInterval(heartbeat);
    heartbeat = null;
  }
}

/** Takes a pending row's lease when it is free (expired); true when this process now holds it. */
async function takeLease(db: Kysely<Database>, id: number): Promise<boolean> {
  const now = Date.now();
  const taken = await db
    .updateTable('middleware_journal')
    .set({ lease_owner: processId, lease_until: now + LEASE_MS })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('lease_until', '<=', now)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

async function closeRow(q: Kysely<Database>, id: number, status: 'done' | 'compensated'): Promise<boolean> {
  const closed = await q
    .updateTable('middleware_journal')
    .set({ status, settled_at: nowIso(), lease_owner: null, last_error: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('lease_owner', '=', processId)
    .executeTakeFirst();
  if (Number(closed.numUpdatedRows) !== 1) return false;
  await q.deleteFrom('middleware_claims').where('journal_id', '=', id).execute();
  return true;
}

/** The journal of a panel database: opening rows, settling them, the worker's pass. */
export class MiddlewareJournal {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly provisioners: Provisioners,
  ) {}

  /**
   * Makes the middleware of a row's accounts match what the panel committed for them, and closes
   * the row as compensated. The caller holds the row's lease. Throws when a middleware cannot be
   * reached; the row then stays pending and the worker tries again after a backoff.
   */
  async compensate(id: number): Promise<void> {
    const row = await this.db.selectFrom('middleware_journal').select(['plan', 'status', 'attempts']).where('id', '=', id).executeTakeFirst();
    if (!row || row.status !== 'pending') return;
    const plan = JSON.parse(row.plan) as Plan;
    try {
      for (const entry of [...plan.push, ...plan.remove]) {
        let q = this.db.selectFrom('accounts as a').select(MIRRORED).where('a.server_id', '=', entry.server_id).where('a.deleted_at', 'is', null);
        q = entry.fresh ? q.where('a.mac_address', '=', entry.account.mac_address) : q.where('a.id', '=', entry.account.id);
        const live = await q.executeTakeFirst();
        const provisioner = await this.provisioners.forServer(entry.server_id);
        if (live) {
          const pushed = await provisioner.push([live]);
          const middlewareId = pushed.ids.get(live.id);
          if (middlewareId !== undefined && middlewareId !== live.middleware_id) {
            await this.db.updateTable('accounts').set({ middleware_id: middlewareId }).where('id', '=', live.id).execute();
          }
        } else {
          await provisioner.remove(entry.account);
        }
      }
    } catch (error) {
      const attempts = row.attempts + 1;
      await this.db
        .updateTable('middleware_journal')
        .set({ attempts, last_error: String((error as Error)?.message ?? error).slice(0, 500), lease_owner: null, lease_until: Date.now() + backoff(attempts) })
        .where('id', '=', id)
        .where('lease_owner', '=', processId)
        .execute();
      throw error;
    }
    await closeRow(this.db, id, 'compensated');
  }

  private prunedAt = 0;

  /** One pass of the settle worker: every pending row whose lease expired (a dead process's, a failed compensation's). */
  async settlePending(limit = 50): Promise<{ settled: number; failed: number }> {
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.db
        .deleteFrom('middleware_journal')
        .where('status', '!=', 'pending')
        .where('settled_at', '<', new Date(Date.now() - KEEP_SETTLED_MS).toISOString())
        .execute();
    }
    const due = await this.db
      .selectFrom('middleware_journal')
      .select('id')
      .where('status', '=', 'pending')
      .where('lease_until', '<=', Date.now())
      .orderBy('id')
      .limit(limit)
      .execute();
    let settled = 0;
    let failed = 0;
    for (const { id } of due) {
      if (!(await takeLease(this.db, id))) continue;
      try {
        await this.compensate(id);
        settled += 1;
      } catch {
        failed += 1;
      }
      letGo(this.db, id);
    }
    return { settled, failed };
  }

  /**
   * Settles what a first attempt with this Idempotency-Key left pending, so that its retry starts
   * from agreeing databases (and never finds its own orphan "already used"). A first attempt still
   * in flight in a live process is waited for, briefly; then the retry is refused with 409.
   */
  async settleKey(actorId: number, key: string): Promise<void> {
    const deadline = Date.now() + TWIN_WAIT_MS;
    for (;;) {
      const pending = await this.db
        .selectFrom('middleware_journal')
        .select(['id', 'lease_until'])
        .where('actor_id', '=', actorId)
        .where('idempotency_key', '=', key)
        .where('status', '=', 'pending')
        .execute();
      if (pending.length === 0) return;
      let waiting = false;
      for (const row of pending) {
        if (await takeLease(this.db, row.id)) {
          try {
            await this.compensate(row.id);
          } finally {
            letGo(this.db, row.id);
          }
        } else waiting = true;
      }
      if (!waiting) return;
      if (Date.now() > deadline) throw conflict(ACCOUNTS.middlewareBusy);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Writes and commits the pending row and its claims; 409 when another change holds one. */
  async open(kind: JournalKind, actorId: number | null, key: string | null, plan: Plan): Promise<number> {
    const claims = claimsOf(plan);
    try {
      const id = await inTransaction(this.db, async (trx) => {
        const { id } = await trx
          .insertInto('middleware_journal')
          .values({
            kind,
            actor_id: actorId,
            idempotency_key: key,
            plan: JSON.stringify(plan),
            status: 'pending',
            lease_owner: processId,
            lease_until: Date.now() + LEASE_MS,
            created_at: nowIso(),
            last_error: null,
            settled_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('middleware_claims')
          .values(claims.map((claim) => ({ claim, journal_id: id })))
          .execute();
        return id;
      });
      hold(this.db, id);
      return id;
    } catch (error) {
      const held = await this.db.selectFrom('middleware_claims').select('journal_id').where('claim', 'in', claims).executeTakeFirst();
      if (!held) throw error;
      // A concurrent twin (same caller, same key) holds it: once it is settled, the credit
      // operation replays its answer instead of this 409.
      if (key !== null) await this.awaitTwin(held.journal_id, actorId, key);
      throw conflict(ACCOUNTS.middlewareBusy);
    }
  }

  private async awaitTwin(id: number, actorId: number | null, key: string): Promise<void> {
    const deadline = Date.now() + TWIN_WAIT_MS;
    for (;;) {
      const row = await this.db.selectFrom('middleware_journal').select(['status', 'actor_id', 'idempotency_key']).where('id', '=', id).executeTakeFirst();
      if (!row || row.actor_id !== actorId || row.idempotency_key !== key || row.status !== 'pending' || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Carries a plan to the middleware: the subscriber id of each pushed account, by server and MAC. */
  async apply(plan: Plan): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    let wrote = false;
    try {
      for (const entry of plan.remove) {
        await (await this.provisioners.forServer(entry.server_id)).remove(entry.account);
        wrote = true;
      }
      const byServer = new Map<number, PlanEntry[]>();
      for (const entry of plan.push) byServer.set(entry.server_id, [...(byServer.get(entry.server_id) ?? []), entry]);
      for (const [serverId, entries] of byServer) {
        const pushed = await (await this.provisioners.forServer(serverId)).push(entries.map((e) => e.account));
        wrote = true;
        for (const entry of entries) {
          const id = pushed.ids.get(entry.account.id);
          if (id !== undefined) ids.set(macKey(entry), id);
        }
      }
    } catch (error) {
      throw !wrote && isUnapplied(error) ? new NothingApplied(error) : error;
    }
    return ids;
  }

  /** Closes a row whose plan changed nothing in any middleware: nothing to put back, no claim kept. */
  abandon(id: number): Promise<boolean> {
    return closeRow(this.db, id, 'compensated');
  }

  /** Marks the row done in the transaction of the panel's change; false when this process no longer holds it. */
  done(trx: Transaction<Database>, id: number): Promise<boolean> {
    return closeRow(trx, id, 'done');
  }

  release(id: number): void {
    letGo(this.db, id);
  }
}

const REHEARSED = Symbol('rehearsed');

/** The plan's first middleware write failed having changed nothing (see isUnapplied). */
class NothingApplied extends Error {
  constructor(readonly failure: unknown) {
    super('the middleware write changed nothing');
  }
}

/**
 * One panel change that may write the middleware of its accounts' servers. The work marks the
 * accounts whose subscribers must follow it (mirror) or go (unmirror), and takes its clock from
 * `now`: it runs twice (rehearsal, then for real) and must come to the same result both times.
 */
export class Outcome {
  readonly now = new Date();
  private pushIds = new Map<number, boolean>();
  private removals: Array<{ server_id: number | null; account: MirroredAccount }> = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly journal: MiddlewareJournal,
    private readonly kind: JournalKind,
    private readonly actorId: number | null,
    private readonly key: string | null,
  ) {}

  /** The middleware must hold these accounts as the transaction has them at the end of the work. */
  mirror(ids: number[], options: { fresh?: boolean } = {}): void {
    for (const id of ids) this.pushIds.set(id, options.fresh ?? false);
  }

  /** The account's subscriber leaves this server's middleware (a delete, or a move to another server). */
  unmirror(account: MirroredAccount & { server_id: number | null }): void {
    this.removals.push({ server_id: account.server_id, account });
  }

  /** The plan of the work just run in `trx`: the middleware-backed accounts only. */
  private async plan(trx: Transaction<Database>): Promise<Plan> {
    const ids = [...this.pushIds.keys()];
    const push: PlanEntry[] = ids.length
      ? (
          await trx
            .selectFrom('accounts as a')
            .innerJoin('servers as s', 's.id', 'a.server_id')
            .select(MIRRORED)
            .where('s.driver', '!=', 'local')
            .where('a.id', 'in', ids)
            .where('a.deleted_at', 'is', null)
            .execute()
        ).map(({ server_id, ...account }) => ({ server_id: server_id!, account, fresh: this.pushIds.get(account.id)! }))
      : [];
    const serverIds = [...new Set(this.removals.flatMap((r) => (r.server_id === null ? [] : [r.server_id])))];
    const backed = serverIds.length
      ? new Set((await trx.selectFrom('servers').select('id').where('id', 'in', serverIds).where('driver', '!=', 'local').execute()).map((s) => s.id))
      : new Set<number>();
    const remove = this.removals
      .filter((r) => r.server_id !== null && backed.has(r.server_id))
      .map((r) => {
        const { id, middleware_id, login, full_name, pwd_txt, mac_address, status, expiry_date } = r.account;
        return { server_id: r.server_id!, account: { id, middleware_id, login, full_name, pwd_txt, mac_address, status, expiry_date }, fresh: false };
      });
    return { push, remove };
  }

  private reset(): void {
    this.pushIds = new Map();
    this.removals = [];
  }

  /**
   * Runs the work as one outcome with the middleware (see the file's comment) and answers what the
   * committed run answered. A middleware failure throws (its DomainError: 503, 422 for a taken MAC),
   * with the middleware put back as the panel has it.
   */
  async transact<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    let plan: Plan | null = null;
    try {
      return await inTransaction(this.db, async (trx) => {
        this.reset();
        const out = await work(trx);
        const rehearsed = await this.plan(trx);
        if (rehearsed.push.length + rehearsed.remove.length === 0) return out;
        plan = rehearsed;
        throw REHEARSED;
      });
    } catch (error) {
      if (error !== REHEARSED) throw error;
    }
    const planned = plan as unknown as Plan;
    const id = await this.journal.open(this.kind, this.actorId, this.key, planned);
    try {
      crashPoint(this.kind, 'journal-written');
      const subscriberIds = await this.journal.apply(planned);
      crashPoint(this.kind, 'middleware-written');
      const out = await inTransaction(this.db, async (trx) => {
        this.reset();
        const result = await work(trx);
        const real = await this.plan(trx);
        if (planSignature(real) !== planSignature(planned)) throw conflict(ACCOUNTS.changedMeanwhile);
        for (const entry of real.push) {
          const subscriberId = subscriberIds.get(macKey(entry));
          if (subscriberId !== undefined && subscriberId !== entry.account.middleware_id) {
            await trx.updateTable('accounts').set({ middleware_id: subscriberId }).where('id', '=', entry.account.id).execute();
          }
        }
        // Lost only when this process stalled past its lease and the worker compensated meanwhile.
        if (!(await this.journal.done(trx, id))) throw conflict(ACCOUNTS.changedMeanwhile);
        crashPoint(this.kind, 'before-commit');
        return result;
      });
      crashPoint(this.kind, 'after-commit');
      return out;
    } catch (error) {
      // A server that refused at once (open breaker, no connection) or rolled the write back got
      // nothing: the row closes, and the account is free for the next try.
      if (error instanceof NothingApplied) {
        await this.journal.abandon(id);
        throw error.failure;
      }
      // What the middleware got is taken back; when that fails too the row stays pending for the worker.
      await this.journal.compensate(id).catch(() => {});
      throw error;
    } finally {
      this.journal.release(id);
    }
  }
}

/** The Idempotency-Key of a request, as runCreditOperation reads it (validated there). */
export function requestKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  return key && key.length <= 255 ? key : null;
}
