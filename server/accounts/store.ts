/** Reading accounts with their owner and server, scoped to the caller, and how they are shown. */
import type { Insertable, Kysely } from 'kysely';
import { type Account, type Role, type UserRef, formatMac } from '../../src/contract';
import type { AccountRow, AccountsTable, Database, UserRow } from '../db/schema';
import { isPostgres } from '../db/dialect';
import { bool, nowIso } from '../db/values';
import { notFound } from '../errors';
import { within } from '../http/scope';

export type Actor = Pick<UserRow, 'id' | 'role' | 'path'>;

export type AccountJoined = AccountRow & {
  owner_name: string;
  owner_username: string;
  owner_role: string;
  server_name: string | null;
};

export const MASKED_PASSWORD = '********';

type AccountFields = Pick<
  Insertable<AccountsTable>,
  'owner_id' | 'owner_path' | 'server_id' | 'login' | 'full_name' | 'pwd_txt' | 'mac_address' | 'expiry_date' | 'status' | 'created_at'
>;

/** A new account row: the given fields, and a fresh account's state for the rest (no renewal yet, offline). */
export const newAccountRow = (fields: AccountFields & Partial<Insertable<AccountsTable>>): Insertable<AccountsTable> => ({
  validity_months: 0,
  is_promo: 0,
  bonus_months: 0,
  is_trial: 0,
  auto_renew_months: null,
  auto_renew_end_date: null,
  auto_renew_failed_at: null,
  auto_renew_error: null,
  state: 'offline',
  last_active: null,
  ip_address: null,
  connection_status: 'offline',
  device_info: null,
  updated_at: fields.created_at,
  ...fields,
});

/** Live (not deleted) accounts joined with owner and server; add `.where(within(...))` to scope. */
export function accountsFrom(db: Kysely<Database>) {
  return db.selectFrom('accounts as a').innerJoin('users as o', 'o.id', 'a.owner_id').leftJoin('servers as s', 's.id', 'a.server_id').where('a.deleted_at', 'is', null);
}

export const scopedAccounts = (db: Kysely<Database>, actor: Actor) => accountsFrom(db).where(within(actor, 'a.owner_path'));

export const selectAccount = <Q extends ReturnType<typeof accountsFrom>>(qb: Q) =>
  qb.selectAll('a').select(['o.name as owner_name', 'o.username as owner_username', 'o.role as owner_role', 's.name as server_name']);

/** The account if it lies in the caller's subtree, else 404. */
export async function findAccount(db: Kysely<Database>, actor: Actor, id: number): Promise<AccountJoined> {
  const row = await selectAccount(scopedAccounts(db, actor)).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row as AccountJoined;
}

export async function loadAccount(db: Kysely<Database>, id: number): Promise<AccountJoined> {
  return (await selectAccount(accountsFrom(db)).where('a.id', '=', id).executeTakeFirstOrThrow()) as AccountJoined;
}

/** Locks the caller's account row for the rest of the transaction (lockAccounts) and returns its current values. */
export async function lockAccount(db: Kysely<Database>, actor: Actor, id: number): Promise<AccountRow> {
  const [row] = await lockAccounts(db, actor, [id]);
  return row;
}

/**
 * Locks the caller's accounts for the rest of the transaction and returns their current values, in
 * the order given; 404 unless every one is the caller's. PostgreSQL locks the rows without writing
 * them (in id order); a SQLite transaction holds the database's write lock from its start
 * (BEGIN IMMEDIATE), so reading them is enough there. (A no-op UPDATE would write a new version of
 * each row into every index of accounts and run the kept figures' trigger.)
 */
export async function lockAccounts(db: Kysely<Database>, actor: Actor, ids: number[]): Promise<AccountRow[]> {
  const query = db.selectFrom('accounts').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).where(within(actor, 'owner_path')).orderBy('id');
  const rows = isPostgres(db) ? await query.forNoKeyUpdate().execute() : await query.execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.map((id) => byId.get(id));
  if (ordered.some((row) => !row) || new Set(ids).size !== ids.length) throw notFound();
  return ordered as AccountRow[];
}

/** loadAccount for several ids in one query, in the order given. */
export async function loadAccounts(db: Kysely<Database>, ids: number[]): Promise<AccountJoined[]> {
  const rows = (await selectAccount(accountsFrom(db)).where('a.id', 'in', ids).execute()) as AccountJoined[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}

/** Only reseller and dealer callers see the device password in plain text (decisions file). */
export const seesPlainPassword = (role: string) => role === 'reseller' || role === 'dealer';

export function toAccount(row: AccountJoined, viewerRole: Role | string): Account {
  const owner: UserRef = { id: row.owner_id, name: row.owner_name, username: row.owner_username, role: row.owner_role as Role };
  return {
    id: row.id,
    login: row.login,
    full_name: row.full_name,
    pwd_txt: seesPlainPassword(viewerRole) ? row.pwd_txt : MASKED_PASSWORD,
    mac_address: formatMac(row.mac_address),
    expiry_date: row.expiry_date,
    validity_months: row.validity_months,
    created_at: row.created_at,
    updated_at: row.updated_at,
    status: row.status as Account['status'],
    is_active: row.status === 'active',
    is_promo: bool(row.is_promo),
    bonus_months: row.bonus_months,
    auto_renew_months: row.auto_renew_months,
    auto_renew_end_date: row.auto_renew_end_date,
    auto_renew_failed_at: row.auto_renew_failed_at,
    auto_renew_error: row.auto_renew_error,
    server_id: row.server_id,
    server: row.server_id !== null ? { id: row.server_id, name: row.server_name ?? '' } : null,
    state: row.state === 'online' ? 'online' : 'offline',
    last_active: row.last_active,
    ip_address: row.ip_address,
    connection_status: row.connection_status,
    is_trial: bool(row.is_trial),
    owner,
  };
}

/**
 * Soft delete: the ledger keeps its reference; leaving the server frees the MAC address and login
 * there, and auto-renew stops.
 */
export async function softDeleteAccount(db: Kysely<Database>, id: number): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('accounts')
    .set({ deleted_at: now, server_id: null, auto_renew_months: null, state: 'offline', updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}
