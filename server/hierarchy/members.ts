/**
 * Managers, resellers and dealers as rows and as the API shows them. A deleted user (status
 * 'deleted', kept because the ledger still names it) is invisible to every lookup here.
 */
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { HIERARCHY, type HierarchyUser, type NamedRef, type Role } from '../../src/contract';
import { prepared } from '../db/prepared';
import type { Database, UserRow } from '../db/schema';
import { conflict, notFound } from '../errors';
import { below, pathEnd, pathEndSql, pathIds } from '../http/scope';

export const DELETED = 'deleted';

type Actor = Pick<UserRow, 'id' | 'role' | 'path'>;

/** A live user of `role` strictly below the actor (any role when null), or 404. */
export async function findMember(db: Kysely<Database>, actor: Actor, id: number, role: Role | null): Promise<UserRow> {
  let q = db.selectFrom('users').selectAll().where('id', '=', id).where('status', '!=', DELETED).where(below(actor, 'path'));
  if (role) q = q.where('role', '=', role);
  const user = await q.executeTakeFirst();
  if (!user) throw notFound();
  return user;
}

export type MemberRow = UserRow & { total_children: number; total_accounts: number };

/** FROM users u, live rows only, with the counts the lists show (select them with withCounts). */
export const memberBase = (db: Kysely<Database>) => db.selectFrom('users as u').where('u.status', '!=', DELETED);

export function withCounts<QB extends SelectQueryBuilder<any, any, any>>(qb: QB) {
  return qb.selectAll('u').select((eb: ExpressionBuilder<any, any>) => [
    eb
      .selectFrom('users as c')
      .select(sql<number>`count(*)`.as('n'))
      .whereRef('c.parent_id', '=', 'u.id')
      .where('c.status', '!=', DELETED)
      .as('total_children'),
    // The live accounts of the user's subtree: the kept count of each of its users (migration
    // 0013), its users found by the path range, each count by its key (a join let PostgreSQL read
    // every owner's count for each listed user).
    eb
      .selectFrom('users as s')
      .select((sub: ExpressionBuilder<any, any>) =>
        sql<number>`coalesce(sum(${sub
          .selectFrom('account_tallies as t')
          .select('t.n')
          .where('t.kind', '=', 'all')
          .where('t.bucket', '=', '')
          .whereRef('t.owner_id', '=', 's.id')}), 0)`.as('n'),
      )
      .whereRef('s.path', '>=', 'u.path')
      .where('s.path', '<', pathEndSql('u.path'))
      .as('total_accounts'),
  ]);
}

export async function loadMember(db: Kysely<Database>, id: number): Promise<MemberRow> {
  const row = await withCounts(memberBase(db).where('u.id', '=', id)).executeTakeFirst();
  if (!row) throw notFound();
  return row as MemberRow;
}

/**
 * findMember with the counts its answer shows. A credit move reads them here, before its
 * transaction: a move changes neither, and counting a big subtree while both balances are locked
 * made every other move on them wait.
 */
export async function findMemberCounted(db: Kysely<Database>, actor: Actor, id: number, role: Role): Promise<MemberRow> {
  // Below the actor: its subtree's path range without its own path; every path is in '/'..'0' (below an admin).
  const [from, own] = actor.role === 'admin' ? ['/', ''] : [actor.path, actor.path];
  const [row] = await countedMember(db, id, role, from, pathEnd(from), own);
  if (!row) throw notFound();
  return row as MemberRow;
}

const countedMember = prepared((db, id: number, role: string, from: string, to: string, own: string) =>
  withCounts(memberBase(db).where('u.id', '=', id).where('u.role', '=', role).where('u.path', '>=', from).where('u.path', '<', to).where('u.path', '!=', own)),
);

const ref = (u: { id: number; name: string } | undefined): NamedRef | null => (u ? { id: u.id, name: u.name } : null);

/**
 * Reads what rows under these paths are shown with (parent, manager and reseller references and the
 * branch's server: two queries for the whole page) and answers the function that shows such a row.
 * A credit move reads them before its transaction and shows the row its entries leave.
 */
