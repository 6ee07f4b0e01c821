/**
 * Each user's own preferences: one JSON text per user (user_preferences), read with the contract's
 * defaults and changed by merge patches. Only ever the caller's own row: nothing here takes another id
 * from a request.
 */
import { type Kysely, sql } from 'kysely';
import { type PreferencesPatch, type UserPreferences, userPreferences } from '../src/contract';
import { isPostgres } from './db/dialect';
import type { Database } from './db/schema';
import { inTransaction } from './db/transaction';
import { validationError } from './errors';
import { nowIso } from './db/values';

/**
 * The stored text as preferences. A field that no longer passes the contract's rule (written by an
 * older release, or by hand) falls back to its default rather than failing the whole answer.
 */
function parseStored(text: string | undefined): UserPreferences {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) raw = parsed as Record<string, unknown>;
  } catch {
    // Unreadable text: the defaults.
  }
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(userPreferences.shape)) {
    if (field.safeParse(raw[key]).success) kept[key] = raw[key];
  }
  return userPreferences.parse(kept);
}

export async function readPreferences(db: Kysely<Database>, userId: number): Promise<UserPreferences> {
  const row = await db.selectFrom('user_preferences').select('preferences').where('user_id', '=', userId).executeTakeFirst();
  return parseStored(row?.preferences);
}

/** RFC 7396: objects merge key by key, null removes a key, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const merged: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = mergePatch(merged[key], value);
  }
  return merged;
}

/**
 * Applies a change to the user's preferences and answers them before and after. The row is locked
 * while merged (PostgreSQL: for update; SQLite serialises writers), so two changes to different
 * fields made at once both hold.
 */
export async function updatePreferences(db: Kysely<Database>, userId: number, patch: PreferencesPatch): Promise<{ before: UserPreferences; after: UserPreferences }> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    await trx
      .insertInto('user_preferences')
      .values({ user_id: userId, preferences: '{}', updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    let read = trx.selectFrom('user_preferences').select('preferences').where('user_id', '=', userId);
    if (isPostgres(trx)) read = read.modifyEnd(sql`for update`);
    const before = parseStored((await read.executeTakeFirstOrThrow()).preferences);
    // The patch passed its own schema; what it makes together with the stored fields may still break
    // a bound of the whole (more lists than kept), refused under that field.
    const merged = userPreferences.safeParse(mergePatch(before, patch));
    if (!merged.success) throw validationError(Object.fromEntries(merged.error.issues.map((issue) => [String(issue.path[0] ?? 'preferences'), issue.message])));
    const after = merged.data;
    await trx
      .updateTable('user_preferences')
      .set({ preferences: JSON.stringify(after), updated_at: now })
      .where('user_id', '=', userId)
      .execute();
    return { before, after };
  });
}
