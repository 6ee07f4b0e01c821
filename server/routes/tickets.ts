/**
 * Tickets: every role opens tickets in a category with a priority and answers them in a
 * thread. A ticket is seen and answered by its owner and by everyone above the owner up to admin;
 * anyone else gets 404. A message from one side (the owner, or the staff above it) makes the ticket
 * unread for the other side until they open it. Lists answer the nested shape (docs/api.md).
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import {
  LIST_EXPORTS,
  LISTS,
  TICKETS,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  type Ticket,
  type TicketReply,
  apiErrorBody,
  idParam,
  noContent,
  ticketCreateBody,
  ticketPageSchema,
  ticketReplyBody,
  ticketReplySchema,
  ticketSchema,
  ticketStatisticsSchema,
  ticketUpdateBody,
  ticketWithRepliesSchema,
} from '../../src/contract';
import { recordAudit } from '../audit';
import type { Database, UserRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso } from '../db/values';
import { fieldError, forbidden, notFound } from '../http/errors';
import { actorOf } from '../http/guard';
import { type AnyQuery, listQuerystring, listSpec, respondList, shapePage } from '../http/list';
import { within } from '../http/scope';
import { ticketReplied } from '../notifications/events';

type Actor = Pick<UserRow, 'id' | 'role' | 'path'>;

/** The caller's side of a ticket: the owner, or the staff above the owner. */
const sideOf = (actor: Actor, ownerId: number) => (actor.id === ownerId ? 'owner' : 'staff');

/**
 * Unread for the caller: the last message is from the other side and came after the caller last
 * opened the ticket (or the caller never opened it). Needs `t` (tickets) and `r` (the caller's read).
 */
const unreadExpr = (actorId: number) => sql<number>`case when (
    (t.user_id = ${actorId} and t.last_activity_side = 'staff') or (t.user_id <> ${actorId} and t.last_activity_side = 'owner')
  ) and (r.read_at is null or r.read_at < coalesce(t.last_activity_at, t.created_at)) then 1 else 0 end`;

const TRUE = ['1', 'true', 'yes'];

export const ticketListSpec = (actorId: number) =>
  listSpec(LISTS.tickets, {
    search: ['t.subject', 't.message'],
    filters: {
      status: { column: 't.status', type: 'enum', values: TICKET_STATUSES },
      priority: { column: 't.priority', type: 'enum', values: TICKET_PRIORITIES },
      category_id: { column: 't.category_id', type: 'int' },
      user_id: { column: 't.user_id', type: 'int' },
      unread: {
        validate: (v) => (['1', 'true', 'yes', '0', 'false', 'no'].includes(v.toLowerCase()) ? null : 'The unread filter must be true or false.'),
        apply: (qb, v) => qb.where(sql<SqlBool>`${unreadExpr(actorId)} = ${TRUE.includes(v.toLowerCase()) ? 1 : 0}`),
      },
    },
    sorts: {
      id: 't.id',
      subject: 't.subject',
      priority: 't.priority',
      status: 't.status',
      created_at: 't.created_at',
      updated_at: 't.updated_at',
    },
    idColumn: 't.id',
    csv: LIST_EXPORTS.tickets,
  });

