/**
 * Servers (the middleware databases accounts live on): admin CRUD, the connection check, and the
 * id/name/status list every role's pickers read. The database password is write-only.
 */
import { type Selectable, sql } from 'kysely';
import { z } from 'zod';
import {
  LISTS,
  type Server,
  type ServerBody,
  type ServerOption,
  SERVER_CONNECTION_STATUSES,
  SERVER_DRIVERS,
  SERVER_FORM,
  SERVER_STATUSES,
  idParam,
  serverBody,
  serverEntity,
  serverOptionEntity,
} from '../../src/contract';
import { listSpec } from '../http/list';
import { recordAudit } from '../audit';
import type { ServersTable } from '../db/schema';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type App, crudRoutes, fromRow, toColumns } from './crud';
import type { Provisioners } from '../provisioning';
import { conflict, fieldError } from '../http/errors';
import { checkServer } from '../provisioning/check';
import { encryptWith, secretKey } from '../servers/secret';

type Row = Selectable<ServersTable> & { accounts_count: number };

const columnsToApi = fromRow(serverEntity);
/** The row as the API sends it, with the breaker this process holds for the server. */
const toApi = (row: Row, provisioners: Provisioners): Server => ({
  ...columnsToApi(row),
  has_password: Boolean(row.db_password_enc),
  breaker: provisioners.breakerState(row.id),
});

/** What the audit log keeps of a body: everything but the password, which it only notes. */
const auditValues = (body: ServerBody) => {
  const { db_password, ...rest } = body;
  return { ...rest, password_changed: Boolean(db_password) };
};

/** The stored form of a new password; 422 when no key may be used (production without APP_KEY). */
const encrypt = async (app: App, password: string) => {
  const key = await secretKey(app.db.kysely, app.config);
  if (!key) throw fieldError('db_password', SERVER_FORM.appKeyRequired);
  return encryptWith(key, password);
};

/**
 * The columns the form sets. The password is write-only and stored encrypted; an empty one keeps
 * the stored one on update (the form never receives it to send back) and stores none on create.
 */
const bodyColumns = toColumns(serverBody);
const columns = async (body: ServerBody, before: Row | null, app: App) => {
  const { db_password, ...rest } = bodyColumns(body);
  return { ...rest, db_password_enc: db_password ? await encrypt(app, db_password as string) : (before?.db_password_enc ?? null) };
};

const serverRoutes = (provisioners: Provisioners) =>
  crudRoutes({
    resource: 'servers',
    table: 'servers',
    alias: 's',
    from: (db) => db.selectFrom('servers as s'),
    select: (qb) =>
      qb.selectAll('s').select((eb) =>
        eb
          .selectFrom('accounts')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('accounts.server_id', '=', 's.id')
          .as('accounts_count'),
      ),
    list: listSpec(LISTS.servers, {
      search: ['s.name', 's.db_host', 's.db_name'],
      filters: {
        status: { column: 's.status', type: 'enum', values: SERVER_STATUSES },
        connection_status: { column: 's.connection_status', type: 'enum', values: SERVER_CONNECTION_STATUSES },
        driver: { column: 's.driver', type: 'enum', values: SERVER_DRIVERS },
      },
      sorts: {
        id: 's.id',
        name: 's.name',
        db_host: 's.db_host',
        status: 's.status',
        connection_status: 's.connection_status',
        last_checked_at: 's.last_checked_at',
        created_at: 's.created_at',
      },
      idColumn: 's.id',
    }),
    toApi: (row: Row) => toApi(row, provisioners),
    entity: serverEntity,
    body: serverBody,
    columns,
    createColumns: { last_checked_at: null },
    unique: [{ field: 'name', message: SERVER_FORM.nameTaken, caseInsensitive: true }],
    audit: { module: 'servers', noun: 'server', values: auditValues },
    // Accounts and managers would be left without their server: refuse, the admin moves them first.
    beforeDelete: async (before, { db }) => {
      if (Number(before.accounts_count) > 0) throw conflict(SERVER_FORM.usedByAccounts(Number(before.accounts_count)));
      const managers = await db
        .selectFrom('users')
        .select(sql<number>`count(*)`.as('n'))
        .where('server_id', '=', before.id)
        .executeTakeFirstOrThrow();
      if (Number(managers.n) > 0) throw conflict(SERVER_FORM.usedByManagers(Number(managers.n)));
    },
    routes: (app, { db, findOne, item, errors }) => {
      // Pickers (account forms, MAC search, manager forms): every role reads id, name and status.
      app.get(
        '/servers/public',
        {
          config: { access: ['servers', 'pick'] },
          schema: { response: { 200: z.object({ data: z.array(serverOptionEntity) }), '4xx': errors }, tags: ['servers'] },
        },
        async () => {
          const rows = await db.selectFrom('servers').select(['id', 'name', 'status']).orderBy('name').orderBy('id').execute();
          return { data: rows.map((r): ServerOption => ({ id: r.id, name: r.name, status: r.status as ServerOption['status'] })) };
        },
      );

      app.post(
        '/servers/:id/check',
        { config: { access: ['servers', 'check'] }, schema: { params: idParam, response: { 200: item, '4xx': errors }, tags: ['servers'] } },
        async (request) => {
          const before = await findOne(request.params.id);
          const status = await checkServer(db, before, app.provisioners);
          await recordAudit(db, request, {
            module: 'servers',
            action: 'check',
            entityId: before.id,
            description: `Connection check of ${before.name}: ${status}`,
            oldValues: { connection_status: before.connection_status },
            newValues: { connection_status: status },
          });
          return { data: toApi(await findOne(before.id), provisioners) };
        },
      );
    },
  });

// The breakers are the API's (app.provisioners): the declaration is made with them.
const plugin: FastifyPluginAsyncZod = async (app, options) => serverRoutes(app.provisioners)(app, options);
export default plugin;
