/** Opaque bearer tokens: 256 random bits given to the client once, stored only as a SHA-256 hash. */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { prepared } from '../db/prepared';
import type { Database, UserRow } from '../db/schema';
import { nowIso } from '../db/values';
import { blockedByAncestor } from '../hierarchy/branch';
import { SYSTEM_SETTINGS_KEY, type SystemSettings, systemSettingsOf } from '../settings';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function issueToken(db: Kysely<Database>, userId: number, ttlHours: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db
    .insertInto('auth_tokens')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ttlHours * 3_600_000).toISOString(),
      last_used_at: null,
    })
    .execute();
  return token;
}

export interface Session {
  user: UserRow;
  tokenHash: string;
  /** The system settings as this request found them (maintenance, credit limits, promos). */
  settings: SystemSettings;
  /** A user above is not active: the user's branch is stopped (hierarchy/branch.ts). */
  branchBlocked: boolean;
}

/**
 * The user behind a live token, or null (unknown, expired, or the user is gone). The system settings
 * come in the same statement: every authenticated request needs them, and a round trip saved on each
 * request is what the database's throughput is made of. So does whether a user above is not active
 * (the branch is stopped): a primary-key lookup of each id on the user's path.
 */
const sessionOf = prepared((db, tokenHash: string) =>
  db
    .selectFrom('auth_tokens')
    .innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .selectAll('users')
    .select((eb) => [
      'auth_tokens.expires_at as token_expires_at',
      eb.selectFrom('settings').select('value').where('key', '=', SYSTEM_SETTINGS_KEY).as('system_settings'),
      blockedByAncestor(db, 'users.path', 'users.id')(eb).as('branch_blocked'),
    ])
    .where('auth_tokens.token_hash', '=', tokenHash),
);

export async function resolveToken(db: Kysely<Database>, token: string): Promise<Session | null> {
  const tokenHash = hashToken(token);
  const [row] = await sessionOf(db, tokenHash);
  if (!row || row.token_expires_at <= nowIso()) return null;
  const { token_expires_at: _expires, system_settings, branch_blocked, ...user } = row;
  // PostgreSQL answers a boolean, SQLite 0 or 1.
  return { user, tokenHash, settings: systemSettingsOf(system_settings), branchBlocked: Boolean(Number(branch_blocked)) };
}

export const revokeToken = (db: Kysely<Database>, tokenHash: string) => db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).execute();

/** Signs the user out everywhere but the session that asked (after a password change). */
export const revokeOtherTokens = (db: Kysely<Database>, userId: number, keepHash: string) =>
  db.deleteFrom('auth_tokens').where('user_id', '=', userId).where('token_hash', '!=', keepHash).execute();

export const revokeAllTokens = (db: Kysely<Database>, userId: number) => db.deleteFrom('auth_tokens').where('user_id', '=', userId).execute();

export const pruneExpiredTokens = (db: Kysely<Database>) => db.deleteFrom('auth_tokens').where('expires_at', '<=', nowIso()).execute();