interface Row {
  id: number;
  subject: string;
  message: string;
  priority: string;
  status: string;
  category_id: number | null;
  category_name: string | null;
  user_id: number;
  user_name: string;
  user_username: string;
  user_role: string;
  replies_count: number | string;
  is_unread: number | string;
  last_activity_side: string;
  last_activity_at: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

const toApi = (row: Row): Ticket => ({
  id: row.id,
  subject: row.subject,
  message: row.message,
  priority: row.priority as Ticket['priority'],
  status: row.status as Ticket['status'],
  category_id: row.category_id,
  category: row.category_id !== null && row.category_name !== null ? { id: row.category_id, name: row.category_name } : null,
  user_id: row.user_id,
  user: { id: row.user_id, name: row.user_name, username: row.user_username, role: row.user_role as Ticket['user']['role'] },
  replies_count: Number(row.replies_count ?? 0),
  is_unread: Number(row.is_unread) === 1,
  last_activity_side: row.last_activity_side === 'staff' ? 'staff' : 'owner',
  last_activity_at: row.last_activity_at ?? row.created_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
  closed_at: row.closed_at,
});

/** Tickets the actor may see, with the caller's read mark joined as `r`. */
function visibleTickets(db: Kysely<Database>, actor: Actor) {
  return db
    .selectFrom('tickets as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('ticket_categories as c', 'c.id', 't.category_id')
    .leftJoin('ticket_reads as r', (join) => join.onRef('r.ticket_id', '=', 't.id').on('r.user_id', '=', actor.id))
    .where(within(actor, 't.owner_path'));
}

const selectRow = (qb: SelectQueryBuilder<any, any, any>, actorId: number): SelectQueryBuilder<any, any, Row> =>
  qb.select((eb: ExpressionBuilder<any, any>) => [
    't.id',
    't.subject',
    't.message',
    't.priority',
    't.status',
    't.category_id',
    'c.name as category_name',
    't.user_id',
    'u.name as user_name',
    'u.username as user_username',
    'u.role as user_role',
    eb
      .selectFrom('ticket_replies as rp')
      .select(sql<number>`count(*)`.as('n'))
      .whereRef('rp.ticket_id', '=', 't.id')
      .as('replies_count'),
    unreadExpr(actorId).as('is_unread'),
    't.last_activity_side',
    't.last_activity_at',
    't.created_at',
    't.updated_at',
    't.closed_at',
  ]) as SelectQueryBuilder<any, any, Row>;

const ticketRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;

  const findVisible = async (actor: Actor, id: number): Promise<Ticket> => {
    const row = await selectRow(visibleTickets(db, actor).where('t.id', '=', id), actor.id).executeTakeFirst();
    if (!row) throw notFound();
    return toApi(row);
  };

  const markRead = (executor: Kysely<Database>, ticketId: number, userId: number, at: string) =>
    executor
      .insertInto('ticket_reads')
      .values({ ticket_id: ticketId, user_id: userId, read_at: at })
      .onConflict((oc) => oc.columns(['ticket_id', 'user_id']).doUpdateSet({ read_at: at }))
      .execute();

  const activeCategory = async (id: number) => {
    const category = await db.selectFrom('ticket_categories').select(['id', 'is_active']).where('id', '=', id).executeTakeFirst();
    if (!category || category.is_active !== 1) throw fieldError('category_id', TICKETS.categoryInvalid);
  };

  const repliesOf = async (ticket: Ticket): Promise<TicketReply[]> => {
    const rows = await db
      .selectFrom('ticket_replies as rp')
      .innerJoin('users as u', 'u.id', 'rp.user_id')
      .select(['rp.id', 'rp.ticket_id', 'rp.message', 'rp.created_at', 'rp.user_id', 'u.name', 'u.username', 'u.role'])
      .where('rp.ticket_id', '=', ticket.id)
      .orderBy('rp.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      ticket_id: r.ticket_id,
      message: r.message,
      user: { id: r.user_id, name: r.name, username: r.username, role: r.role as TicketReply['user']['role'] },
      is_staff: r.user_id !== ticket.user_id,
      created_at: r.created_at,
    }));
  };

  app.get(
    '/tickets',
    {
      config: { access: ['tickets', 'list'] },
      schema: { querystring: listQuerystring(ticketListSpec(0)), response: { 200: ticketPageSchema, '4xx': apiErrorBody }, tags: ['tickets'] },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const run = {
        base: visibleTickets(db, actor),
        spec: ticketListSpec(actor.id),
        select: (qb: AnyQuery) => selectRow(qb, actor.id),
        present: (rows: Row[]) => rows.map(toApi),
      };
      return respondList(request, reply, run, (page) => shapePage(LISTS.tickets, page));
    },
  );

  app.get(
    '/tickets-statistics',
    {
      config: { access: ['tickets', 'list'] },
      schema: { response: { 200: z.object({ data: ticketStatisticsSchema }), '4xx': apiErrorBody }, tags: ['tickets'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const totals = await visibleTickets(db, actor)
        .select([
          sql<number>`count(*)`.as('total'),
          sql<number>`coalesce(sum(case when t.status = 'open' then 1 else 0 end), 0)`.as('open'),
          sql<number>`coalesce(sum(case when t.status = 'closed' then 1 else 0 end), 0)`.as('closed'),
          sql<number>`coalesce(sum(${unreadExpr(actor.id)}), 0)`.as('unread'),
          ...TICKET_PRIORITIES.map((p) => sql<number>`coalesce(sum(case when t.priority = ${p} then 1 else 0 end), 0)`.as(p)),
        ])
        .executeTakeFirstOrThrow();
      const byCategory = await visibleTickets(db, actor)
        .select(['t.category_id as id', 'c.name as name', sql<number>`count(*)`.as('count')])
        .groupBy(['t.category_id', 'c.name'])
        .orderBy('c.name')
        .execute();
      const n = (v: unknown) => Number(v ?? 0);
      return {
        data: {
          total: n(totals.total),
          open: n(totals.open),
          closed: n(totals.closed),
          unread: n(totals.unread),
          by_priority: { low: n(totals.low), medium: n(totals.medium), high: n(totals.high), urgent: n(totals.urgent) },
          by_category: byCategory.map((c) => ({ id: c.id, name: c.name, count: n(c.count) })),
        },
      };
    },
  );

  // Opening a ticket reads it: it is no longer unread for the caller.
  app.get(
    '/tickets/:id',
    {
      config: { access: ['tickets', 'show'] },
      schema: { params: idParam, response: { 200: z.object({ data: ticketWithRepliesSchema }), '4xx': apiErrorBody }, tags: ['tickets'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const ticket = await findVisible(actor, request.params.id);
      await markRead(db, ticket.id, actor.id, nowIso());
      return { data: { ...ticket, is_unread: false, replies: await repliesOf(ticket) } };
    },
  );

  app.post(
    '/tickets',
    {
      config: { access: ['tickets', 'create'] },
      schema: { body: ticketCreateBody, response: { 201: z.object({ message: z.string(), data: ticketSchema }), '4xx': apiErrorBody }, tags: ['tickets'] },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const body = request.body;
      await activeCategory(body.category_id);
      const now = nowIso();
      const id = await inTransaction(db, async (trx) => {
        const row = await trx
          .insertInto('tickets')
          .values({
            user_id: actor.id,
            owner_path: actor.path,
            category_id: body.category_id,
            subject: body.subject,
            message: body.message,
            priority: body.priority,
            status: 'open',
            created_at: now,
            updated_at: now,
            closed_at: null,
            last_activity_at: now,
            last_activity_side: 'owner',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await markRead(trx, row.id, actor.id, now);
        return row.id;
      });
      await recordAudit(db, request, {
        module: 'tickets',
        action: 'create',
        entityId: id,
        targetUsername: actor.username,
        description: `Opened ticket "${body.subject}"`,
        newValues: body,
      });
      return reply.code(201).send({ message: TICKETS.created, data: await findVisible(actor, id) });
    },
  );

  app.put(
    '/tickets/:id',
    {
      config: { access: ['tickets', 'edit'] },
      schema: {
        params: idParam,
        body: ticketUpdateBody,
        response: { 200: z.object({ message: z.string(), data: ticketSchema }), '4xx': apiErrorBody },
        tags: ['tickets'],
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const before = await findVisible(actor, request.params.id);
      const body = request.body;
      const ownerFields = body.subject !== undefined || body.message !== undefined || body.category_id !== undefined;
      if (ownerFields && actor.id !== before.user_id) throw forbidden(TICKETS.ownerOnly);
      if (body.category_id !== undefined && body.category_id !== before.category_id) await activeCategory(body.category_id);
      const now = nowIso();
      const closing = body.status === 'closed' && before.status !== 'closed';
      const reopening = body.status === 'open' && before.status !== 'open';
      await db
        .updateTable('tickets')
        .set({
          ...(body.subject !== undefined ? { subject: body.subject } : {}),
          ...(body.message !== undefined ? { message: body.message } : {}),
          ...(body.category_id !== undefined ? { category_id: body.category_id } : {}),
          ...(body.priority !== undefined ? { priority: body.priority } : {}),
          ...(body.status !== undefined ? { status: body.status } : {}),
          ...(closing ? { closed_at: now } : reopening ? { closed_at: null } : {}),
          updated_at: now,
        })
        .where('id', '=', before.id)
        .execute();
      const changed = Object.fromEntries(Object.keys(body).map((k) => [k, before[k as keyof Ticket]]));
      await recordAudit(db, request, {
        module: 'tickets',
        action: closing ? 'close' : reopening ? 'reopen' : 'update',
        entityId: before.id,
        targetUsername: before.user.username,
        description: `${closing ? 'Closed' : reopening ? 'Reopened' : 'Updated'} ticket "${before.subject}"`,
        oldValues: changed,
        newValues: body,
      });
      const message = closing ? TICKETS.closed : reopening ? TICKETS.reopened : TICKETS.updated;
      return { message, data: await findVisible(actor, before.id) };
    },
  );

  app.post(
    '/tickets/:id/replies',
    {
      config: { access: ['tickets', 'reply'] },
      schema: {
        params: idParam,
        body: ticketReplyBody,
        response: { 201: z.object({ message: z.string(), data: ticketReplySchema }), '4xx': apiErrorBody },
        tags: ['tickets'],
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const ticket = await findVisible(actor, request.params.id);
      if (ticket.status === 'closed') throw fieldError('message', TICKETS.closedNoReply);
      const now = nowIso();
      const side = sideOf(actor, ticket.user_id);
      const id = await inTransaction(db, async (trx) => {
        const row = await trx
          .insertInto('ticket_replies')
          .values({ ticket_id: ticket.id, user_id: actor.id, message: request.body.message, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        // The other side has something new; the writer has read everything.
        await trx.updateTable('tickets').set({ last_activity_at: now, last_activity_side: side, updated_at: now }).where('id', '=', ticket.id).execute();
        await markRead(trx, ticket.id, actor.id, now);
        await ticketReplied(trx, { replyId: row.id, ticketId: ticket.id, subject: ticket.subject, ownerId: ticket.user_id, authorId: actor.id, author: actor.username });
        return row.id;
      });
      await recordAudit(db, request, {
        module: 'tickets',
        action: 'reply',
        entityId: ticket.id,
        targetUsername: ticket.user.username,
        description: `Replied to ticket "${ticket.subject}"`,
        newValues: { reply_id: id, message: request.body.message },
      });
      const created = (await repliesOf(ticket)).find((r) => r.id === id)!;
      return reply.code(201).send({ message: TICKETS.replied, data: created });
    },
  );

  app.delete(
    '/tickets/:id',
    { config: { access: ['tickets', 'delete'] }, schema: { params: idParam, response: { 204: noContent, '4xx': apiErrorBody }, tags: ['tickets'] } },
    async (request, reply) => {
      const actor = actorOf(request);
      const before = await findVisible(actor, request.params.id);
      await db.deleteFrom('tickets').where('id', '=', before.id).execute();
      await recordAudit(db, request, {
        module: 'tickets',
        action: 'delete',
        entityId: before.id,
        targetUsername: before.user.username,
        description: `Deleted ticket "${before.subject}"`,
        oldValues: before,
      });
      // No content: nothing for a response schema to shape.
      return (reply as FastifyReply).code(204).send();
    },
  );
};

export default ticketRoutes;
