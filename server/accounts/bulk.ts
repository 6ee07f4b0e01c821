/**
 * Bulk by filter (docs/domain.md#bulk-by-filter): renew, suspend, activate or message the accounts
 * of a selection or everything the accounts list's filter matches. A preview is stored with its
 * figures; applying it re-reads the set, and anything that moved since (how many, which are refused,
 * the price) refuses the application, so what is applied is what was previewed, to the credit. Up to
 * BULK_MAX accounts it is one transaction; above, a job: the set is frozen and applied a chunk per
 * transaction, each with its ledger entries and the job's cursor (server/jobs/bulkAccounts.ts).
 */
import type { FastifyRequest } from 'fastify';
import { type Kysely, type Transaction, sql } from 'kysely';
import {
  ACCOUNTS,
  BULK_FILTER,
  BULK_MAX,
  BULK_SAMPLE_ROWS,
  type BulkFilterAction,
  type BulkFilterBody,
  type BulkJob,
  type BulkPreview,
  type BulkResultRow,
  plural,
} from '../../src/contract';
import { type AuditEntry, recordAudits } from '../audit';
import { lockUsers } from '../credits/moves';
import { assertBranchActive } from '../hierarchy/branch';
import { isPostgres } from '../db/dialect';
import type { AccountRow, Database, UserRow } from '../db/schema';
import { nowIso } from '../db/values';
import { conflict, fieldError, notFound } from '../errors';
import { applyFilters, parseListQuery } from '../http/list';
import { within } from '../http/scope';
import { type SystemSettings, getSystemSettings } from '../settings';
import { inBonusPeriod } from './dates';
import { accountsRun } from './list';
import { findDiscount, regularQuote } from './pricing';
import { renewMany } from './renewal';
import type { Actor } from './store';

type Db = Kysely<Database>;
export type BulkActor = Pick<UserRow, 'id' | 'role' | 'path' | 'username'>;
export type BulkTarget = { account_ids: number[] } | { filter: Record<string, string> };
export type BulkJobRow = Awaited<ReturnType<typeof loadJob>>;

/** A preview may be applied within this time; then the figures it showed are too old to trust. */
export const PREVIEW_TTL_MS = 15 * 60_000;
/** Rows per multi-row INSERT of items and results: well under both databases' bound-value limits. */
const INSERT_BATCH = 500;

/** What the plan reads of an account. */
export type PlanRow = Pick<AccountRow, 'id' | 'login' | 'server_id' | 'status' | 'is_promo' | 'expiry_date'>;
const PLAN_COLUMNS = ['a.id', 'a.login', 'a.server_id', 'a.status', 'a.is_promo', 'a.expiry_date'] as const;

/** The accounts list's query string for a filter object: the list's own parser reads it. */
function listQueryOf(filter: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filter).map(([name, value]) => [name === 'search' ? 'filter[search]' : `filter[${name}]`, value]));
}

/**
 * The accounts of the target in the caller's scope, by id. A filter is the accounts list's own
 * (its parser, search and scope), so the set is exactly what the list shows; selected ids outside
 * the scope answer 404, as the other bulk calls do (`strict`), or are left out when re-read.
 */
export async function targetRows(db: Db, actor: Actor & { role: string }, target: BulkTarget, strict = true): Promise<PlanRow[]> {
  if ('account_ids' in target) {
    const rows = await db
      .selectFrom('accounts as a')
      .select(PLAN_COLUMNS)
      .where('a.id', 'in', target.account_ids)
      .where('a.deleted_at', 'is', null)
      .where(within(actor, 'a.owner_path'))
      .orderBy('a.id')
      .execute();
    if (strict && rows.length !== target.account_ids.length) throw notFound();
    return rows;
  }
  const run = await accountsRun(db, actor, listQueryOf(target.filter));
  const params = parseListQuery(run.query ?? {}, run.spec);
  return (await applyFilters(run.lean ?? run.base, params, run.spec)
    .clearSelect()
    .select(PLAN_COLUMNS)
    .orderBy('a.id')
    .execute()) as PlanRow[];
}

