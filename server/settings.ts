/** System settings: defaults from the contract, stored values in the settings table (JSON per key). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  SYSTEM_SETTING_DEFAULTS,
  CREDIT_LEVELS_SETTING,
  CREDIT_OPTIONS_SETTING,
  type CreditLevelsConfig,
  type CreditOptionsSettings,
  type SystemSettingsValues,
  defaultCreditLevels,
  defaultCreditOptionsSettings,
} from '../src/contract';
import { isPostgres } from './db/dialect';
import { inTransaction } from './db/transaction';
import type { Database } from './db/schema';
import { nowIso, parseJson } from './db/values';

export type SystemSettings = SystemSettingsValues;

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

/** The system settings from the stored JSON text of their row (null: no row yet), defaults merged. */
export const systemSettingsOf = (stored: string | null | undefined): SystemSettings =>
  ({ ...SYSTEM_SETTING_DEFAULTS, ...parseJson<Partial<SystemSettings>>(stored, {}) }) as SystemSettings;

export async function getSystemSettings(db: Kysely<Database>): Promise<SystemSettings> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', SYSTEM_KEY).executeTakeFirst();
  return systemSettingsOf(row?.value);
}

/** The system settings as the request found them: read with the session (server/http/guard.ts), else now. */
export const settingsOf = (app: FastifyInstance, request: FastifyRequest): Promise<SystemSettings> | SystemSettings =>
  request.settings ?? getSystemSettings(app.db.kysely);

export async function updateSystemSettings(db: Kysely<Database>, patch: Partial<SystemSettings>): Promise<SystemSettings> {
  const next = { ...(await getSystemSettings(db)), ...patch };
  await putSetting(db, SYSTEM_KEY, next);
  return next;
}

/**
 * Read-modify-write of one settings key in one transaction (the row locked on PostgreSQL), so two
 * admins saving different fields at once both keep their change. Returns the stored value.
 */
export async function patchSetting<T extends object>(db: Kysely<Database>, key: string, defaults: T, change: (current: T) => T): Promise<T> {
  return inTransaction(db, async (trx) => {
    const updated_at = nowIso();
    await trx
      .insertInto('settings')
      .values({ key, value: '{}', updated_at })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    let read = trx.selectFrom('settings').select('value').where('key', '=', key);
    if (isPostgres(trx)) read = read.forUpdate();
    const row = await read.executeTakeFirstOrThrow();
    const next = change({ ...defaults, ...parseJson<Partial<T>>(row.value, {}) });
    await trx
      .updateTable('settings')
      .set({ value: JSON.stringify(next), updated_at })
      .where('key', '=', key)
      .execute();
    return next;
  });
}

export const SYSTEM_SETTINGS_KEY = SYSTEM_KEY;

/** The credit levels of admin allocations to managers (settings key 'credit_levels'), defaults merged. */
export async function getCreditLevels(db: Kysely<Database>): Promise<CreditLevelsConfig> {
  return { ...defaultCreditLevels(), ...(await getSetting<Partial<CreditLevelsConfig>>(db, CREDIT_LEVELS_SETTING, {})) };
}

/** The credit options settings (settings key 'credit_options'), defaults merged. */
export async function getCreditOptionsSettings(db: Kysely<Database>): Promise<CreditOptionsSettings> {
  return { ...defaultCreditOptionsSettings(), ...(await getSetting<Partial<CreditOptionsSettings>>(db, CREDIT_OPTIONS_SETTING, {})) };
}
