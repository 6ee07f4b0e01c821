/**
 * Audit logs (admin only): the entries with filters by module, action, username, target
 * username and date range, paged 10 to 100 (15 by default); the modules and actions that occur; the
 * stats. Read only: entries are never changed or deleted through the API (nor by SQL: triggers).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type SelectQueryBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import {
  LIST_EXPORTS,
  AUDIT,
  LISTS,
  type AuditLog,
  FIELD_RULES,
  apiErrorBody,
  auditLogSchema,
  auditPaginationSchema,
  auditStatsSchema,
  idParam,
  parseCalendarDate,
} from '../../src/contract';
import type { AuditLogsTable } from '../db/schema';
import { parseJson } from '../db/values';
import { notFound, validationError } from '../http/errors';
import { type FilterDef, listQuerystring, listSpec, respondList, searchAny, shapePage } from '../http/list';

type Row = Selectable<AuditLogsTable>;

const toApi = (row: Row): AuditLog => ({
  id: row.id,
  module: row.module,
  action: row.action,
  user_id: row.user_id,
  username: row.username,
  target_username: row.target_username,
  entity_id: row.entity_id,
  description: row.description,
  ip_address: row.ip_address,
  user_agent: row.user_agent,
  old_values: parseJson<unknown>(row.old_values, null),
  new_values: parseJson<unknown>(row.new_values, null),
  created_at: row.created_at,
  api_token: row.api_token,
  viewer_username: row.viewer_username,
});

const dateBound = (edge: 'start' | 'end'): FilterDef => ({
  validate: (v) => (Number.isNaN(parseCalendarDate(v, edge)) ? FIELD_RULES.validDate : null),
  apply: (qb, v) => qb.where('l.created_at', edge === 'start' ? '>=' : '<=', new Date(parseCalendarDate(v, edge)).toISOString()),
});

const contains = (column: string): FilterDef => ({ apply: (qb, v) => qb.where((eb) => searchAny(eb, [column], v)) });

const auditList = listSpec(LISTS['audit-logs'], {
  search: ['l.description', 'l.username', 'l.target_username', 'l.module', 'l.action'],
  filters: {
    module: { column: 'l.module', type: 'text' },
    action: { column: 'l.action', type: 'text' },
    username: contains('l.username'),
    target_username: contains('l.target_username'),
    entity_id: { column: 'l.entity_id', type: 'int' },
    date_from: dateBound('start'),
    date_to: dateBound('end'),
  },
  sorts: { id: 'l.id', created_at: 'l.created_at', module: 'l.module', action: 'l.action', username: 'l.username' },
  idColumn: 'l.id',
  csv: LIST_EXPORTS['audit-logs'],
});

const optionalDate = (edge: 'start' | 'end') =>
  z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || !Number.isNaN(parseCalendarDate(v, edge)), FIELD_RULES.validDate);
const statsQuery = z.object({
  module: z.string().trim().max(100).optional(),
  action: z.string().trim().max(100).optional(),
  date_from: optionalDate('start'),
  date_to: optionalDate('end'),
});

const auditLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const base = () => db.selectFrom('audit_logs as l');

  app.get(
    '/audit-logs',
    {
      config: { access: ['audit-logs', 'list'] },
      schema: {
        querystring: listQuerystring(auditList),
        response: { 200: z.object({ data: z.array(auditLogSchema), pagination: auditPaginationSchema }), '4xx': apiErrorBody },
        tags: ['audit-logs'],
      },
    },
    async (request, reply) =>
      respondList(request, reply, { base: base(), spec: auditList, select: (qb) => qb.selectAll('l'), present: (rows: Row[]) => rows.map(toApi) }, (page) =>
        shapePage(auditList.entry, page),
      ),
  );

  const distinct = (column: 'module' | 'action') => async () => ({
    data: (await db.selectFrom('audit_logs').select(column).distinct().orderBy(column).execute()).map((r) => r[column]),
  });
  const listOfNames = { 200: z.object({ data: z.array(z.string()) }), '4xx': apiErrorBody };
  app.get('/audit-logs/modules', { config: { access: ['audit-logs', 'list'] }, schema: { response: listOfNames, tags: ['audit-logs'] } }, distinct('module'));
  app.get('/audit-logs/actions', { config: { access: ['audit-logs', 'list'] }, schema: { response: listOfNames, tags: ['audit-logs'] } }, distinct('action'));

  app.get(
    '/audit-logs/stats',
    {
      config: { access: ['audit-logs', 'list'] },
      schema: { querystring: statsQuery, response: { 200: z.object({ data: auditStatsSchema }), '4xx': apiErrorBody }, tags: ['audit-logs'] },
    },
    async (request) => {
      const q = request.query;
      const from = q.date_from ? new Date(parseCalendarDate(q.date_from, 'start')).toISOString() : null;
      const to = q.date_to ? new Date(parseCalendarDate(q.date_to, 'end')).toISOString() : null;
      if (from && to && to < from) throw validationError({ date_to: AUDIT.dateRangeInvalid });
      const scoped = () => {
        let qb: SelectQueryBuilder<any, any, any> = base();
        if (q.module) qb = qb.where('l.module', '=', q.module);
        if (q.action) qb = qb.where('l.action', '=', q.action);
        if (from) qb = qb.where('l.created_at', '>=', from);
        if (to) qb = qb.where('l.created_at', '<=', to);
        return qb;
      };
      const today = new Date().toISOString().slice(0, 10);
      const day = sql<string>`substr(l.created_at, 1, 10)`;
      const [totals, byModule, byAction, byDate] = await Promise.all([
        scoped()
          .select([sql<number>`count(*)`.as('total'), sql<number>`coalesce(sum(case when l.created_at >= ${`${today}T00:00:00.000Z`} then 1 else 0 end), 0)`.as('today')])
          .executeTakeFirstOrThrow(),
        scoped()
          .select(['l.module', sql<number>`count(*)`.as('count')])
          .groupBy('l.module')
          .orderBy(sql`count(*)`, 'desc')
          .orderBy('l.module')
          .execute(),
        scoped()
          .select(['l.action', sql<number>`count(*)`.as('count')])
          .groupBy('l.action')
          .orderBy(sql`count(*)`, 'desc')
          .orderBy('l.action')
          .execute(),
        // The last 30 days of the range (or up to now).
        scoped()
          .where(sql<SqlBool>`l.created_at >= ${new Date((to ? Date.parse(to) : Date.now()) - 30 * 86_400_000).toISOString()}`)
          .select([day.as('date'), sql<number>`count(*)`.as('count')])
          .groupBy(day)
          .orderBy(day)
          .execute(),
      ]);
      return {
        data: {
          total_logs: Number(totals.total ?? 0),
          today: Number(totals.today ?? 0),
          by_module: byModule.map((r) => ({ module: r.module as string, count: Number(r.count) })),
          by_action: byAction.map((r) => ({ action: r.action as string, count: Number(r.count) })),
          by_date: byDate.map((r) => ({ date: r.date as string, count: Number(r.count) })),
        },
      };
    },
  );

  app.get(
    '/audit-logs/:id',
    {
      config: { access: ['audit-logs', 'show'] },
      schema: { params: idParam, response: { 200: z.object({ data: auditLogSchema }), '4xx': apiErrorBody }, tags: ['audit-logs'] },
    },
    async (request) => {
      const row = await base().selectAll('l').where('l.id', '=', request.params.id).executeTakeFirst();
      if (!row) throw notFound();
      return { data: toApi(row as Row) };
    },
  );
};

export default auditLogRoutes;