export interface Plan {
  matched: number;
  applicable: PlanRow[];
  refused: Array<{ row: PlanRow; reason: string }>;
  /** Per applicable account (same order), what renewing it costs. */
  prices: number[];
  credits: number;
  bonus: number;
  balance: { credits: number; bonus_credits: number } | null;
}

function refusalOf(action: BulkFilterAction, row: PlanRow, now: Date): string | null {
  if (action === 'renew') return inBonusPeriod(row, now) ? ACCOUNTS.bonusPeriod : null;
  if (action === 'suspend') return row.status === 'suspended' ? BULK_FILTER.alreadySuspended : null;
  if (action === 'activate') return row.status === 'active' ? BULK_FILTER.alreadyActive : null;
  return null;
}

/**
 * What each renewal costs, as renewMany charges it: a server's matching discount while it has uses
 * left (taken one per account in id order), the regular price after; nothing for admin.
 */
async function renewalPrices(db: Db, rows: PlanRow[], months: number, payer: Pick<UserRow, 'role'>, now: Date, settings: SystemSettings): Promise<number[]> {
  if (payer.role === 'admin') return rows.map(() => 0);
  const perServer = new Map<number | null, { price: number; regular: number; left: number }>();
  for (const row of rows) {
    if (perServer.has(row.server_id)) continue;
    const regular = regularQuote(row.server_id, months, settings).credits;
    const discount = settings.global_discounts_enabled ? await findDiscount(db, row.server_id, months, now) : undefined;
    perServer.set(row.server_id, {
      price: discount ? discount.credits_required : regular,
      regular,
      left: discount ? (discount.max_uses === null ? Number.POSITIVE_INFINITY : discount.max_uses - discount.current_uses) : Number.POSITIVE_INFINITY,
    });
  }
  return rows.map((row) => {
    const server = perServer.get(row.server_id)!;
    if (server.left <= 0) return server.regular;
    server.left -= 1;
    return server.price;
  });
}

