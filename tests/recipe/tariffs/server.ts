/** The API of a plain resource: list, show, create, edit and delete under /tariffs, guarded by the role matrix. */
import { listSpec } from '../../../server/http/list';
import { crudRoutes } from '../../../server/routes/crud';
import { requireServer } from '../../../server/servers/require';
import tariffs, { tariffBody, tariffEntity } from './contract';

export default crudRoutes({
  resource: tariffs.name,
  table: 'tariffs',
  alias: 't',
  from: (db) => db.selectFrom('tariffs as t'),
  select: (qb) => qb.selectAll('t'),
  list: listSpec(tariffs.list, { search: ['t.name'], filters: {}, sorts: { id: 't.id', name: 't.name', months: 't.months', credits: 't.credits' }, idColumn: 't.id' }),
  entity: tariffEntity,
  body: tariffBody,
  check: (body, { db }) => requireServer(db, body.server_id),
  audit: { module: 'tariffs', noun: 'tariff' },
});
