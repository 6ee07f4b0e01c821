/**
 * User promos (menu 'Dealer Promo'): buy credits_required credits on a server and get bonus_credits
 * more. The credit moves to resellers and dealers read them; this module is their admin CRUD.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import { SERVER_FORM, type UserPromo, type UserPromoBody, idParam, userPromoBody } from '../../src/contract';
import { recordAudit } from '../audit';
import type { UserPromosTable } from '../db/schema';
import { bool, flag, nowIso } from '../db/values';
import { fieldError, notFound } from '../http/errors';
import { type ListSpec, paginate } from '../http/list';

type Row = Selectable<UserPromosTable> & { server_name: string | null };

const toApi = (row: Row): UserPromo => ({
  id: row.id,
  name: row.name,
  description: row.description,
  server_id: row.server_id,
  server: row.server_id !== null && row.server_name !== null ? { id: row.server_id, name: row.server_name } : null,
  credits_required: row.credits_required,
  bonus_credits: row.bonus_credits,
  total_credits: row.credits_required + row.bonus_credits,
  is_active: bool(row.is_active),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const listSpec: ListSpec = {
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
  defaultSort: 'name',
  idColumn: 'p.id',
};

/** The columns the form sets. */
const columns = (body: UserPromoBody) => ({
  name: body.name,
  description: body.description,
  server_id: body.server_id,
  credits_required: body.credits_required,
  bonus_credits: body.bonus_credits,
  is_active: flag(body.is_active),
});

const userPromoRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const base = () => db.selectFrom('user_promos as p').leftJoin('servers as s', 's.id', 'p.server_id');
  const withServer = (qb: ReturnType<typeof base>) => qb.selectAll('p').select('s.name as server_name');
  const findOne = async (id: number) => {
    const row = await withServer(base()).where('p.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return row as Row;
  };
  const requireServer = async (serverId: number) => {
    const server = await db.selectFrom('servers').select('id').where('id', '=', serverId).executeTakeFirst();
    if (!server) throw fieldError('server_id', SERVER_FORM.selectedInvalid);
  };

  // The panel reads promo lists under `promos` (spec 7).
  app.get('/user-promos', { config: { access: ['user-promos', 'list'] }, schema: { tags: ['user-promos'] } }, async (request) => {
    const page = await paginate<Row, UserPromo>(base(), request.query as Record<string, unknown>, listSpec, (qb) => withServer(qb as ReturnType<typeof base>), toApi);
    return { promos: page.data, meta: page.meta };
  });

  app.get('/user-promos/:id', { config: { access: ['user-promos', 'show'] }, schema: { params: idParam, tags: ['user-promos'] } }, async (request) => ({
    data: toApi(await findOne(request.params.id)),
  }));

  app.post('/user-promos', { config: { access: ['user-promos', 'create'] }, schema: { body: userPromoBody, tags: ['user-promos'] } }, async (request, reply) => {
    const body = request.body;
    await requireServer(body.server_id);
    const now = nowIso();
    const { id } = await db
      .insertInto('user_promos')
      .values({
        ...columns(body),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(db, request, { module: 'user_promos', action: 'create', entityId: id, description: `Created promo ${body.name}`, newValues: body });
    return reply.code(201).send({ data: toApi(await findOne(id)) });
  });

  app.put(
    '/user-promos/:id',
    { config: { access: ['user-promos', 'edit'] }, schema: { params: idParam, body: userPromoBody, tags: ['user-promos'] } },
    async (request) => {
      const before = await findOne(request.params.id);
      const body = request.body;
      await requireServer(body.server_id);
      await db
        .updateTable('user_promos')
        .set({
          ...columns(body),
          updated_at: nowIso(),
        })
        .where('id', '=', before.id)
        .execute();
      await recordAudit(db, request, { module: 'user_promos', action: 'update', entityId: before.id, description: `Updated promo ${body.name}`, oldValues: toApi(before), newValues: body });
      return { data: toApi(await findOne(before.id)) };
    },
  );

  app.delete('/user-promos/:id', { config: { access: ['user-promos', 'delete'] }, schema: { params: idParam, tags: ['user-promos'] } }, async (request, reply) => {
    const before = await findOne(request.params.id);
    await db.deleteFrom('user_promos').where('id', '=', before.id).execute();
    await recordAudit(db, request, { module: 'user_promos', action: 'delete', entityId: before.id, description: `Deleted promo ${before.name}`, oldValues: toApi(before) });
    return reply.code(204).send();
  });
};

export default userPromoRoutes;
