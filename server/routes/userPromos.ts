/**
 * User promos (menu 'Dealer Promo'): buy credits_required credits on a server and get bonus_credits
 * more. The credit moves to resellers and dealers read them; this module is their admin CRUD.
 */
import type { Selectable } from 'kysely';
import { LISTS, type UserPromo, userPromoBody, userPromoEntity } from '../../src/contract';
import { listSpec } from '../http/list';
import type { UserPromosTable } from '../db/schema';
import { crudRoutes, fromRow } from './crud';
import { requireServer } from '../servers/require';

type Row = Selectable<UserPromosTable> & { server_name: string | null };

const columnsToApi = fromRow(userPromoEntity);
/** The columns as they are, with the server named and the total the form shows. */
const toApi = (row: Row): UserPromo => ({
  ...columnsToApi(row),
  server: row.server_id !== null && row.server_name !== null ? { id: row.server_id, name: row.server_name } : null,
  total_credits: row.credits_required + row.bonus_credits,
});

export default crudRoutes({
  resource: 'user-promos',
  table: 'user_promos',
  alias: 'p',
  from: (db) => db.selectFrom('user_promos as p').leftJoin('servers as s', 's.id', 'p.server_id'),
  select: (qb) => qb.selectAll('p').select('s.name as server_name'),
  list: listSpec(LISTS['user-promos'], {
    search: ['p.name', 'p.description'],
    filters: {
      server_id: { column: 'p.server_id', type: 'int' },
      is_active: { column: 'p.is_active', type: 'boolean' },
    },
    sorts: {
      id: 'p.id',
      name: 'p.name',
      credits_required: 'p.credits_required',
      bonus_credits: 'p.bonus_credits',
      is_active: 'p.is_active',
      created_at: 'p.created_at',
      updated_at: 'p.updated_at',
    },
    idColumn: 'p.id',
  }),
  toApi,
  entity: userPromoEntity,
  body: userPromoBody,
  check: (body, { db }) => requireServer(db, body.server_id),
  audit: { module: 'user_promos', noun: 'promo' },
});
