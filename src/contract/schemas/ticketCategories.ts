import { z } from 'zod';
import { ENTITY_FORM } from '../messages';
import { looseBoolean, optionalText, requiredText } from './common';
import { entityOf, labelled } from './fieldMeta';

export const ticketCategoryBody = z.object({
  name: labelled(requiredText(ENTITY_FORM.nameRequired, 100), 'Name'),
  description: labelled(optionalText(500), 'Description'),
  is_active: labelled(looseBoolean.default(true), 'Active'),
});
export type TicketCategoryBody = z.infer<typeof ticketCategoryBody>;

/** A ticket category as the API sends it: the body's fields as stored, and the tickets filed under it. */
export const ticketCategoryEntity = entityOf(ticketCategoryBody, { id: z.number(), tickets_count: z.number(), created_at: z.string(), updated_at: z.string() });
