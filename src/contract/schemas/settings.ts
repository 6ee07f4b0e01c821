import { z } from 'zod';
import { CREDIT_OPTIONS_TEST_DEFAULT, SYSTEM_SETTING_DEFAULTS } from '../constants';
import { FIELD_RULES, SETTINGS } from '../messages';
import { type SettingDef, type SettingKey, SETTING_KEYS } from '../settings';
import { boundedInt, boundedNumber, intBetween, intList, switchField } from './configFields';
import { creditOptionEntity } from './credits';

/** PUT /system-settings/{key}: the key must be one of the settings table's (docs/domain.md#system-settings). */
export const settingKeyParam = z.object({
  key: z.enum(Object.keys(SETTING_KEYS) as [SettingKey, ...SettingKey[]], { error: SETTINGS.unknownKey }),
});

/** The one body field of a per-key PUT, with its bounds. */
export function systemSettingBody(key: SettingKey) {
  const def: SettingDef = SETTING_KEYS[key];
  const field = def.type === 'int' ? boundedInt(FIELD_RULES.between(def.label, def.min, def.max), def.min, def.max) : switchField(FIELD_RULES.boolean(def.label));
  return z.object({ [def.field]: field });
}

/**
 * `field` may not be below `other` (a maximum and its minimum). It is checked as soon as these two
 * fields are valid, even while another field of the object is not, so the message shows with the others.
 */
function notBelow(field: string, other: string, label: string, otherLabel: string) {
  return [
    (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
      const [n, min] = [value[field], value[other]];
      if (typeof n === 'number' && typeof min === 'number' && n < min) {
        ctx.addIssue({ code: 'custom', message: FIELD_RULES.notBelow(label, otherLabel), path: [field] });
      }
    },
    { when: ({ issues }: { issues: Array<{ path?: PropertyKey[] }> }) => !issues.some((i) => i.path?.[0] === field || i.path?.[0] === other) },
  ] as const;
}

const LEVELS_MAX = 1_000_000;

/** The credit levels configuration (admin allocations to managers). */
export const creditLevelsConfigSchema = z
  .object({
    minimum: boundedInt(FIELD_RULES.atLeast('Minimum', 1), 1, LEVELS_MAX, FIELD_RULES.between('Minimum', 1, LEVELS_MAX)),
    maximum: boundedInt(FIELD_RULES.atLeast('Maximum', 1), 1, LEVELS_MAX, FIELD_RULES.between('Maximum', 1, LEVELS_MAX)),
    step: boundedInt(FIELD_RULES.atLeast('Step', 1), 1, LEVELS_MAX, FIELD_RULES.between('Step', 1, LEVELS_MAX)),
    promo_enabled: switchField(FIELD_RULES.boolean('Promo enabled')),
    promo_ratio: boundedNumber(FIELD_RULES.between('Promo ratio', 0, 1), 0, 1),
  })
  .superRefine(...notBelow('maximum', 'minimum', 'Maximum', 'minimum'));

/** PUT /credit-levels: any subset of the configuration; the rest keeps its stored value. */
export const creditLevelsBody = z.record(z.string(), z.unknown());

/** The credit options settings (amounts offered to non-admin givers and admin to resellers/dealers). */
export const creditOptionsSettingsSchema = z
  .object({
    min_credits: intBetween('Min credits', 1, 100_000),
    max_credits: intBetween('Max credits', 1, 1_000_000),
    increment_step: intBetween('Increment step', 1, 10_000),
    preset_amounts: intList(FIELD_RULES.positiveIntegers('Preset amounts'), 1, 1_000_000),
    enable_percentage_options: switchField(FIELD_RULES.boolean('Percentage options')),
    percentage_options: intList(FIELD_RULES.between('Percentages', 1, 100), 1, 100),
    enable_all_available_option: switchField(FIELD_RULES.boolean('All available option')),
    is_active: switchField(FIELD_RULES.boolean('Active')),
  })
  .superRefine(...notBelow('max_credits', 'min_credits', 'Max credits', 'min credits'));

/** PUT /credit-options-settings: any subset of the settings; the rest keeps its stored value. */
export const creditOptionsSettingsBody = z.record(z.string(), z.unknown());

export const creditOptionsTestBody = z.object({
  user_credits: boundedInt(FIELD_RULES.between('Test credits', 1, 1_000_000), 1, 1_000_000).default(CREDIT_OPTIONS_TEST_DEFAULT),
});

/**
 * The system settings as GET /system-settings answers them: every setting of the settings table (a switch
 * or a number). The map is open: a stored key the table does not know yet is sent as it is.
 */
export const systemSettingsEntity = z.looseObject(
  Object.fromEntries(Object.entries(SYSTEM_SETTING_DEFAULTS).map(([field, fallback]) => [field, typeof fallback === 'boolean' ? z.boolean() : z.number()])) as {
    [K in keyof typeof SYSTEM_SETTING_DEFAULTS]: (typeof SYSTEM_SETTING_DEFAULTS)[K] extends boolean ? z.ZodBoolean : z.ZodNumber;
  },
);

/** The stored credit levels configuration (open, like every settings map). */
export const creditLevelsConfigEntity = z.looseObject({
  minimum: z.number(),
  maximum: z.number(),
  step: z.number(),
  promo_enabled: z.boolean(),
  promo_ratio: z.number(),
});

/** GET and PUT /credit-levels: the configuration and the levels it offers. */
export const creditLevelsAnswer = z.object({ data: creditLevelsConfigEntity, preview: z.array(creditOptionEntity) });

/** The stored credit options settings (open, like every settings map). */
export const creditOptionsSettingsEntity = z.looseObject({
  min_credits: z.number(),
  max_credits: z.number(),
  increment_step: z.number(),
  preset_amounts: z.array(z.number()),
  enable_percentage_options: z.boolean(),
  percentage_options: z.array(z.number()),
  enable_all_available_option: z.boolean(),
  is_active: z.boolean(),
});
