/** How a user row is shown through the API. Password hashes never leave the server. */
import { type CurrentUser, type SystemSettingsValues, twoFactorRequired } from '../src/contract';
import type { ViewAs } from './http/sessionShape';
import type { UserRow } from './db/schema';

/** The settings say whether the user's role requires a second factor it does not have yet. */
export function toCurrentUser(row: UserRow, settings: SystemSettingsValues, viewer?: ViewAs | null): CurrentUser {
  const admin = row.role === 'admin';
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    phone: row.phone,
    role: row.role as CurrentUser['role'],
    credits: admin ? null : row.credits,
    bonus_credits: admin ? null : row.bonus_credits,
    server_id: row.server_id,
    is_active: row.status === 'active',
    created_at: row.created_at,
    two_factor: Boolean(row.two_factor_at),
    // Someone viewing as the user has nothing to enrol: it is not the user.
    two_factor_enrol: !viewer && !row.two_factor_at && twoFactorRequired(settings, row.role),
    // Only in a view-as session: a user's own answer keeps its shape.
    ...(viewer
      ? {
          view_as: {
            viewer: { id: viewer.id, username: viewer.username, name: viewer.name },
            can_act: viewer.canAct && settings.view_as_can_act,
            expires_at: viewer.expiresAt,
          },
        }
      : {}),
  };
}

/** Inserts a user below `parent` (or at the root for an admin) and sets its ancestor path. */
export async function insertUser(
  db: import('kysely').Kysely<import('./db/schema').Database>,
  parent: Pick<UserRow, 'id' | 'path'> | null,
  fields: Pick<UserRow, 'role' | 'name' | 'username' | 'password_hash'> & Partial<Pick<UserRow, 'phone' | 'status' | 'server_id'>>,
): Promise<UserRow> {
  const now = new Date().toISOString();
  const { id } = await db
    .insertInto('users')
    .values({
      role: fields.role,
      name: fields.name,
      username: fields.username,
      password_hash: fields.password_hash,
      phone: fields.phone ?? null,
      status: fields.status ?? 'active',
      server_id: fields.server_id ?? null,
      parent_id: parent?.id ?? null,
      path: '/',
      credits: 0,
      bonus_credits: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return db
    .updateTable('users')
    .set({ path: `${parent?.path ?? '/'}${id}/` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
