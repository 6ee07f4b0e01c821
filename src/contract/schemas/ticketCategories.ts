import { z } from 'zod';
import { ENTITY_FORM } from '../messages';
import { looseBoolean, optionalText, requiredText } from './common';

export const ticketCategoryBody = z.object({
  name: requiredText(ENTITY_FORM.nameRequired, 100),
  description: optionalText(500),
  is_active: looseBoolean.default(true),
});
export type TicketCategoryBody = z.infer<typeof ticketCategoryBody>;
