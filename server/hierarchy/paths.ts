/**
 * Moving a user under another parent rewrites the ancestor paths of its whole subtree (users, and the
 * owner_path copies on accounts and tickets) in the caller's transaction, so scoping never sees a
 * half-moved branch.
 */
import { type Transaction, sql } from 'kysely';
import type { Database, UserRow } from '../db/schema';
import { nowIso } from '../db/values';
import { pathEnd } from '../http/scope';

export async function moveSubtree(trx: Transaction<Database>, user: Pick<UserRow, 'id' | 'path'>, newParent: Pick<UserRow, 'id' | 'path'>): Promise<string> {
  const oldPath = user.path;
  const newPath = `${newParent.path}${user.id}/`;
  await trx.updateTable('users').set({ parent_id: newParent.id, updated_at: nowIso() }).where('id', '=', user.id).execute();
  if (newPath === oldPath) return newPath;
  const rest = (column: string) => sql<string>`cast(${newPath} as text) || substr(${sql.ref(column)}, cast(${oldPath.length + 1} as integer))`;
  const end = pathEnd(oldPath);
  await trx
    .updateTable('users')
    .set({ path: rest('path') })
    .where('path', '>=', oldPath)
    .where('path', '<', end)
    .execute();
  await trx
    .updateTable('accounts')
    .set({ owner_path: rest('owner_path') })
    .where('owner_path', '>=', oldPath)
    .where('owner_path', '<', end)
    .execute();
  await trx
    .updateTable('tickets')
    .set({ owner_path: rest('owner_path') })
    .where('owner_path', '>=', oldPath)
    .where('owner_path', '<', end)
    .execute();
  return newPath;
}
