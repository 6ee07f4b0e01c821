/** System settings: defaults from the contract, stored values in the settings table (JSON per key). */
import type { Kysely } from 'kysely';
import { SYSTEM_SETTING_DEFAULTS } from '../src/contract';
import type { Database } from './db/schema';
import { nowIso, parseJson } from './db/values';

export type SystemSettings = { -readonly [K in keyof typeof SYSTEM_SETTING_DEFAULTS]: (typeof SYSTEM_SETTING_DEFAULTS)[K] extends boolean ? boolean : number };

const SYSTEM_KEY = 'system';

export async function getSetting<T>(db: Kysely<Database>, key: string, fallback: T): Promise<T> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? parseJson<T>(row.value, fallback) : fallback;
}

export async function putSetting(db: Kysely<Database>, key: string, value: unknown): Promise<void> {
  const text = JSON.stringify(value);
  const updated_at = nowIso();
  await db
    .insertInto('settings')
    .values({ key, value: text, updated_at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updated_at }))
    .execute();
}

export async function getSystemSettings(db: Kysely<Database>): Promise<SystemSettings> {
  const stored = await getSetting<Partial<SystemSettings>>(db, SYSTEM_KEY, {});
  return { ...SYSTEM_SETTING_DEFAULTS, ...stored } as SystemSettings;
}

export async function updateSystemSettings(db: Kysely<Database>, patch: Partial<SystemSettings>): Promise<SystemSettings> {
  const next = { ...(await getSystemSettings(db)), ...patch };
  await putSetting(db, SYSTEM_KEY, next);
  return next;
}
