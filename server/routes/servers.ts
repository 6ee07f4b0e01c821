/**
 * Servers (the middleware databases accounts live on): admin CRUD, the connection check, and the
 * id/name/status list every role's pickers read. The database password is write-only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Selectable, sql } from 'kysely';
import {
  type Server,
  type ServerBody,
  type ServerOption,
  SERVER_CONNECTION_STATUSES,
  SERVER_FORM,
  SERVER_STATUSES,
  idParam,
  serverBody,
} from '../../src/contract';
import { recordAudit } from '../audit';
import type { ServersTable } from '../db/schema';
import { nowIso } from '../db/values';
import { conflict, fieldError, notFound } from '../http/errors';
import { type ListSpec, paginate } from '../http/list';
import { checkServer } from '../servers/check';
import { encryptWith, secretKey } from '../servers/secret';

type Row = Selectable<ServersTable> & { accounts_count: number };

const toApi = (row: Row): Server => ({
  id: row.id,
  name: row.name,
  db_host: row.db_host,
  db_username: row.db_username,
  db_port: row.db_port,
  db_name: row.db_name,
  status: row.status as Server['status'],
  connection_status: row.connection_status as Server['connection_status'],
  has_password: Boolean(row.db_password_enc),
  last_checked_at: row.last_checked_at,
  accounts_count: Number(row.accounts_count ?? 0),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const listSpec: ListSpec = {
  search: ['s.name', 's.db_host', 's.db_name'],
  filters: {
    status: { column: 's.status', type: 'enum', values: SERVER_STATUSES },
    connection_status: { column: 's.connection_status', type: 'enum', values: SERVER_CONNECTION_STATUSES },
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
  defaultSort: 'name',
  idColumn: 's.id',
};

/** What the audit log keeps of a body: everything but the password, which it only notes. */
const auditValues = (body: ServerBody) => {
  const { db_password, ...rest } = body;
  return { ...rest, password_changed: Boolean(db_password) };
};

/** The columns the form sets; the password is handled apart (write-only, encrypted). */
const columns = (body: ServerBody) => ({
  name: body.name,
  db_host: body.db_host,
  db_username: body.db_username,
  db_port: body.db_port,
  db_name: body.db_name,
  status: body.status,
  connection_status: body.connection_status,
});

const serverRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const base = () => db.selectFrom('servers as s');
  const withCount = (qb: ReturnType<typeof base>) =>
    qb
      .selectAll('s')
      .select((eb) =>
        eb.selectFrom('accounts').select(sql<number>`count(*)`.as('n')).whereRef('accounts.server_id', '=', 's.id').as('accounts_count'),
      );
  const findOne = async (id: number) => {
    const row = await withCount(base()).where('s.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return row as Row;
  };
  const nameTaken = async (name: string, exceptId?: number) => {
    let q = db.selectFrom('servers').select('id').where(sql`lower(name)`, '=', name.toLowerCase());
    if (exceptId) q = q.where('id', '!=', exceptId);
    return Boolean(await q.executeTakeFirst());
  };
  /** The stored form of a new password; 422 when no key may be used (production without APP_KEY). */
  const encrypt = async (password: string) => {
    const key = await secretKey(db, app.config);
    if (!key) throw fieldError('db_password', SERVER_FORM.appKeyRequired);
    return encryptWith(key, password);
  };

  app.get('/servers', { config: { access: ['servers', 'list'] }, schema: { tags: ['servers'] } }, async (request) =>
    paginate<Row, Server>(base(), request.query as Record<string, unknown>, listSpec, (qb) => withCount(qb as ReturnType<typeof base>), toApi),
  );

  // Pickers (account forms, MAC search, manager forms): every role reads id, name and status.
  app.get('/servers/public', { config: { access: ['servers', 'pick'] }, schema: { tags: ['servers'] } }, async () => {
    const rows = await db.selectFrom('servers').select(['id', 'name', 'status']).orderBy('name').orderBy('id').execute();
    return { data: rows.map((r): ServerOption => ({ id: r.id, name: r.name, status: r.status as ServerOption['status'] })) };
  });

  app.get('/servers/:id', { config: { access: ['servers', 'show'] }, schema: { params: idParam, tags: ['servers'] } }, async (request) => ({
    data: toApi(await findOne(request.params.id)),
  }));

  app.post('/servers', { config: { access: ['servers', 'create'] }, schema: { body: serverBody, tags: ['servers'] } }, async (request, reply) => {
    const body = request.body;
    if (await nameTaken(body.name)) throw fieldError('name', SERVER_FORM.nameTaken);
    const db_password_enc = body.db_password ? await encrypt(body.db_password) : null;
    const now = nowIso();
    const { id } = await db
      .insertInto('servers')
      .values({
        ...columns(body),
        db_password_enc,
        last_checked_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(db, request, { module: 'servers', action: 'create', entityId: id, description: `Created server ${body.name}`, newValues: auditValues(body) });
    return reply.code(201).send({ data: toApi(await findOne(id)) });
  });

  app.put(
    '/servers/:id',
    { config: { access: ['servers', 'edit'] }, schema: { params: idParam, body: serverBody, tags: ['servers'] } },
    async (request) => {
      const before = await findOne(request.params.id);
      const body = request.body;
      if (await nameTaken(body.name, before.id)) throw fieldError('name', SERVER_FORM.nameTaken);
      // An empty password keeps the stored one: the form never receives it to send back.
      const db_password_enc = body.db_password ? await encrypt(body.db_password) : before.db_password_enc;
      await db
        .updateTable('servers')
        .set({
          ...columns(body),
          db_password_enc,
          updated_at: nowIso(),
        })
        .where('id', '=', before.id)
        .execute();
      await recordAudit(db, request, {
        module: 'servers',
        action: 'update',
        entityId: before.id,
        description: `Updated server ${body.name}`,
        oldValues: toApi(before),
        newValues: auditValues(body),
      });
      return { data: toApi(await findOne(before.id)) };
    },
  );

  app.delete('/servers/:id', { config: { access: ['servers', 'delete'] }, schema: { params: idParam, tags: ['servers'] } }, async (request, reply) => {
    const before = await findOne(request.params.id);
    // Accounts and managers would be left without their server: refuse, the admin moves them first.
    if (Number(before.accounts_count) > 0) throw conflict(SERVER_FORM.usedByAccounts(Number(before.accounts_count)));
    const managers = await db
      .selectFrom('users')
      .select(sql<number>`count(*)`.as('n'))
      .where('server_id', '=', before.id)
      .executeTakeFirstOrThrow();
    if (Number(managers.n) > 0) throw conflict(SERVER_FORM.usedByManagers(Number(managers.n)));
    await db.deleteFrom('servers').where('id', '=', before.id).execute();
    await recordAudit(db, request, { module: 'servers', action: 'delete', entityId: before.id, description: `Deleted server ${before.name}`, oldValues: toApi(before) });
    return reply.code(204).send();
  });

  app.post(
    '/servers/:id/check',
    { config: { access: ['servers', 'check'] }, schema: { params: idParam, tags: ['servers'] } },
    async (request) => {
      const before = await findOne(request.params.id);
      const status = await checkServer(db, before);
      await recordAudit(db, request, {
        module: 'servers',
        action: 'check',
        entityId: before.id,
        description: `Connection check of ${before.name}: ${status}`,
        oldValues: { connection_status: before.connection_status },
        newValues: { connection_status: status },
      });
      return { data: toApi(await findOne(before.id)) };
    },
  );
};

export default serverRoutes;
