/**
 * The limits users above set on a member (migration 0025, docs/domain.md#caps), and their checks.
 * Each check runs inside the capped operation's transaction after locking the caps rows it reads
 * (PostgreSQL; a SQLite write transaction holds the database already), so two operations under one
 * cap take turns and a burst never passes it. Only capped branches pay for the lock.
 */
import { type Kysely, type Transaction, sql } from 'kysely';
import { CAPS, type MemberCapsView } from '../../src/contract';
import { isPostgres } from '../db/dialect';
import type { Database, UserRow } from '../db/schema';
import { conflict, fieldError } from '../errors';
import { pathEnd, pathIds } from '../http/scope';

type Db = Kysely<Database>;

const utcDayStart = (now = new Date()) => `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;

/** The caps rows of these users that set `column`, locked for the rest of the transaction. */
async function capsOn(trx: Transaction<Database>, ids: number[], column: 'max_accounts' | 'trials_per_day' | 'credits_per_day') {
  if (ids.length === 0) return [];
  const query = trx
    .selectFrom('member_caps as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.user_id', 'u.username', 'u.path', `c.${column} as cap`])
    .where('c.user_id', 'in', ids)
    .where(`c.${column}`, 'is not', null)
    .orderBy('c.user_id');
  return (isPostgres(trx) ? await query.forUpdate('c').execute() : await query.execute()) as Array<{ user_id: number; username: string; path: string; cap: number }>;
}

/** Live accounts of a branch: the kept counts of its users. */
export async function branchAccounts(db: Db, path: string): Promise<number> {
  const row = await db
    .selectFrom('account_tallies as t')
    .innerJoin('users as s', 's.id', 't.owner_id')
    .where('t.kind', '=', 'all')
    .where('t.bucket', '=', '')
    .where('s.path', '>=', path)
    .where('s.path', '<', pathEnd(path))
    .select(sql<number>`coalesce(sum(t.n), 0)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Trials the branch's users started today (their daily trial counts). */
async function branchTrialsToday(db: Db, path: string): Promise<number> {
  const row = await db
    .selectFrom('trial_quotas as q')
    .innerJoin('users as s', 's.id', 'q.creator_id')
    .where('q.day', '=', new Date().toISOString().slice(0, 10))
    .where('s.path', '>=', path)
    .where('s.path', '<', pathEnd(path))
    .select(sql<number>`coalesce(sum(q.n), 0)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Credits the user gave its children today (its USED entries towards a user). */
async function givenToday(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('credit_transactions')
    .where('user_id', '=', userId)
    .where('created_at', '>=', utcDayStart())
    .where('type', '=', 'USED')
    .where('counterparty_id', 'is not', null)
    .where('account_id', 'is', null)
    .select(sql<number>`coalesce(sum(-credits), 0)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Before live accounts go to the owner at `ownerPath`: every user on its path with a cap keeps its
 * branch within it. `fromPaths` are the accounts' owner paths before (null: a new account); one
 * already inside a capped branch adds nothing to it. Counted after the caps rows are locked.
 */
export async function checkAccountCaps(trx: Transaction<Database>, ownerPath: string, fromPaths: ReadonlyArray<string | null>): Promise<void> {
  if (fromPaths.length === 0) return;
  for (const cap of await capsOn(trx, pathIds(ownerPath), 'max_accounts')) {
    const adding = fromPaths.filter((from) => from === null || from < cap.path || from >= pathEnd(cap.path)).length;
    if (adding > 0 && (await branchAccounts(trx, cap.path)) + adding > cap.cap) throw conflict(CAPS.accountsReached(cap.username, cap.cap));
  }
}

/** After the creator's trial of today was counted: every capped user on its path keeps its branch's trials within its cap. */
export async function checkTrialCaps(trx: Transaction<Database>, creatorPath: string): Promise<void> {
  for (const cap of await capsOn(trx, pathIds(creatorPath), 'trials_per_day')) {
    if ((await branchTrialsToday(trx, cap.path)) > cap.cap) throw fieldError('is_trial', CAPS.trialsReached(cap.username, cap.cap));
  }
}

/**
 * Before the giver (its row locked by the move) gives `amount` to a child: within its daily cap.
 * Named under the amount's field of the call that asked.
 */
export async function checkCreditCap(trx: Transaction<Database>, giver: Pick<UserRow, 'id'>, amount: number, field: string): Promise<void> {
  const [cap] = await capsOn(trx, [giver.id], 'credits_per_day');
  if (!cap) return;
  const given = await givenToday(trx, giver.id);
  if (given + amount > cap.cap) throw fieldError(field, CAPS.creditsReached(cap.cap, Math.max(0, cap.cap - given)));
}

/** A member's caps and what it uses of them. */
export async function capsView(db: Db, user: Pick<UserRow, 'id' | 'path'>): Promise<MemberCapsView> {
  const [row, accounts, trials, given] = await Promise.all([
    db.selectFrom('member_caps').select(['max_accounts', 'trials_per_day', 'credits_per_day']).where('user_id', '=', user.id).executeTakeFirst(),
    branchAccounts(db, user.path),
    branchTrialsToday(db, user.path),
    givenToday(db, user.id),
  ]);
  return {
    user_id: user.id,
    caps: { max_accounts: row?.max_accounts ?? null, trials_per_day: row?.trials_per_day ?? null, credits_per_day: row?.credits_per_day ?? null },
    usage: { accounts, trials_today: trials, credits_given_today: given },
  };
}
