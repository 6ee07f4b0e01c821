/** Opaque bearer tokens: 256 random bits given to the client once, stored only as a SHA-256 hash. */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { prepared } from '../db/prepared';
import type { Database, UserRow } from '../db/schema';
import type { ViewAs } from '../http/sessionShape';
import { nowIso } from '../db/values';
import { blockedByAncestor } from '../hierarchy/branch';
import { SYSTEM_SETTINGS_KEY, type SystemSettings, systemSettingsOf } from '../settings';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Where a session is opened from, and for a view-as session the parent viewing. */
export interface IssueOptions {
  ip?: string | null;
  userAgent?: string | null;
  /** A view-as session: the parent, its own session, and whether it may act. */
  viewer?: { id: number; tokenId: number; mode: 'read' | 'act' };
  /** Sooner than the default lifetime. */
  expiresAt?: Date;
}

export async function issueToken(db: Kysely<Database>, userId: number, ttlHours: number, options: IssueOptions = {}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db
    .insertInto('auth_tokens')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now.toISOString(),
      expires_at: (options.expiresAt ?? new Date(now.getTime() + ttlHours * 3_600_000)).toISOString(),
      last_used_at: null,
      ip_address: options.ip ?? null,
      user_agent: options.userAgent ? options.userAgent.slice(0, 500) : null,
      viewer_id: options.viewer?.id ?? null,
      viewer_token_id: options.viewer?.tokenId ?? null,
      view_mode: options.viewer?.mode ?? null,
    })
    .execute();
  return token;
}

export interface Session {
  user: UserRow;
  tokenHash: string;
  /** The sign-in session's row; null for an API token, which is no session. */
  tokenId: number | null;
  expiresAt: string;
  /** Set when a parent views the panel as `user` (docs/security.md#view-as). */
  viewer: ViewAs | null;
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
    // A view-as session lives only as long as its parent, and the parent's own session, do.
    .leftJoin('users as viewer', 'viewer.id', 'auth_tokens.viewer_id')
    .leftJoin('auth_tokens as viewer_token', 'viewer_token.id', 'auth_tokens.viewer_token_id')
    .selectAll('users')
    .select((eb) => [
      'auth_tokens.id as token_id',
      'auth_tokens.expires_at as token_expires_at',
      'auth_tokens.last_used_at as token_last_used_at',
      'auth_tokens.viewer_id as token_viewer_id',
      'auth_tokens.view_mode as token_view_mode',
      'viewer.username as viewer_username',
      'viewer.name as viewer_name',
      'viewer.role as viewer_role',
      'viewer.path as viewer_path',
      'viewer.status as viewer_status',
      'viewer_token.expires_at as viewer_token_expires_at',
      eb.selectFrom('settings').select('value').where('key', '=', SYSTEM_SETTINGS_KEY).as('system_settings'),
      blockedByAncestor(db, 'users.path', 'users.id')(eb).as('branch_blocked'),
    ])
    .where('auth_tokens.token_hash', '=', tokenHash),
);

/** Last used is written at most this often per session: a write on every request would cost more than it tells. */
export const LAST_USED_EVERY_MS = 60_000;

export async function resolveToken(db: Kysely<Database>, token: string): Promise<Session | null> {
  const tokenHash = hashToken(token);
  const [row] = await sessionOf(db, tokenHash);
  const now = nowIso();
  if (!row || row.token_expires_at <= now) return null;
  const {
    token_id,
    token_expires_at,
    token_last_used_at,
    token_viewer_id,
    token_view_mode,
    viewer_username,
    viewer_name,
    viewer_role,
    viewer_path,
    viewer_status,
    viewer_token_expires_at,
    system_settings,
    branch_blocked,
    ...user
  } = row;
  let viewer: ViewAs | null = null;
  if (token_viewer_id !== null) {
    // The parent's own session ended, the parent is no longer active, or the user left its subtree.
    if (!viewer_token_expires_at || viewer_token_expires_at <= now || viewer_status !== 'active') return null;
    if (viewer_role !== 'admin' && (!viewer_path || !user.path.startsWith(viewer_path) || user.path === viewer_path)) return null;
    viewer = { id: token_viewer_id, username: viewer_username!, name: viewer_name!, canAct: token_view_mode === 'act', expiresAt: token_expires_at };
  }
  if (!token_last_used_at || Date.parse(now) - Date.parse(token_last_used_at) >= LAST_USED_EVERY_MS) {
    await db.updateTable('auth_tokens').set({ last_used_at: now }).where('id', '=', token_id).execute();
  }
  // PostgreSQL answers a boolean, SQLite 0 or 1.
  return {
    user,
    tokenHash,
    tokenId: token_id,
    expiresAt: token_expires_at,
    viewer,
    settings: systemSettingsOf(system_settings),
    branchBlocked: Boolean(Number(branch_blocked)),
  };
}

export const revokeToken = (db: Kysely<Database>, tokenHash: string) => db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).execute();

/** Signs the user out everywhere but the session that asked (after a password change). */
export const revokeOtherTokens = (db: Kysely<Database>, userId: number, keepHash: string) =>
  db.deleteFrom('auth_tokens').where('user_id', '=', userId).where('token_hash', '!=', keepHash).execute();

/** Ends the parent's own session a view-as session was opened from. */
export const revokeViewerSession = (db: Kysely<Database>, viewAsTokenId: number) =>
  db
    .deleteFrom('auth_tokens')
    .where('id', '=', (eb) => eb.selectFrom('auth_tokens as v').select('v.viewer_token_id').where('v.id', '=', viewAsTokenId))
    .execute();

export const revokeAllTokens = (db: Kysely<Database>, userId: number) => db.deleteFrom('auth_tokens').where('user_id', '=', userId).execute();

export const pruneExpiredTokens = (db: Kysely<Database>) => db.deleteFrom('auth_tokens').where('expires_at', '<=', nowIso()).execute();
