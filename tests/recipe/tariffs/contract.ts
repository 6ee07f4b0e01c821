/** A plain resource's contract: its schemas, and its entry (role matrix row, list, route, label, menu link). */
import { z } from 'zod';
import {
  CRUD,
  ENTITY_FORM,
  FIELD_RULES,
  PROMOS,
  adminOnly,
  boundedInt,
  defineResource,
  entityOf,
  labelled,
  looseBoolean,
  requiredText,
} from '../../../src/contract/core';

export const tariffBody = z.object({
  name: labelled(requiredText(ENTITY_FORM.nameRequired, 100), 'Name'),
  months: labelled(boundedInt(FIELD_RULES.between('Months', 1, 120), 1, 120), 'Months'),
  credits: labelled(boundedInt(FIELD_RULES.between('Credits', 1, 1_000_000), 1, 1_000_000), 'Credits'),
  server_id: labelled(boundedInt(PROMOS.serverRequired, 1), 'Server'),
  active: labelled(looseBoolean.default(true), 'Active'),
});

export const tariffEntity = entityOf(tariffBody, { id: z.number(), created_at: z.string(), updated_at: z.string() });
export type Tariff = z.infer<typeof tariffEntity>;

export default defineResource({
  name: 'tariffs',
  label: 'Tariffs',
  access: adminOnly(...CRUD),
  // How the list is searched and sorted, read by the API and the data provider.
  list: { sorts: ['id', 'name', 'months', 'credits'], defaultSort: 'name' },
  menu: { admin: 'Settings' },
});
