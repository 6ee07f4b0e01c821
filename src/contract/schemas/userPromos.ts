import { z } from 'zod';
import { ENTITY_FORM, FIELD_RULES, PROMOS } from '../messages';
import { boundedInt, switchField } from './configFields';
import { namedRefEntity, optionalText, requiredText } from './common';
import { labelled } from './fieldMeta';

const CREDITS_MAX = 1_000_000;

/** User promos (menu 'Dealer Promo'): buy credits_required on a server, get bonus_credits more. */
export const userPromoBody = z.object({
  name: labelled(requiredText(ENTITY_FORM.nameRequired, 100), 'Name'),
  description: labelled(optionalText(500), 'Description'),
  server_id: labelled(boundedInt(PROMOS.serverRequired, 1), 'Server'),
  credits_required: labelled(boundedInt(PROMOS.creditsRequiredMin, 1, CREDITS_MAX, FIELD_RULES.between('Credits required', 1, CREDITS_MAX)), 'Credits Required'),
  bonus_credits: labelled(boundedInt(PROMOS.bonusCreditsMin, 1, CREDITS_MAX, FIELD_RULES.between('Bonus credits', 1, CREDITS_MAX)), 'Bonus Credits'),
  is_active: labelled(switchField(FIELD_RULES.boolean('Active')).default(true), 'Active'),
});
export type UserPromoBody = z.infer<typeof userPromoBody>;

/** A user promo as the API sends it. */
export const userPromoEntity = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  server_id: z.number().nullable(),
  server: namedRefEntity.nullable(),
  credits_required: z.number(),
  bonus_credits: z.number(),
  /** credits_required + bonus_credits */
  total_credits: z.number(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