/** The plan of an action over rows read now: which are refused and why, what the rest cost, the balance. */
export async function planOf(
  db: Db,
  actor: Pick<UserRow, 'id' | 'role'>,
  action: BulkFilterAction,
  months: number | null,
  rows: PlanRow[],
  now: Date,
  settings: SystemSettings,
  balance?: { credits: number; bonus_credits: number },
): Promise<Plan> {
  const applicable: PlanRow[] = [];
  const refused: Plan['refused'] = [];
  for (const row of rows) {
    const reason = refusalOf(action, row, now);
    if (reason) refused.push({ row, reason });
    else applicable.push(row);
  }
  const prices = action === 'renew' ? await renewalPrices(db, applicable, months!, actor, now, settings) : applicable.map(() => 0);
  const credits = prices.reduce((sum, p) => sum + p, 0);
  const held =
    actor.role === 'admin' ? null : (balance ?? (await db.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', actor.id).executeTakeFirstOrThrow()));
  return { matched: rows.length, applicable, refused, prices, credits, bonus: held ? Math.min(held.bonus_credits, credits) : 0, balance: held };
}

const insufficient = (plan: Pick<Plan, 'credits' | 'balance'>) => plan.balance !== null && plan.credits > plan.balance.credits;

/** The refused accounts by reason, most frequent first, each with a few of them. */
function groupRefused(refused: Plan['refused']): BulkPreview['refused'] {
  const groups = new Map<string, BulkPreview['refused'][number]>();
  for (const { row, reason } of refused) {
    const group = groups.get(reason) ?? { reason, count: 0, sample: [] };
    group.count += 1;
    if (group.sample.length < BULK_SAMPLE_ROWS) group.sample.push({ id: row.id, login: row.login });
    groups.set(reason, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** Previews an action: reads the set and its figures, stores them, answers what applying would do. */
export async function previewBulk(db: Db, actor: BulkActor, body: BulkFilterBody, ip: string | null): Promise<BulkPreview> {
  const target: BulkTarget = body.account_ids ? { account_ids: body.account_ids } : { filter: body.filter! };
  const now = new Date();
  const settings = await getSystemSettings(db);
  const rows = await targetRows(db, actor, target);
  const months = body.action === 'renew' ? body.months! : null;
  const plan = await planOf(db, actor, body.action, months, rows, now, settings);
  const mode = plan.applicable.length > BULK_MAX ? 'job' : 'direct';
  const at = now.toISOString();
  const { id } = await db
    .insertInto('bulk_jobs')
    .values({
      actor_id: actor.id,
      action: body.action,
      months,
      message: body.action === 'message' ? body.message! : null,
      target: JSON.stringify(target),
      status: 'previewed',
      mode,
      matched: plan.matched,
      applicable: plan.applicable.length,
      credits: plan.credits,
      error: null,
      ip_address: ip,
      created_at: at,
      updated_at: at,
      finished_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    id,
    action: body.action,
    months,
    matched: plan.matched,
    applicable: plan.applicable.length,
    credits: plan.credits,
    bonus_credits: plan.bonus,
    balance_before: plan.balance?.credits ?? null,
    balance_after: plan.balance ? plan.balance.credits - plan.credits : null,
    insufficient: insufficient(plan),
    refused: groupRefused(plan.refused),
    mode,
    limit: BULK_MAX,
    expires_at: new Date(now.getTime() + PREVIEW_TTL_MS).toISOString(),
  };
}

export async function loadJob(db: Db, actorId: number, id: number) {
  const job = await db.selectFrom('bulk_jobs').selectAll().where('id', '=', id).where('actor_id', '=', actorId).executeTakeFirst();
  if (!job) throw notFound(BULK_FILTER.notFound);
  return job;
}

export const toBulkJob = (job: Omit<BulkJobRow, 'target' | 'ip_address' | 'message'>): BulkJob => ({
  id: job.id,
  action: job.action as BulkFilterAction,
  months: job.months,
  status: job.status as BulkJob['status'],
  mode: job.mode as BulkJob['mode'],
  total: job.matched,
  processed: job.processed,
  succeeded: job.succeeded,
  refused: job.refused,
  credits: job.charged,
  error: job.error,
  created_at: job.created_at,
  finished_at: job.finished_at,
});

/** A preview that may still be applied: not applied yet, not expired. */
export function assertApplicable(job: BulkJobRow, now = Date.now()): void {
  if (job.status !== 'previewed') throw conflict(BULK_FILTER.alreadyApplied);
  if (new Date(job.created_at).getTime() + PREVIEW_TTL_MS < now) throw conflict(BULK_FILTER.expired);
}

/**
 * Takes the preview for this application, inside its transaction: of two applications racing on
 * one preview, one takes it and the other (waiting on the row, then finding it taken) gets 409.
 */
async function claim(trx: Transaction<Database>, job: BulkJobRow, status: 'running' | 'done'): Promise<void> {
  const at = nowIso();
  const taken = await trx
    .updateTable('bulk_jobs')
    .set({ status, updated_at: at })
    .where('id', '=', job.id)
    .where('status', '=', 'previewed')
    .returning('id')
    .executeTakeFirst();
  if (!taken) throw conflict(BULK_FILTER.alreadyApplied);
}

/** The set read again, in the application's transaction; it must be the preview's, figure for figure. */
async function replan(trx: Transaction<Database>, actor: BulkActor, job: BulkJobRow, rows: PlanRow[], now: Date, balance?: Plan['balance']): Promise<Plan> {
  const plan = await planOf(trx, actor, job.action as BulkFilterAction, job.months, rows, now, await getSystemSettings(trx), balance ?? undefined);
  if (plan.matched !== job.matched || plan.applicable.length !== job.applicable || plan.credits !== job.credits) throw conflict(BULK_FILTER.changed);
  if (insufficient(plan)) throw fieldError('credits', BULK_FILTER.insufficient(plan.credits, plan.balance!.credits));
  if (plan.applicable.length === 0) throw conflict(BULK_FILTER.nothingToApply);
  return plan;
}

export const targetOf = (job: BulkJobRow): BulkTarget => JSON.parse(job.target) as BulkTarget;

async function insertResults(trx: Transaction<Database>, jobId: number, rows: BulkResultRow[]): Promise<void> {
  const at = nowIso();
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await trx
      .insertInto('bulk_job_results')
      .values(rows.slice(i, i + INSERT_BATCH).map((r) => ({ job_id: jobId, ...r, created_at: at })))
      .execute();
  }
}

/** What one application (the whole set, or a job's chunk) did. */
export interface Applied {
  changed: number[];
  results: BulkResultRow[];
  charged: number;
  succeeded: number;
  refused: number;
}

const refusedResult = (row: PlanRow, reason: string): BulkResultRow => ({
  account_id: row.id,
  login: row.login,
  status: 'refused',
  reason,
  credits: 0,
  transaction_number: null,
  expiry_date: row.expiry_date,
});

/**
 * Applies the action to the plan's applicable rows (locked by the caller) in `trx`: renewals through
 * renewMany (bonus credits first, one USED entry each, discounts taken one per account), statuses in
 * one UPDATE, messages in one INSERT; one audit entry per account. `refused` adds rows left out.
 */
async function applyRows(
  trx: Transaction<Database>,
  request: FastifyRequest,
  actor: BulkActor,
  job: Pick<BulkJobRow, 'id' | 'action' | 'months' | 'message'>,
  rows: PlanRow[],
  refused: Plan['refused'],
  now: Date,
): Promise<Applied> {
  const results: BulkResultRow[] = refused.map(({ row, reason }) => refusedResult(row, reason));
  const ids = rows.map((r) => r.id);
  let charged = 0;
  const audits: AuditEntry[] = [];
  if (ids.length > 0 && job.action === 'renew') {
    const months = job.months!;
    const full = await trx.selectFrom('accounts').selectAll().where('id', 'in', ids).orderBy('id').execute();
    const { renewed } = await renewMany(trx, full, months, actor, { actorId: actor.id, now });
    for (const [i, { account, result }] of renewed.entries()) {
      charged += result.credits;
      results.push({
        account_id: account.id,
        login: account.login,
        status: 'done',
        reason: null,
        credits: result.credits,
        transaction_number: result.transaction_number,
        expiry_date: result.coverage_end,
      });
      audits.push({
        module: 'accounts',
        action: 'bulk_renew',
        entityId: account.id,
        targetUsername: account.login,
        description: `Renewed ${account.login} for ${plural(months, 'month')}: ${plural(result.credits, 'credit')} (bulk #${job.id})`,
        oldValues: { expiry_date: full[i].expiry_date },
        newValues: { expiry_date: result.coverage_end },
      });
    }
  } else if (ids.length > 0 && (job.action === 'suspend' || job.action === 'activate')) {
    const status = job.action === 'suspend' ? 'suspended' : 'active';
    await trx.updateTable('accounts').set({ status, updated_at: now.toISOString() }).where('id', 'in', ids).execute();
    for (const row of rows) {
      results.push({ account_id: row.id, login: row.login, status: 'done', reason: null, credits: 0, transaction_number: null, expiry_date: row.expiry_date });
      audits.push({
        module: 'accounts',
        action: job.action === 'suspend' ? 'bulk_suspend' : 'bulk_activate',
        entityId: row.id,
        targetUsername: row.login,
        oldValues: { status: row.status },
        newValues: { status },
      });
    }
  } else if (ids.length > 0) {
    const at = now.toISOString();
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await trx
        .insertInto('account_messages')
        .values(rows.slice(i, i + INSERT_BATCH).map((row) => ({ account_id: row.id, sender_id: actor.id, message: job.message!, created_at: at })))
        .execute();
    }
    for (const row of rows)
      results.push({ account_id: row.id, login: row.login, status: 'done', reason: null, credits: 0, transaction_number: null, expiry_date: row.expiry_date });
    audits.push({
      module: 'accounts',
      action: 'bulk_message',
      description: `Message sent to ${plural(rows.length, 'account')} (bulk #${job.id})`,
      newValues: { message: job.message },
    });
  }
  await recordAudits(trx, request, audits);
  await insertResults(trx, job.id, results);
  return { changed: ids, results, charged, succeeded: ids.length, refused: refused.length };
}

/** Locks the given accounts of the caller's (PostgreSQL; SQLite's transaction holds the write lock) and reads them. */
async function lockRows(trx: Transaction<Database>, actor: Actor, ids: number[]): Promise<PlanRow[]> {
  if (ids.length === 0) return [];
  const rows: PlanRow[] = [];
  for (let i = 0; i < ids.length; i += INSERT_BATCH) {
    const q = trx
      .selectFrom('accounts as a')
      .select(PLAN_COLUMNS)
      .where('a.id', 'in', ids.slice(i, i + INSERT_BATCH))
      .where('a.deleted_at', 'is', null)
      .where(within(actor, 'a.owner_path'))
      .orderBy('a.id');
    rows.push(...(isPostgres(trx) ? await q.forNoKeyUpdate().execute() : await q.execute()));
  }
  return rows;
}

/**
 * Applies a direct preview (at most BULK_MAX accounts) in the caller's transaction, all or nothing:
 * the preview is taken, the set read again with its accounts locked and checked against the
 * preview, then applied; the job row records the outcome and its results make the report.
 */
export async function applyDirect(
  trx: Transaction<Database>,
  request: FastifyRequest,
  actor: BulkActor,
  job: BulkJobRow,
  now: Date,
): Promise<{ job: BulkJob; applied: Applied }> {
  await claim(trx, job, 'done');
  const found = await targetRows(trx, actor, targetOf(job), false);
  const rows = await lockRows(
    trx,
    actor,
    found.map((r) => r.id),
  );
  const plan = await replan(trx, actor, job, rows, now);
  const applied = await applyRows(trx, request, actor, job, plan.applicable, plan.refused, now);
  const at = nowIso();
  const updated = await trx
    .updateTable('bulk_jobs')
    .set({
      processed: plan.matched,
      succeeded: applied.succeeded,
      refused: applied.refused,
      charged: applied.charged,
      cursor: plan.matched > 0 ? Math.max(...rows.map((r) => r.id)) : 0,
      updated_at: at,
      finished_at: at,
    })
    .where('id', '=', job.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { job: toBulkJob(updated), applied };
}

/**
 * Starts a job preview (above BULK_MAX): takes the preview, checks the set against it and freezes
 * it in bulk_job_items. Nothing is charged yet; the chunks do that.
 */
export async function startJob(trx: Transaction<Database>, actor: BulkActor, job: BulkJobRow, now: Date): Promise<BulkJob> {
  await claim(trx, job, 'running');
  const rows = await targetRows(trx, actor, targetOf(job), false);
  await replan(trx, actor, job, rows, now);
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await trx
      .insertInto('bulk_job_items')
      .values(rows.slice(i, i + INSERT_BATCH).map((r) => ({ job_id: job.id, account_id: r.id })))
      .execute();
  }
  return toBulkJob(await trx.selectFrom('bulk_jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow());
}

/** A job's actor as a request, for the audit entries its chunks write. */
const jobRequest = (actor: BulkActor, ip: string | null) =>
  ({ user: { id: actor.id, username: actor.username }, ip, headers: { 'user-agent': 'bulk job' } }) as unknown as FastifyRequest;

/**
 * One chunk of a running job in `trx`: the next `size` frozen accounts after the cursor, each still
 * the caller's and still applicable, applied as far as the balance reaches (the rest refused with
 * the reason), the results written (once per account: the primary key) and the cursor advanced, all
 * in this one transaction. Answers the accounts changed (to mirror), or null when the job is over.
 */
export async function runChunk(trx: Transaction<Database>, jobId: number, size: number, now: Date): Promise<Applied | null> {
  const lockJob = trx.selectFrom('bulk_jobs').selectAll().where('id', '=', jobId);
  const job = isPostgres(trx) ? await lockJob.forUpdate().executeTakeFirst() : await lockJob.executeTakeFirst();
  if (!job || job.status !== 'running') return null;
  const items = await trx
    .selectFrom('bulk_job_items')
    .select('account_id')
    .where('job_id', '=', jobId)
    .where('account_id', '>', job.cursor)
    .orderBy('account_id')
    .limit(size)
    .execute();
  const at = now.toISOString();
  if (items.length === 0) {
    await trx.updateTable('bulk_jobs').set({ status: 'done', updated_at: at, finished_at: at }).where('id', '=', jobId).execute();
    return null;
  }
  const actor = await trx.selectFrom('users').select(['id', 'role', 'path', 'username']).where('id', '=', job.actor_id).executeTakeFirstOrThrow();
  const ids = items.map((i) => i.account_id);
  // A stopped branch spends nothing: the job stops (failJob) with its committed chunks kept.
  if (job.action === 'renew') await assertBranchActive(trx, actor);
  // Paid renewals lock the payer first (renewMany does the same again), so the balance read here holds.
  const balance = job.action === 'renew' && actor.role !== 'admin' ? (await lockUsers(trx, [actor.id])).get(actor.id)! : undefined;
  const rows = await lockRows(trx, actor, ids);
  const found = new Set(rows.map((r) => r.id));
  const goneIds = ids.filter((id) => !found.has(id));
  const gone = goneIds.length
    ? await trx.selectFrom('accounts').select(['id', 'login', 'server_id', 'status', 'is_promo', 'expiry_date']).where('id', 'in', goneIds).execute()
    : [];
  const plan = await planOf(trx, actor, job.action as BulkFilterAction, job.months, rows, now, await getSystemSettings(trx), balance);
  const refused = [...plan.refused, ...gone.map((row) => ({ row, reason: BULK_FILTER.gone }))];
  // As many renewals as the balance pays for, in id order; the rest are refused for want of credits.
  let applicable = plan.applicable;
  if (plan.balance !== null) {
    let left = plan.balance.credits;
    let paid = 0;
    while (paid < plan.applicable.length && plan.prices[paid] <= left) left -= plan.prices[paid++];
    for (const [i, row] of plan.applicable.slice(paid).entries()) refused.push({ row, reason: BULK_FILTER.insufficient(plan.prices[paid + i], left) });
    applicable = plan.applicable.slice(0, paid);
  }
  const applied = await applyRows(trx, jobRequest(actor, job.ip_address), actor, job, applicable, refused, now);
  await trx
    .updateTable('bulk_jobs')
    .set({
      cursor: ids[ids.length - 1],
      processed: sql`processed + ${ids.length}`,
      succeeded: sql`succeeded + ${applied.succeeded}`,
      refused: sql`refused + ${applied.refused}`,
      charged: sql`charged + ${applied.charged}`,
      updated_at: at,
    })
    .where('id', '=', jobId)
    .execute();
  return applied;
}

/** Marks a job stopped for good with the reason (its committed chunks stay, and its report). */
export async function failJob(db: Db, jobId: number, error: string): Promise<void> {
  const at = nowIso();
  await db.updateTable('bulk_jobs').set({ status: 'failed', error, updated_at: at, finished_at: at }).where('id', '=', jobId).where('status', '=', 'running').execute();
}

/** The report's rows after `after` (account id), a batch at a time. */
export async function* reportBatches(db: Db, jobId: number, batch = 1000): AsyncGenerator<BulkResultRow[]> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('bulk_job_results')
      .select(['account_id', 'login', 'status', 'reason', 'credits', 'transaction_number', 'expiry_date'])
      .where('job_id', '=', jobId)
      .where('account_id', '>', after)
      .orderBy('account_id')
      .limit(batch)
      .execute();
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].account_id;
  }
}
