/**
 * A branch stops with its top (docs/branch-suspension.md): while a user is not active (suspended,
 * inactive), nobody below it acts in the panel. Its users cannot sign in, their tokens are refused,
 * and no credit operation runs on their behalf; the users above it still manage the branch, and
 * end-user accounts keep their service. Nothing is written below the stopped user, so reactivating
 * it restores the whole branch at once.
 *
 * Race: a credit operation locks its actor's row and then, in a statement of its own (a fresh
 * snapshot on PostgreSQL's READ COMMITTED), checks every user on the actor's path; a status change
 * away from 'active' locks every row of the changed user's subtree in its transaction. Whichever takes
 * the actor's row first, the operation either commits before the status change commits or sees it.
 * SQLite runs one write transaction at a time, so the check inside the transaction is enough there.
 */
import { type ExpressionBuilder, type Kysely, type SqlBool, type Transaction, sql } from 'kysely';
import { AUTH } from '../../src/contract';
import { isPostgres } from '../db/dialect';
import { prepared } from '../db/prepared';
import type { Database, UserRow } from '../db/schema';
import { unauthenticated } from '../errors';
import { pathEnd, pathIds } from '../http/scope';

/**
 * `idColumn` is one of the ids a path column names ('/1/5/12/' names 1, 5 and 12): a list of keys the
 * primary key answers one by one, not a scan (json_each on SQLite, an array on PostgreSQL).
 */
export function onPath(db: Kysely<Database>, idColumn: string, pathColumn: string) {
  const id = sql.ref(idColumn);
  const path = sql.ref(pathColumn);
  return isPostgres(db)
    ? sql<SqlBool>`${id} = any(string_to_array(btrim(${path}, '/'), '/')::int[])`
    : sql<SqlBool>`${id} in (select value from json_each('[' || replace(trim(${path}, '/'), '/', ',') || ']'))`;
}

/**
 * True when a user named on the path column, other than `selfColumn`'s, is not active: the row's
 * branch is stopped by an ancestor.
 */
export function blockedByAncestor(db: Kysely<Database>, pathColumn: string, selfColumn: string) {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.exists(
      eb
        .selectFrom('users as branch_a')
        .select(sql.lit(1).as('one'))
        .where(onPath(db, 'branch_a.id', pathColumn))
        .where('branch_a.status', '!=', 'active')
        .whereRef('branch_a.id', '!=', selfColumn),
    );
}

/** The users on a user's path (itself included) that are not active, root first. */
export const stoppedOnPath = prepared((db, userId: number) =>
  db
    .selectFrom('users as u')
    .innerJoin('users as a', (join) => join.on(onPath(db, 'a.id', 'u.path')))
    .select(['a.id', 'a.username', 'a.role', 'a.status', 'a.path'])
    .where('u.id', '=', userId)
    .where('a.status', '!=', 'active')
    .orderBy('a.path'),
);

/** Refused: the acting user was itself disabled, or its branch stopped, while its request ran. */
export const branchStopped = (self: boolean) => unauthenticated(self ? AUTH.accountDisabled : AUTH.branchSuspended);

/**
 * The non-active users on `userId`'s path now (itself included), root first. On PostgreSQL it first
 * locks the user's row (see the race above): call it inside the transaction that spends or moves on
 * the user's behalf, before the spending.
 */
export async function stoppedAbove(trx: Transaction<Database> | Kysely<Database>, userId: number) {
  if (isPostgres(trx)) await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
  return stoppedOnPath(trx, userId);
}

/** Throws 401 unless `user` and everyone above it are active now (see stoppedAbove). */
export async function assertBranchActive(trx: Transaction<Database>, user: Pick<UserRow, 'id' | 'role'>): Promise<void> {
  // The admin is the root: nothing above it, and no route changes its status.
  if (user.role === 'admin') return;
  const [first] = await stoppedAbove(trx, user.id);
  if (first) throw branchStopped(first.id === user.id);
}

/**
 * Before a user stops being active (PostgreSQL): locks its subtree's rows, so that every credit
 * operation already holding one of them commits first, and every later one waits and then sees the
 * new status. Ascending id, the order the credit moves lock in.
 */
export async function lockBranch(trx: Transaction<Database>, user: Pick<UserRow, 'path'>): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx.selectFrom('users').select('id').where('path', '>=', user.path).where('path', '<', pathEnd(user.path)).orderBy('id').forNoKeyUpdate().execute();
}

/** The server a user's branch works on: a manager's own, a reseller's or dealer's manager's. */
export async function branchServerId(db: Kysely<Database>, user: Pick<UserRow, 'role' | 'path' | 'server_id'>): Promise<number | null> {
  if (user.role === 'admin') return null;
  if (user.role === 'manager') return user.server_id;
  const managerId = pathIds(user.path)[1];
  if (!managerId) return null;
  const manager = await db.selectFrom('users').select('server_id').where('id', '=', managerId).where('role', '=', 'manager').executeTakeFirst();
  return manager?.server_id ?? null;
}
