/** The contract of a plain resource: what the form, the API and the show page know about a tariff. */
import { z } from 'zod';
import {
  ENTITY_FORM,
  FIELD_RULES,
  PROMOS,
  type RouteSpec,
  adminOnly,
  boundedInt,
  CRUD,
  entityOf,
  labelled,
  list,
  looseBoolean,
  requiredText,
} from '../../../src/contract';

export const tariffBody = z.object({
  name: labelled(requiredText(ENTITY_FORM.nameRequired, 100), 'Name'),
  months: labelled(boundedInt(FIELD_RULES.between('Months', 1, 120), 1, 120), 'Months'),
  credits: labelled(boundedInt(FIELD_RULES.between('Credits', 1, 1_000_000), 1, 1_000_000), 'Credits'),
  server_id: labelled(boundedInt(PROMOS.serverRequired, 1), 'Server'),
  active: labelled(looseBoolean.default(true), 'Active'),
});

export const tariffEntity = entityOf(tariffBody, { id: z.number(), created_at: z.string(), updated_at: z.string() });
export type Tariff = z.infer<typeof tariffEntity>;

/** How the list is searched and sorted, read by the API and the data provider. */
export const tariffList = list({ path: 'tariffs', sorts: ['id', 'name', 'months', 'credits'], defaultSort: 'name' });

// In the product these are one line each in src/contract/lists.ts (LISTS), roles.ts (PERMISSIONS) and
// routes.ts (ROUTES, RESOURCE_LABELS, MENUS.admin); here they are handed to the test.
export const tariffAccess = adminOnly(...CRUD);
export const tariffRoute: RouteSpec = { path: '/tariffs', example: '/tariffs', spec: ['admin'], access: ['tariffs' as never, 'list'] };
export const tariffLabel = 'Tariffs';
