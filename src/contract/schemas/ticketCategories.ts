import { z } from 'zod';
import { ENTITY_FORM } from '../messages';
import { looseBoolean, optionalText, requiredText } from './common';

export const ticketCategoryBody = z.object({
  name: requiredText(ENTITY_FORM.nameRequired, 100),
  description: optionalText(500),
  is_active: looseBoolean.default(true),
});
export type TicketCategoryBody = z.infer<typeof ticketCategoryBody>;

/** A ticket category as the API sends it. */
export const ticketCategoryEntity = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  is_active: z.boolean(),
  tickets_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
