/**
 * The settings credit moves read: credit levels (admin -> manager), credit options (every other
 * allocation), and the active user promos. The admin configuration API writes them; defaults come
 * from the contract, and a stored object is merged over them so a partial value never breaks a move.
 */
import type { Kysely } from 'kysely';
import {
  type CreditLevelsConfig,
  type CreditOptionsSettings,
  defaultCreditLevels,
  defaultCreditOptionsSettings,
} from '../../src/contract';
import type { Database } from '../db/schema';
import { getSetting } from '../settings';

export const CREDIT_LEVELS_KEY = 'credit_levels';
export const CREDIT_OPTIONS_KEY = 'credit_options';

export async function getCreditLevels(db: Kysely<Database>): Promise<CreditLevelsConfig> {
  const stored = await getSetting<Partial<CreditLevelsConfig>>(db, CREDIT_LEVELS_KEY, {});
  return { ...defaultCreditLevels(), ...stored };
}

export async function getCreditOptionsSettings(db: Kysely<Database>): Promise<CreditOptionsSettings> {
  const stored = await getSetting<Partial<CreditOptionsSettings>>(db, CREDIT_OPTIONS_KEY, {});
  return { ...defaultCreditOptionsSettings(), ...stored };
}
