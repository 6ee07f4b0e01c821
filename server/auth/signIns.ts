/**
 * Sessions as their user sees them, and the sign-in history: each sign-in of a known user, success
 * or failure, with its address and browser, kept SIGN_IN_HISTORY_DAYS (docs/security.md#sessions).
 */
import { type Kysely, sql } from 'kysely';
import type { SignInReason } from '../../src/contract';
import type { Database } from '../db/schema';
import { nowIso } from '../db/values';
import { describeUserAgent } from './userAgent';

/** Sign-in events older than this are pruned by the scheduler. */
export const SIGN_IN_HISTORY_DAYS = 90;

export interface SignInFrom {
  ip: string | null;
  userAgent: string | null;
}

export async function recordSignIn(db: Kysely<Database>, userId: number, outcome: 'success' | 'failure', reason: SignInReason, from: SignInFrom): Promise<void> {
  const at = nowIso();
  await db
    .insertInto('sign_in_events')
    .values({ user_id: userId, outcome, reason, ip_address: from.ip, user_agent: from.userAgent?.slice(0, 500) ?? null, created_at: at })
    .execute();
  if (outcome === 'success') await db.updateTable('users').set({ last_login_at: at, last_login_ip: from.ip }).where('id', '=', userId).execute();
}

export const pruneSignIns = (db: Kysely<Database>, days = SIGN_IN_HISTORY_DAYS) =>
  db
    .deleteFrom('sign_in_events')
    .where('created_at', '<', new Date(Date.now() - days * 86_400_000).toISOString())
    .execute();

const browserOf = (userAgent: string | null) => describeUserAgent(userAgent) ?? '';

/** The user's own live sessions, newest use first (view-as sessions of its parents are theirs, not listed). */
export async function listSessions(db: Kysely<Database>, userId: number, currentId: number | null) {
  const rows = await db
    .selectFrom('auth_tokens')
    .select(['id', 'created_at', 'last_used_at', 'expires_at', 'ip_address', 'user_agent'])
    .where('user_id', '=', userId)
    .where('viewer_id', 'is', null)
    .where('expires_at', '>', nowIso())
    .orderBy(sql`coalesce(last_used_at, created_at)`, 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(({ user_agent, ...row }) => ({ ...row, browser: browserOf(user_agent), current: row.id === currentId }));
}

/** Ends one of the user's own sessions (and any view-as opened from it); false when it is not the user's. */
export async function endSession(db: Kysely<Database>, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('auth_tokens').where('id', '=', id).where('user_id', '=', userId).where('viewer_id', 'is', null).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) return false;
  await db.deleteFrom('auth_tokens').where('viewer_token_id', '=', id).execute();
  return true;
}

export interface SignInRow {
  id: number;
  created_at: string;
  outcome: string;
  reason: string | null;
  ip_address: string | null;
  user_agent: string | null;
}

/** A history row as the API shows it: the browser read from the user agent. */
export const presentSignIn = ({ user_agent, outcome, ...row }: SignInRow) => ({ ...row, outcome: outcome as 'success' | 'failure', browser: browserOf(user_agent) });
