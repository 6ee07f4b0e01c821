/**
 * Global discounts (menu 'User Promo'): server-wide renewal prices, admin CRUD. Renewal pricing
 * applies them (within valid_from/valid_until and max_uses) and counts current_uses. The lookups
 * every role makes when renewing live in globalDiscountLookups.ts.
 */
import type { Kysely, Selectable } from 'kysely';
import { type GlobalDiscountBody, LISTS, globalDiscountBody, globalDiscountEntity } from '../../src/contract';
import { listSpec } from '../http/list';
import { toGlobalDiscount } from '../accounts/pricing';
import type { Database, GlobalDiscountsTable } from '../db/schema';
import { flag } from '../db/values';
import { crudRoutes } from './crud';
import { requireServer } from '../servers/require';

export type GlobalDiscountRow = Selectable<GlobalDiscountsTable> & { server_name: string | null };

/** Discounts joined with their server's name; add where clauses, then map rows with toGlobalDiscount. */
export const globalDiscountRows = (db: Kysely<Database>) => db.selectFrom('global_discounts as d').leftJoin('servers as s', 's.id', 'd.server_id');

export const selectGlobalDiscount = (qb: ReturnType<typeof globalDiscountRows>) => qb.selectAll('d').select('s.name as server_name');

/** The columns the form sets (current_uses is counted by renewals, never set through the form). */
const columns = (body: GlobalDiscountBody) => ({
  name: body.name,
  description: body.description,
  server_id: body.server_id,
  validity_months: body.validity_months,
  credits_required: body.credits_required,
  discount_percentage: body.discount_percentage,
  is_active: flag(body.is_active),
  valid_from: body.valid_from,
  valid_until: body.valid_until,
  max_uses: body.max_uses,
});

export default crudRoutes({
  resource: 'global-discounts',
  table: 'global_discounts',
  alias: 'd',
  from: globalDiscountRows,
  select: (qb) => selectGlobalDiscount(qb as ReturnType<typeof globalDiscountRows>),
  list: listSpec(LISTS['global-discounts'], {
    search: ['d.name', 'd.description'],
    filters: {
      server_id: { column: 'd.server_id', type: 'int' },
      is_active: { column: 'd.is_active', type: 'boolean' },
      validity_months: { column: 'd.validity_months', type: 'int' },
    },
    sorts: {
      id: 'd.id',
      name: 'd.name',
      validity_months: 'd.validity_months',
      credits_required: 'd.credits_required',
      discount_percentage: 'd.discount_percentage',
      current_uses: 'd.current_uses',
      is_active: 'd.is_active',
      created_at: 'd.created_at',
      updated_at: 'd.updated_at',
    },
    idColumn: 'd.id',
  }),
  toApi: (row: GlobalDiscountRow) => toGlobalDiscount(row),
  entity: globalDiscountEntity,
  body: globalDiscountBody,
  columns,
  createColumns: { current_uses: 0 },
  check: (body, { db }) => requireServer(db, body.server_id),
  audit: { module: 'global_discounts', noun: 'global discount' },
});