export async function presenter(db: Kysely<Database>, rows: Pick<MemberRow, 'path' | 'server_id'>[]): Promise<(row: MemberRow) => HierarchyUser> {
  // A path names its own user too, so the ancestors' servers include each row's own.
  const ancestorIds = [...new Set(rows.flatMap((r) => pathIds(r.path)))];
  const ancestors = ancestorIds.length
    ? await db
        .selectFrom('users as a')
        .leftJoin('servers as s', 's.id', 'a.server_id')
        .select(['a.id', 'a.name', 'a.username', 'a.role', 'a.status', 'a.server_id', 's.name as server_name'])
        .where('a.id', 'in', ancestorIds)
        .execute()
    : [];
  const byId = new Map(ancestors.map((a) => [a.id, a]));
  const serverById = new Map(
    ancestors.filter((a) => a.server_id !== null && a.server_name !== null).map((a) => [a.server_id!, { id: a.server_id!, name: a.server_name! }]),
  );
  const unseen = [...new Set(rows.map((r) => r.server_id).filter((id): id is number => id !== null && !serverById.has(id)))];
  if (unseen.length) {
    for (const server of await db.selectFrom('servers').select(['id', 'name']).where('id', 'in', unseen).execute()) serverById.set(server.id, server);
  }
  return (row) => {
    const chain = pathIds(row.path)
      .map((id) => byId.get(id))
      .filter((u) => u !== undefined);
    const manager = row.role === 'manager' ? undefined : chain.find((u) => u.role === 'manager');
    const reseller = row.role === 'dealer' ? chain.find((u) => u.role === 'reseller') : undefined;
    const serverId = row.role === 'manager' ? row.server_id : (manager?.server_id ?? null);
    const parent = row.parent_id ? byId.get(row.parent_id) : undefined;
    // The topmost user above that is not active stops the branch (hierarchy/branch.ts).
    const blocker = chain.find((u) => u.id !== row.id && u.status !== 'active');
    return {
      id: row.id,
      name: row.name,
      username: row.username,
      phone: row.phone,
      role: row.role as Role,
      credits: row.credits,
      bonus_credits: row.bonus_credits,
      paid_credits: row.credits - row.bonus_credits,
      is_active: row.status === 'active',
      two_factor: Boolean(row.two_factor_at),
      last_login_at: row.last_login_at ?? null,
      last_login_ip: row.last_login_ip ?? null,
      status: row.status as HierarchyUser['status'],
      server_id: serverId,
      server: serverId !== null ? ref(serverById.get(serverId)) : null,
      parent_id: row.parent_id,
      parent: parent && parent.role !== 'admin' ? ref(parent) : null,
      manager: ref(manager),
      reseller: ref(reseller),
      total_children: Number(row.total_children ?? 0),
      total_accounts: Number(row.total_accounts ?? 0),
      created_at: row.created_at,
      updated_at: row.updated_at,
      blocked_by: blocker ? { id: blocker.id, username: blocker.username, role: blocker.role as Role, status: blocker.status } : null,
    };
  };
}

/** Turns rows into API objects. */
export async function present(db: Kysely<Database>, rows: MemberRow[]): Promise<HierarchyUser[]> {
  if (rows.length === 0) return [];
  return rows.map(await presenter(db, rows));
}

export async function presentOne(db: Kysely<Database>, id: number): Promise<HierarchyUser> {
  const [user] = await present(db, [await loadMember(db, id)]);
  return user;
}

/** A user of `role` that is not deleted, by id, or null. */
export async function liveUser(db: Kysely<Database>, id: number, role: Role): Promise<UserRow | null> {
  return (await db.selectFrom('users').selectAll().where('id', '=', id).where('role', '=', role).where('status', '!=', DELETED).executeTakeFirst()) ?? null;
}

/** Whether a user (deleted ones included, whose names stay taken) has this username, in any case. */
export async function usernameTaken(db: Kysely<Database>, username: string, exceptId?: number): Promise<boolean> {
  let q = db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(username)`, '=', username.toLowerCase());
  if (exceptId) q = q.where('id', '!=', exceptId);
  return Boolean(await q.executeTakeFirst());
}

/** Nothing orphans credits or accounts: 409 while the user still holds any (docs/domain.md). */
export async function refuseDeleteWhileHolding(db: Kysely<Database>, user: UserRow, childrenLabel: string): Promise<void> {
  const paid = user.credits - user.bonus_credits;
  if (paid > 0) throw conflict(HIERARCHY.deleteHasCredits(paid));
  const children = await db
    .selectFrom('users')
    .select(sql<number>`count(*)`.as('n'))
    .where('parent_id', '=', user.id)
    .where('status', '!=', DELETED)
    .executeTakeFirstOrThrow();
  if (Number(children.n) > 0) throw conflict(HIERARCHY.deleteHasChildren(Number(children.n), childrenLabel));
  const accounts = await db
    .selectFrom('accounts')
    .select(sql<number>`count(*)`.as('n'))
    .where('owner_id', '=', user.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(accounts.n) > 0) throw conflict(HIERARCHY.deleteHasAccounts(Number(accounts.n)));
}
