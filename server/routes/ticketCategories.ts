/** Ticket categories: admin CRUD, plus the active list every role picks from when opening a ticket. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Selectable, sql } from 'kysely';
import { type TicketCategory, idParam, ticketCategoryBody } from '../../src/contract';
import { recordAudit } from '../audit';
import type { TicketCategoriesTable } from '../db/schema';
import { bool, flag, nowIso } from '../db/values';
import { fieldError, notFound } from '../http/errors';
import { type ListSpec, paginate } from '../http/list';

type Row = Selectable<TicketCategoriesTable> & { tickets_count: number };

const toApi = (row: Row): TicketCategory => ({
  id: row.id,
  name: row.name,
  description: row.description,
  is_active: bool(row.is_active),
  tickets_count: Number(row.tickets_count ?? 0),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const listSpec: ListSpec = {
  search: ['c.name', 'c.description'],
  filters: { is_active: { column: 'c.is_active', type: 'boolean' } },
  sorts: { name: 'c.name', created_at: 'c.created_at', updated_at: 'c.updated_at', id: 'c.id' },
  defaultSort: 'name',
  sortStyle: 'sort_by-direction',
  idColumn: 'c.id',
};

const ticketCategoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const base = () => db.selectFrom('ticket_categories as c');
  const withCount = (qb: ReturnType<typeof base>) =>
    qb
      .selectAll('c')
      .select((eb) =>
        eb.selectFrom('tickets').select(sql<number>`count(*)`.as('n')).whereRef('tickets.category_id', '=', 'c.id').as('tickets_count'),
      );
  const findOne = async (id: number) => {
    const row = await withCount(base()).where('c.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return row as Row;
  };
  const nameTaken = async (name: string, exceptId?: number) => {
    let q = db.selectFrom('ticket_categories').select('id').where(sql`lower(name)`, '=', name.toLowerCase());
    if (exceptId) q = q.where('id', '!=', exceptId);
    return Boolean(await q.executeTakeFirst());
  };

  app.get('/ticket-categories', { config: { access: ['ticket-categories', 'list'] }, schema: { tags: ['tickets'] } }, async (request) =>
    paginate<Row, TicketCategory>(base(), request.query as Record<string, unknown>, listSpec, (qb) => withCount(qb as ReturnType<typeof base>), toApi),
  );

  // Pickers for the ticket form: every role may read the active categories.
  const activeList = async () => ({
    data: ((await withCount(base()).where('c.is_active', '=', 1).orderBy('c.name').execute()) as Row[]).map(toApi),
  });
  app.get('/ticket-categories-active', { config: { access: ['ticket-categories', 'pick'] }, schema: { tags: ['tickets'] } }, activeList);
  app.get('/tickets-categories', { config: { access: ['ticket-categories', 'pick'] }, schema: { tags: ['tickets'] } }, activeList);

  app.get('/ticket-categories/:id', { config: { access: ['ticket-categories', 'show'] }, schema: { params: idParam, tags: ['tickets'] } }, async (request) => ({
    data: toApi(await findOne(request.params.id)),
  }));

  app.post(
    '/ticket-categories',
    { config: { access: ['ticket-categories', 'create'] }, schema: { body: ticketCategoryBody, tags: ['tickets'] } },
    async (request, reply) => {
      const body = request.body;
      if (await nameTaken(body.name)) throw fieldError('name', 'The name has already been taken.');
      const now = nowIso();
      const { id } = await db
        .insertInto('ticket_categories')
        .values({ name: body.name, description: body.description, is_active: flag(body.is_active), created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(db, request, { module: 'ticket_categories', action: 'create', entityId: id, newValues: body });
      return reply.code(201).send({ data: toApi(await findOne(id)) });
    },
  );

  app.put(
    '/ticket-categories/:id',
    { config: { access: ['ticket-categories', 'edit'] }, schema: { params: idParam, body: ticketCategoryBody, tags: ['tickets'] } },
    async (request) => {
      const before = await findOne(request.params.id);
      const body = request.body;
      if (await nameTaken(body.name, before.id)) throw fieldError('name', 'The name has already been taken.');
      await db
        .updateTable('ticket_categories')
        .set({ name: body.name, description: body.description, is_active: flag(body.is_active), updated_at: nowIso() })
        .where('id', '=', before.id)
        .execute();
      await recordAudit(db, request, { module: 'ticket_categories', action: 'update', entityId: before.id, oldValues: toApi(before), newValues: body });
      return { data: toApi(await findOne(before.id)) };
    },
  );

  app.delete(
    '/ticket-categories/:id',
    { config: { access: ['ticket-categories', 'delete'] }, schema: { params: idParam, tags: ['tickets'] } },
    async (request, reply) => {
      const before = await findOne(request.params.id);
      await db.deleteFrom('ticket_categories').where('id', '=', before.id).execute();
      await recordAudit(db, request, { module: 'ticket_categories', action: 'delete', entityId: before.id, oldValues: toApi(before) });
      return reply.code(204).send();
    },
  );
};

export default ticketCategoryRoutes;
