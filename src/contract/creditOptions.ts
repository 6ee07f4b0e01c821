/**
 * How the amounts offered in the Add Credits dialog are generated, shared by the API (allocation
 * lookups, the settings test panel) and the panel (previews). Pure functions of the settings.
 */
import { CREDIT_LEVELS_DEFAULTS, CREDIT_LEVELS_PREVIEW_MAX, CREDIT_OPTIONS_DEFAULTS, FALLBACK_CREDIT_OPTIONS, MANAGER_ALLOCATION_MAX } from './constants';
import { plural } from './format';

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
  /**
   * Set on an amount computed from a balance rather than configured: what it is ('25% of your
   * balance', 'All your credits'). The pickers list these apart from the configured amounts.
   */
  share?: string;
}

/** An amount a picker offers: configured (no share) or computed from a balance (with what it is). */
export interface CreditChoice {
  value: number;
  share?: string;
}

/** How the computed amounts are named: a percentage of whose balance, and taking all of it. */
export interface ShareLabels {
  percent: (p: number) => string;
  all: string;
}

export const ALLOCATION_SHARES: ShareLabels = { percent: (p) => `${p}% of your balance`, all: 'All your credits' };
export const RECOVERY_SHARES: ShareLabels = { percent: (p) => `${p}% of the paid credits`, all: 'All paid credits' };

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
 * The amounts a picker offers for a balance of `userCredits` (null: admin, no cap): first the
 * configured presets, then, apart, the amounts computed from the balance (percentages snapped to the
 * increment step, and "all"), each named. All within [min, max] and the balance, without duplicates
 * (a computed amount equal to a preset is the preset, except "all", which replaces it).
 */
export function creditChoices(settings: CreditOptionsSettings, userCredits: number | null, labels: ShareLabels = ALLOCATION_SHARES): CreditChoice[] {
  if (!settings.is_active) return fallbackCreditOptions(userCredits ?? FALLBACK_CREDIT_OPTIONS.adminMax).map((value) => ({ value }));
  const cap = Math.min(settings.max_credits, userCredits ?? Number.POSITIVE_INFINITY);
  const fits = (v: number) => Number.isInteger(v) && v > 0 && v >= settings.min_credits && v <= cap;
  const step = Math.max(1, settings.increment_step);
  const snap = (v: number) => Math.floor(v / step) * step;
  const shares = new Map<number, string>();
  if (userCredits !== null) {
    if (settings.enable_all_available_option && fits(userCredits)) shares.set(userCredits, labels.all);
    if (settings.enable_percentage_options) {
      for (const p of [...settings.percentage_options].sort((a, b) => a - b)) {
        const v = snap((userCredits * p) / 100);
        if (fits(v) && !shares.has(v)) shares.set(v, labels.percent(p));
      }
    }
  }
  const presets = [...new Set(settings.preset_amounts)].filter((v) => fits(v) && (!shares.has(v) || shares.get(v) !== labels.all));
  for (const v of presets) shares.delete(v);
  return [...presets.sort((a, b) => a - b).map((value) => ({ value })), ...[...shares].sort(([a], [b]) => a - b).map(([value, share]) => ({ value, share }))];
}

/** Every amount `creditChoices` offers, ascending (the settings test panel's generated options). */
export function generateCreditOptions(settings: CreditOptionsSettings, userCredits: number | null): number[] {
  return creditChoices(settings, userCredits)
    .map((c) => c.value)
    .sort((a, b) => a - b);
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

/** An amount with its bonus, as the pickers name it ('100 credits + 10 bonus'). */
export function pricedOption(value: number, bonus: number, share?: string): CreditOption {
  return {
    value,
    display_text: bonus > 0 ? `${plural(value, 'credit')} + ${bonus} bonus` : plural(value, 'credit'),
    bonus_credits: bonus,
    total_credits: value + bonus,
    ...(share ? { share } : {}),
  };
}

/** One promo of a server as the bonus rule needs it: buying credits_required or more gives bonus_credits. */
export interface BonusTier {
  credits_required: number;
  bonus_credits: number;
}

/**
 * How the bonus of an allocation is reckoned, stated by the allocation options so a typed amount is
 * priced in the panel by the rule the move applies: the credit levels' ratio (admin to a manager), the
 * promos of the recipient's server, or none (promos off).
 */
export type BonusRule = { kind: 'ratio'; ratio: number } | { kind: 'tiers'; tiers: BonusTier[] } | null;

/** The promo an amount earns: the largest credits_required not above it (the first listed on a tie). */
export function matchingTier<T extends BonusTier>(tiers: readonly T[], amount: number): T | undefined {
  let best: T | undefined;
  for (const t of tiers) if (t.bonus_credits > 0 && t.credits_required <= amount && (!best || t.credits_required > best.credits_required)) best = t;
  return best;
}

/** The bonus `amount` earns under `rule`. */
export function bonusOf(rule: BonusRule, amount: number): number {
  if (!rule) return 0;
  if (rule.kind === 'ratio') return Math.max(0, Math.round(amount * rule.ratio));
  return matchingTier(rule.tiers, amount)?.bonus_credits ?? 0;
}

/** The credit levels' own rule: round(amount x ratio) when their promo is on. */
export const levelBonusRule = (config: CreditLevelsConfig): BonusRule => (config.promo_enabled ? { kind: 'ratio', ratio: config.promo_ratio } : null);

/** The bonus a credit level gives: round(base x ratio) when the levels' promo is on. */
export function levelOption(config: CreditLevelsConfig, base: number): CreditOption {
  return pricedOption(base, bonusOf(levelBonusRule(config), base));
}
