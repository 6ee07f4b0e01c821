import type { Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords';
import type { Database, UserRow } from '../db/schema';
import { insertUser } from '../users';

/** Creates the first admin when none exists (production: ADMIN_USERNAME / ADMIN_PASSWORD or the CLI). */
export async function ensureAdmin(db: Kysely<Database>, username: string, password: string, name = 'Administrator'): Promise<UserRow | null> {
  const existing = await db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirst();
  if (existing) return null;
  return insertUser(db, null, { role: 'admin', name, username, password_hash: await hashPassword(password) });
}
