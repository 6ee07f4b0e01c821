/** The API of a plain resource: list, show, create, edit and delete under /tariffs, guarded by the role matrix. */
import { crudRoutes } from '../../../server/http/crudRoutes';
import { requireServer } from '../../../server/servers/require';
import { tariffBody, tariffEntity } from './contract';

export default crudRoutes({
  resource: 'tariffs',
  table: 'tariffs',
  alias: 't',
  from: (db) => db.selectFrom('tariffs as t'),
  select: (qb) => qb.selectAll('t'),
  list: { search: ['t.name'], sorts: { id: 't.id', name: 't.name', months: 't.months' }, defaultSort: 'name', idColumn: 't.id' },
  entity: tariffEntity,
  body: tariffBody,
  check: (body, { db }) => requireServer(db, body.server_id),
  audit: { module: 'tariffs', noun: 'tariff' },
});
