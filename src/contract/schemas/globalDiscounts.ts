import { z } from 'zod';
import { GLOBAL_DISCOUNT_DEFAULTS } from '../constants';
import { DISCOUNT_FORM, ENTITY_FORM, FIELD_RULES, GLOBAL_DISCOUNTS, PROMOS } from '../messages';
import { boundedInt, boundedNumber, switchField } from './configFields';
import { namedRefEntity, optionalCalendarDate, optionalText, requiredText } from './common';

export const DISCOUNT_VALIDITY_MONTHS = { min: 1, max: 120 } as const;
const CREDITS_MAX = 1_000_000;

export const globalDiscountBody = z
  .object({
    name: requiredText(ENTITY_FORM.nameRequired, 100),
    description: optionalText(500),
    server_id: boundedInt(GLOBAL_DISCOUNTS.selectServer, 1),
    validity_months: boundedInt(
      FIELD_RULES.between('Validity months', DISCOUNT_VALIDITY_MONTHS.min, DISCOUNT_VALIDITY_MONTHS.max),
      DISCOUNT_VALIDITY_MONTHS.min,
      DISCOUNT_VALIDITY_MONTHS.max,
    ),
    credits_required: boundedInt(PROMOS.creditsRequiredMin, 1, CREDITS_MAX, FIELD_RULES.between('Credits required', 1, CREDITS_MAX)),
    discount_percentage: z
      .union([z.null(), z.literal(''), boundedNumber(FIELD_RULES.between('Discount percentage', 0, 100), 0, 100)], {
        error: FIELD_RULES.between('Discount percentage', 0, 100),
      })
      .optional()
      .transform((v) => (typeof v === 'number' ? Math.round(v * 100) / 100 : GLOBAL_DISCOUNT_DEFAULTS.discount_percentage)),
    is_active: switchField(FIELD_RULES.boolean('Active')).default(GLOBAL_DISCOUNT_DEFAULTS.is_active),
    valid_from: optionalCalendarDate('start'),
    valid_until: optionalCalendarDate('end'),
    // Empty means unlimited.
    max_uses: z
      .union([z.null(), z.literal(''), boundedInt(FIELD_RULES.atLeast('Max uses', 1), 1)], {
        error: FIELD_RULES.atLeast('Max uses', 1),
      })
      .optional()
      .transform((v) => (typeof v === 'number' ? v : null)),
  })
  .superRefine((body, ctx) => {
    if (body.valid_from && body.valid_until && body.valid_until <= body.valid_from) {
      ctx.addIssue({ code: 'custom', message: DISCOUNT_FORM.validUntilAfterFrom, path: ['valid_until'] });
    }
  });
export type GlobalDiscountBody = z.infer<typeof globalDiscountBody>;

/** A global discount as the API sends it. */
export const globalDiscountEntity = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  server_id: z.number().nullable(),
  server: namedRefEntity.nullable(),
  validity_months: z.number(),
  credits_required: z.number(),
  discount_percentage: z.number(),
  is_active: z.boolean(),
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
  /** null means unlimited. */
  max_uses: z.number().nullable(),
  current_uses: z.number(),
  /** validity_months - credits_required */
  savings: z.number(),
  /** savings as a percentage of validity_months, to one decimal. */
  savings_percentage: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
