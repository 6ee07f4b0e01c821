/**
 * Hierarchy scoping (docs/domain.md): admin sees everything; everyone else sees its own subtree.
 * Paths end with the owner's id ('/1/5/12/'), so a subtree is a prefix match.
 * Anything outside the caller's subtree answers 404, never 403, so ids cannot be probed.
 */
import { type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Role } from '../../src/contract';
import type { Database, UserRow } from '../db/schema';
import { notFound } from '../errors';

type Actor = Pick<UserRow, 'id' | 'role' | 'path'>;

/**
 * The first path after every path that starts with `prefix`: paths end with '/', and '/' sorts
 * just before '0', so '/1/5/' -> '/1/50' bounds '/1/5/...' and leaves out '/1/50/...'. Byte order
 * (SQLite's BINARY collation, the "C" collation of the path columns on PostgreSQL, migration 0010).
 */
export const pathEnd = (prefix: string) => `${prefix.slice(0, -1)}0`;

/** pathEnd in SQL, for a prefix that is itself a column (a listed user's subtree). */
export const pathEndSql = (pathColumn: string) => sql<string>`substr(${sql.ref(pathColumn)}, 1, length(${sql.ref(pathColumn)}) - 1) || '0'`;

/** The rows whose path column starts with `prefix`: an index range, not a LIKE scan. */
const inSubtree = (eb: ExpressionBuilder<any, any>, pathColumn: string, prefix: string) => eb.and([eb(pathColumn, '>=', prefix), eb(pathColumn, '<', pathEnd(prefix))]);

/** Rows whose path column lies strictly below the actor (not the actor itself). */
export function below(actor: Actor, pathColumn: string) {
  return (eb: ExpressionBuilder<any, any>) =>
    actor.role === 'admin' ? sql<SqlBool>`1 = 1` : eb.and([inSubtree(eb, pathColumn, actor.path), eb(pathColumn, '!=', actor.path)]);
}

/** Rows whose path column is the actor's own path or lies below it (accounts, tickets). */
export function within(actor: Actor, pathColumn: string) {
  return (eb: ExpressionBuilder<any, any>) => (actor.role === 'admin' ? sql<SqlBool>`1 = 1` : inSubtree(eb, pathColumn, actor.path));
}

/**
 * Rows of a user in the actor's subtree (the actor included), by user id: a subquery on users, so
 * the rows' own table is read without a join (ledger entries).
 */
export function ownedWithin(actor: Actor, userIdColumn: string) {
  return (eb: ExpressionBuilder<any, any>) =>
    actor.role === 'admin'
      ? sql<SqlBool>`1 = 1`
      : eb(
          userIdColumn,
          'in',
          eb
            .selectFrom('users as scope_u')
            .select('scope_u.id')
            .where((e) => inSubtree(e, 'scope_u.path', actor.path)),
        );
}

/**
 * ownedWithin for rows bounded by a short date range (the partial days the kept figures leave to the
 * rows): the user id is compared as `id + 0`, which no index answers, so the planner reads the
 * range by its date index instead of every row of a large subtree's users.
 */
export function ownedWithinByDate(actor: Actor, userIdColumn: string) {
  return (eb: ExpressionBuilder<any, any>) =>
    actor.role === 'admin'
      ? sql<SqlBool>`1 = 1`
      : eb(
          sql`${sql.ref(userIdColumn)} + 0`,
          'in',
          eb
            .selectFrom('users as scope_u')
            .select('scope_u.id')
            .where((e) => inSubtree(e, 'scope_u.path', actor.path)),
        );
}

export const childPath = (parent: Pick<UserRow, 'path'>, childId: number) => `${parent.path}${childId}/`;

/** A user of the given role inside the actor's subtree, or 404. */
export async function findUserBelow(db: Kysely<Database>, actor: Actor, id: number, role: Role): Promise<UserRow> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).where('role', '=', role).where(below(actor, 'path')).executeTakeFirst();
  if (!user) throw notFound();
  return user;
}

/** The ids on a path, root first: '/1/5/12/' -> [1, 5, 12]. */
export const pathIds = (path: string): number[] => path.split('/').filter(Boolean).map(Number);
