/**
 * How the amounts offered in the Add Credits dialog are generated, shared by the API (allocation
 * lookups, the settings test panel) and the panel (previews). Pure functions of the settings.
 */
import {
  CREDIT_LEVELS_DEFAULTS,
  CREDIT_LEVELS_PREVIEW_MAX,
  CREDIT_OPTIONS_DEFAULTS,
  FALLBACK_CREDIT_OPTIONS,
  MANAGER_ALLOCATION_MAX,
} from './constants';

export type CreditOptionsSettings = {
  min_credits: number;
  max_credits: number;
  increment_step: number;
  preset_amounts: number[];
  enable_percentage_options: boolean;
  percentage_options: number[];
  enable_all_available_option: boolean;
  is_active: boolean;
};

export type CreditLevelsConfig = {
  minimum: number;
  maximum: number;
  step: number;
  promo_enabled: boolean;
  promo_ratio: number;
};

export interface CreditOption {
  value: number;
  display_text: string;
  bonus_credits: number;
  total_credits: number;
}

export const defaultCreditOptionsSettings = (): CreditOptionsSettings => ({
  ...CREDIT_OPTIONS_DEFAULTS,
  preset_amounts: [...CREDIT_OPTIONS_DEFAULTS.preset_amounts],
  percentage_options: [...CREDIT_OPTIONS_DEFAULTS.percentage_options],
});

export const defaultCreditLevels = (): CreditLevelsConfig => ({ ...CREDIT_LEVELS_DEFAULTS });

/** Fallback list: 10 in steps of 5 up to `max` (2000 for admin, else the balance). */
export function fallbackCreditOptions(max: number): number[] {
  const out: number[] = [];
  for (let v = FALLBACK_CREDIT_OPTIONS.start; v <= max; v += FALLBACK_CREDIT_OPTIONS.step) out.push(v);
  return out;
}

/**
 * Amounts from the credit options settings for a giver holding `userCredits` (null: admin, no cap):
 * presets, percentages of the balance and "all available", kept within [min, max] and the balance,
 * snapped to the increment step, without duplicates, ascending.
 */
export function generateCreditOptions(settings: CreditOptionsSettings, userCredits: number | null): number[] {
  const cap = Math.min(settings.max_credits, userCredits ?? Number.POSITIVE_INFINITY);
  if (!settings.is_active) return fallbackCreditOptions(userCredits ?? FALLBACK_CREDIT_OPTIONS.adminMax);
  const step = Math.max(1, settings.increment_step);
  const snap = (v: number) => Math.floor(v / step) * step;
  const candidates = [...settings.preset_amounts];
  if (userCredits !== null) {
    if (settings.enable_percentage_options) {
      for (const p of settings.percentage_options) candidates.push(snap((userCredits * p) / 100));
    }
    if (settings.enable_all_available_option) candidates.push(userCredits);
  }
  const set = new Set(candidates.filter((v) => Number.isInteger(v) && v >= settings.min_credits && v <= cap && v > 0));
  return [...set].sort((a, b) => a - b);
}

/** The credit levels for admin allocations to managers: up to 21 from the minimum, with their bonus. */
export function creditLevels(config: CreditLevelsConfig, limit = CREDIT_LEVELS_PREVIEW_MAX): CreditOption[] {
  const out: CreditOption[] = [];
  const max = Math.min(config.maximum, MANAGER_ALLOCATION_MAX);
  for (let i = 0, base = config.minimum; i < limit && base <= max; i++, base += Math.max(1, config.step)) {
    out.push(levelOption(config, base));
  }
  return out;
}

/** The bonus a credit level gives: round(base x ratio) when the levels' promo is on. */
export function levelOption(config: CreditLevelsConfig, base: number): CreditOption {
  const bonus = config.promo_enabled ? Math.round(base * config.promo_ratio) : 0;
  return {
    value: base,
    display_text: bonus > 0 ? `${base} credits + ${bonus} bonus` : `${base} credits`,
    bonus_credits: bonus,
    total_credits: base + bonus,
  };
}
