/** Ticket categories: admin CRUD, plus the active list every role picks from when opening a ticket. */
import { type Selectable, sql } from 'kysely';
import { z } from 'zod';
import { LISTS, ticketCategoryBody, ticketCategoryEntity } from '../../src/contract';
import { listSpec } from '../http/list';
import type { TicketCategoriesTable } from '../db/schema';
import { crudRoutes } from './crud';

type Row = Selectable<TicketCategoriesTable> & { tickets_count: number };

export default crudRoutes({
  resource: 'ticket-categories',
  tags: ['tickets'],
  table: 'ticket_categories',
  alias: 'c',
  from: (db) => db.selectFrom('ticket_categories as c'),
  select: (qb) =>
    qb.selectAll('c').select((eb) =>
      eb
        .selectFrom('tickets')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('tickets.category_id', '=', 'c.id')
        .as('tickets_count'),
    ),
  list: listSpec(LISTS['ticket-categories'], {
    search: ['c.name', 'c.description'],
    filters: { is_active: { column: 'c.is_active', type: 'boolean' } },
    sorts: { name: 'c.name', created_at: 'c.created_at', updated_at: 'c.updated_at', id: 'c.id' },
    idColumn: 'c.id',
  }),
  entity: ticketCategoryEntity,
  body: ticketCategoryBody,
  unique: [{ field: 'name', message: 'The name has already been taken.', caseInsensitive: true }],
  audit: { module: 'ticket_categories' },
  routes: (app, { query, toApi, errors }) => {
    // Pickers for the ticket form: every role may read the active categories.
    const schema = { response: { 200: z.object({ data: z.array(ticketCategoryEntity) }), '4xx': errors }, tags: ['tickets'] };
    const activeList = async () => ({
      data: ((await query().where('c.is_active', '=', 1).orderBy('c.name').execute()) as Row[]).map(toApi),
    });
    app.get('/ticket-categories-active', { config: { access: ['ticket-categories', 'pick'] }, schema }, activeList);
    app.get('/tickets-categories', { config: { access: ['ticket-categories', 'pick'] }, schema }, activeList);
  },
});
