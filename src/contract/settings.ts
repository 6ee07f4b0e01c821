/**
 * The system settings (docs/domain.md#system-settings, with the trial limits: the period of one trial
 * per device, trials per user per day): the URL key of each per-key PUT, the one body field it
 * carries, and its bounds. The API validates with this table and the panel's provider maps
 * keys with it, so the two never disagree.
 */
import { SYSTEM_SETTING_DEFAULTS } from './constants';
import type { Role } from './roles';

export type SystemSettingField = keyof typeof SYSTEM_SETTING_DEFAULTS;

export type SystemSettingsValues = {
  -readonly [K in SystemSettingField]: (typeof SYSTEM_SETTING_DEFAULTS)[K] extends boolean ? boolean : number;
};

export type SettingDef =
  { field: SystemSettingField; label: string; type: 'int'; min: number; max: number; fallback: number } | { field: SystemSettingField; label: string; type: 'boolean' };

export const SETTING_KEYS = {
  'trial-days': { field: 'trial_days', label: 'Trial days', type: 'int', min: 1, max: 365, fallback: 7 },
  'default-credits': { field: 'default_credits', label: 'Default credits', type: 'int', min: 1, max: 1000, fallback: 1 },
  'minimum-credit-limit': { field: 'minimum_credit_limit', label: 'Minimum credit limit', type: 'int', min: 0, max: 1000, fallback: 0 },
  'minimum-credits-reseller-creation': {
    field: 'minimum_credits_reseller_creation',
    label: 'Minimum credits for reseller creation',
    type: 'int',
    min: 0,
    max: 1000,
    fallback: 0,
  },
  'minimum-credits-dealer-creation': {
    field: 'minimum_credits_dealer_creation',
    label: 'Minimum credits for dealer creation',
    type: 'int',
    min: 0,
    max: 1000,
    fallback: 0,
  },
  'minimum-credits-trial-user-creation': {
    field: 'minimum_credits_trial_user_creation',
    label: 'Minimum credits for trial user creation',
    type: 'int',
    min: 0,
    max: 1000,
    fallback: 0,
  },
  'trial-period-days': { field: 'trial_period_days', label: 'Trial period days', type: 'int', min: 1, max: 3650, fallback: SYSTEM_SETTING_DEFAULTS.trial_period_days },
  'trials-per-day': { field: 'trials_per_day', label: 'Trials per day', type: 'int', min: 0, max: 1000, fallback: SYSTEM_SETTING_DEFAULTS.trials_per_day },
  'trials-enabled': { field: 'enable_trials', label: 'Trials', type: 'boolean' },
  'promos-enabled': { field: 'enable_promos', label: 'Promos', type: 'boolean' },
  'reseller-dealer-promos-enabled': { field: 'enable_reseller_dealer_promos', label: 'Reseller and dealer promos', type: 'boolean' },
  'global-discounts-enabled': { field: 'global_discounts_enabled', label: 'Global discounts', type: 'boolean' },
  'maintenance-mode': { field: 'maintenance_mode', label: 'Maintenance mode', type: 'boolean' },
  'two-factor-admin': { field: 'two_factor_admin', label: 'Two-factor required for admins', type: 'boolean' },
  'two-factor-manager': { field: 'two_factor_manager', label: 'Two-factor required for managers', type: 'boolean' },
  'two-factor-reseller': { field: 'two_factor_reseller', label: 'Two-factor required for resellers', type: 'boolean' },
  'two-factor-dealer': { field: 'two_factor_dealer', label: 'Two-factor required for dealers', type: 'boolean' },
  'view-as-can-act': { field: 'view_as_can_act', label: 'View as may act', type: 'boolean' },
} as const satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof SETTING_KEYS;

export const isSettingKey = (key: string): key is SettingKey => Object.prototype.hasOwnProperty.call(SETTING_KEYS, key);

/** The URL key that updates a settings field ('trial_days' -> 'trial-days'). */
export function settingKeyOf(field: SystemSettingField): SettingKey {
  const entry = Object.entries(SETTING_KEYS).find(([, def]) => def.field === field);
  if (!entry) throw new Error(`No setting key for ${field}`);
  return entry[0] as SettingKey;
}

/**
 * A numeric setting typed in a form: the number, or the setting's fallback when it is not a number
 * (trial_days falls back to 7, default_credits to 1).
 */
export function settingNumberOrFallback(key: SettingKey, input: unknown): number {
  const def: SettingDef = SETTING_KEYS[key];
  if (def.type !== 'int') throw new Error(`${key} is not a numeric setting`);
  const n = typeof input === 'number' ? input : typeof input === 'string' && input.trim() !== '' ? Number(input) : Number.NaN;
  return Number.isFinite(n) ? Math.trunc(n) : def.fallback;
}

/** Settings keys of the settings table other modules read (decisions: credit levels and options). */
export const CREDIT_LEVELS_SETTING = 'credit_levels';
export const CREDIT_OPTIONS_SETTING = 'credit_options';

/** The system setting that requires two-factor sign-in of a role. */
export const TWO_FACTOR_SETTING = {
  admin: 'two_factor_admin',
  manager: 'two_factor_manager',
  reseller: 'two_factor_reseller',
  dealer: 'two_factor_dealer',
} as const satisfies Record<Role, SystemSettingField>;

/** Does the role require a second factor under these settings? */
export const twoFactorRequired = (settings: SystemSettingsValues, role: string): boolean =>
  Object.prototype.hasOwnProperty.call(TWO_FACTOR_SETTING, role) && Boolean(settings[TWO_FACTOR_SETTING[role as Role]]);
