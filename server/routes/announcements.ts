/**
 * Announcements: the admin publishes them (list with filters and stats, create, edit,
 * toggle, delete, target-user picker); managers, resellers and dealers read those aimed at them while
 * live, each with its own read state. Content is sanitised when saved and again when served.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import {
  ANNOUNCEMENT_FORM,
  LISTS,
  ANNOUNCEMENT_PRIORITIES,
  ANNOUNCEMENT_ROLES,
  ANNOUNCEMENT_STATES,
  ANNOUNCEMENT_TYPES,
  type Announcement,
  type AnnouncementBody,
  type UserAnnouncement,
  announcementBody,
  announcementDetailSchema,
  announcementSchema,
  announcementState,
  announcementStatsSchema,
  apiErrorBody,
  htmlText,
  idParam,
  isExpiringSoon,
  listMetaSchema,
  noContent,
  targetUserSchema,
  userAnnouncementSchema,
} from '../../src/contract';
import { type AnnouncementRow, announcementsFor, liveAnnouncements, rolesOf, usersOf } from '../announcements/audience';
import { sanitizeAnnouncementHtml } from '../announcements/sanitize';
import { recordAudit } from '../audit';
import { bool, flag, nowIso } from '../db/values';
import { fieldError, notFound, validationError } from '../http/errors';
import { actorOf } from '../http/guard';
import { listMeta, listQuerystring, listSpec, paginate, parseListQuery } from '../http/list';
import { announcementPublished } from '../notifications/events';

type Creator = { creator_id: number | null; creator_name: string | null; creator_username: string | null };
type Row = AnnouncementRow & Creator;

function toApi(row: Row, now = Date.now()): Announcement {
  const base = {
    is_active: bool(row.is_active),
    starts_at: row.starts_at,
    expires_at: row.expires_at,
  };
  return {
    id: row.id,
    title: row.title,
    // Served sanitised even if the stored text was written around the API.
    content: sanitizeAnnouncementHtml(row.content),
    type: (ANNOUNCEMENT_TYPES as readonly string[]).includes(row.type) ? (row.type as Announcement['type']) : 'info',
    priority: (ANNOUNCEMENT_PRIORITIES as readonly string[]).includes(row.priority) ? (row.priority as Announcement['priority']) : 'medium',
    target_roles: rolesOf(row).filter((r): r is Announcement['target_roles'][number] => (ANNOUNCEMENT_ROLES as readonly string[]).includes(r)),
    target_users: usersOf(row),
    ...base,
    status: announcementState(base, now),
    expiring_soon: isExpiringSoon(row.expires_at, now),
    creator: row.creator_id !== null && row.creator_name !== null ? { id: row.creator_id, name: row.creator_name, username: row.creator_username ?? '' } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The SQL condition of each state at `now`, as announcementState() decides it. */
function stateCondition(state: string, now: string) {
  const expired = sql<SqlBool>`(a.expires_at is not null and a.expires_at <= ${now})`;
  switch (state) {
    case 'expired':
      return expired;
    case 'inactive':
      return sql<SqlBool>`(not ${expired} and a.is_active = 0)`;
    case 'scheduled':
      return sql<SqlBool>`(not ${expired} and a.is_active = 1 and a.starts_at is not null and a.starts_at > ${now})`;
    default:
      return sql<SqlBool>`(not ${expired} and a.is_active = 1 and (a.starts_at is null or a.starts_at <= ${now}))`;
  }
}

const roleFilter = (role: string) => sql<SqlBool>`a.target_roles like ${`%"${role}"%`}`;

const adminListSpec = (now: string) =>
  listSpec(LISTS.announcements, {
    search: ['a.title', 'a.content'],
    filters: {
      type: { column: 'a.type', type: 'enum', values: ANNOUNCEMENT_TYPES },
      priority: { column: 'a.priority', type: 'enum', values: ANNOUNCEMENT_PRIORITIES },
      is_active: { column: 'a.is_active', type: 'boolean' },
      target_role: {
        validate: (v) => ((ANNOUNCEMENT_ROLES as readonly string[]).includes(v) ? null : `The target_role filter must be one of: ${ANNOUNCEMENT_ROLES.join(', ')}.`),
        apply: (qb, v) => qb.where(roleFilter(v)),
      },
      status: {
        validate: (v) => ((ANNOUNCEMENT_STATES as readonly string[]).includes(v) ? null : `The status filter must be one of: ${ANNOUNCEMENT_STATES.join(', ')}.`),
        apply: (qb, v) => qb.where(stateCondition(v, now)),
      },
    },
    sorts: {
      created_at: 'a.created_at',
      updated_at: 'a.updated_at',
      title: 'a.title',
      priority: 'a.priority',
      starts_at: 'a.starts_at',
      expires_at: 'a.expires_at',
      id: 'a.id',
    },
    idColumn: 'a.id',
  });

const PRIORITY_RANK: Record<string, number> = { urgent: 0, high: 1, medium: 2, low: 3 };

/** The readers' list: filters and sorts over the caller's live announcements (few: filtered in memory). */
const userListSpec = listSpec(LISTS['user-announcements'], {
  search: ['title', 'content'],
  filters: {
    type: { column: 'type', type: 'enum', values: ANNOUNCEMENT_TYPES },
    priority: { column: 'priority', type: 'enum', values: ANNOUNCEMENT_PRIORITIES },
    target_role: { column: 'target_role', type: 'enum', values: ANNOUNCEMENT_ROLES },
  },
  sorts: { created_at: 'created_at', priority: 'priority', title: 'title', expires_at: 'expires_at', id: 'id' },
  idColumn: 'id',
});

const announcementRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;

  const withCreator = (qb: SelectQueryBuilder<any, any, any>) =>
    qb
      .leftJoin('users as cu', 'cu.id', 'a.created_by')
      .selectAll('a')
      .select(['cu.id as creator_id', 'cu.name as creator_name', 'cu.username as creator_username']) as SelectQueryBuilder<any, any, Row>;

  const findOne = async (id: number): Promise<Row> => {
    const row = await withCreator(db.selectFrom('announcements as a')).where('a.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  };

  const detail = async (row: Row) => {
    const ids = usersOf(row);
    const users = ids.length ? await db.selectFrom('users').select(['id', 'name', 'username', 'role']).where('id', 'in', ids).orderBy('username').execute() : [];
    return { ...toApi(row), target_user_details: users };
  };

  /** Creators of rows read without the join (the readers' lists). */
  const withCreators = async (rows: AnnouncementRow[]): Promise<Row[]> => {
    const ids = [...new Set(rows.map((r) => r.created_by).filter((id): id is number => id !== null))];
    const users = ids.length ? await db.selectFrom('users').select(['id', 'name', 'username']).where('id', 'in', ids).execute() : [];
    const byId = new Map(users.map((u) => [u.id, u]));
    return rows.map((r) => {
      const c = r.created_by !== null ? byId.get(r.created_by) : undefined;
      return { ...r, creator_id: c?.id ?? null, creator_name: c?.name ?? null, creator_username: c?.username ?? null };
    });
  };

  /**
   * Tells the audience of an announcement that is live now, at once. The announcement is saved
   * whatever happens here: should this fail, the notification job's scan tells it later.
   */
  const notifyIfLive = async (request: FastifyRequest, id: number) => {
    try {
      await announcementPublished(db, id);
    } catch (error) {
      request.log.error({ err: error, announcement: id }, 'announcement notification deferred to the scan');
    }
  };

  /** Sanitises the content (422 when nothing readable is left) and checks the chosen users. */
  const prepare = async (body: AnnouncementBody) => {
    const content = sanitizeAnnouncementHtml(body.content);
    if (htmlText(content) === '') throw fieldError('content', ANNOUNCEMENT_FORM.contentRequired);
    if (body.target_users.length) {
      const found = await db.selectFrom('users').select(['id', 'role']).where('id', 'in', body.target_users).where('status', '!=', 'deleted').execute();
      const valid = found.filter((u) => (body.target_roles as string[]).includes(u.role));
      if (valid.length !== body.target_users.length) throw validationError({ target_users: ANNOUNCEMENT_FORM.usersInvalid });
    }
    return {
      title: body.title,
      content,
      type: body.type,
      priority: body.priority,
      target_roles: JSON.stringify(body.target_roles),
      target_users: JSON.stringify(body.target_users),
      is_active: flag(body.is_active),
      starts_at: body.starts_at,
      expires_at: body.expires_at,
    };
  };

  // ---- admin ----

  app.get(
    '/announcements',
    {
      config: { access: ['announcements', 'list'] },
      schema: {
        querystring: listQuerystring(adminListSpec(new Date(0).toISOString())),
        response: { 200: z.object({ data: z.array(announcementSchema), meta: listMetaSchema }), '4xx': apiErrorBody },
        tags: ['announcements'],
      },
    },
    async (request) => {
      const now = Date.now();
      return paginate<Row, Announcement>(db.selectFrom('announcements as a'), request.query, adminListSpec(new Date(now).toISOString()), withCreator, (row) =>
        toApi(row, now),
      );
    },
  );

  app.get(
    '/announcements/stats',
    {
      config: { access: ['announcements', 'list'] },
      schema: { response: { 200: z.object({ data: announcementStatsSchema }), '4xx': apiErrorBody }, tags: ['announcements'] },
    },
    async () => {
      const now = nowIso();
      const sum = (state: string) => sql<number>`coalesce(sum(case when ${stateCondition(state, now)} then 1 else 0 end), 0)`;
      const row = await db
        .selectFrom('announcements as a')
        .select([
          sql<number>`count(*)`.as('total'),
          sum('active').as('active'),
          sum('scheduled').as('scheduled'),
          sum('expired').as('expired'),
          sum('inactive').as('inactive'),
        ])
        .executeTakeFirstOrThrow();
      const n = (v: unknown) => Number(v ?? 0);
      return { data: { total: n(row.total), active: n(row.active), scheduled: n(row.scheduled), expired: n(row.expired), inactive: n(row.inactive) } };
    },
  );

  // What is live now, whoever it is for (the admin's dashboard banner).
  app.get(
    '/announcements/visible',
    {
      config: { access: ['announcements', 'list'] },
      schema: {
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
        response: { 200: z.object({ data: z.array(announcementSchema) }), '4xx': apiErrorBody },
        tags: ['announcements'],
      },
    },
    async (request) => {
      const rows = await withCreators(await liveAnnouncements(db, nowIso()).orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(request.query.limit).execute());
      return { data: rows.map((r) => toApi(r)) };
    },
  );

  app.get(
    '/announcements/target-users',
    {
      config: { access: ['announcements', 'list'] },
      schema: {
        querystring: z.object({ role: z.enum(ANNOUNCEMENT_ROLES, { error: ANNOUNCEMENT_FORM.rolesInvalid }), search: z.string().trim().max(100).optional() }),
        response: { 200: z.object({ users: z.array(targetUserSchema) }), '4xx': apiErrorBody },
        tags: ['announcements'],
      },
    },
    async (request) => {
      let q = db.selectFrom('users').select(['id', 'name', 'username', 'role']).where('role', '=', request.query.role).where('status', '!=', 'deleted');
      const term = request.query.search;
      if (term) {
        const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) => eb.or([sql<SqlBool>`lower(name) like ${pattern} escape '\\'`, sql<SqlBool>`lower(username) like ${pattern} escape '\\'`]));
      }
      return { users: await q.orderBy('username').limit(100).execute() };
    },
  );

  app.get(
    '/announcements/:id',
    {
      config: { access: ['announcements', 'show'] },
      schema: { params: idParam, response: { 200: z.object({ data: announcementDetailSchema }), '4xx': apiErrorBody }, tags: ['announcements'] },
    },
    async (request) => ({ data: await detail(await findOne(request.params.id)) }),
  );

  app.post(
    '/announcements',
    {
      config: { access: ['announcements', 'create'] },
      schema: {
        body: announcementBody,
        response: { 201: z.object({ message: z.string(), data: announcementDetailSchema }), '4xx': apiErrorBody },
        tags: ['announcements'],
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const values = await prepare(request.body);
      const now = nowIso();
      const { id } = await db
        .insertInto('announcements')
        .values({ ...values, created_by: actor.id, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(db, request, {
        module: 'announcements',
        action: 'create',
        entityId: id,
        description: `Created announcement "${values.title}"`,
        newValues: { ...request.body, content: values.content },
      });
      await notifyIfLive(request, id);
      return reply.code(201).send({ message: ANNOUNCEMENT_FORM.created, data: await detail(await findOne(id)) });
    },
  );

  app.put(
    '/announcements/:id',
    {
      config: { access: ['announcements', 'edit'] },
      schema: {
        params: idParam,
        body: announcementBody,
        response: { 200: z.object({ message: z.string(), data: announcementDetailSchema }), '4xx': apiErrorBody },
        tags: ['announcements'],
      },
    },
    async (request) => {
      const before = await findOne(request.params.id);
      const values = await prepare(request.body);
      await db
        .updateTable('announcements')
        .set({ ...values, updated_at: nowIso() })
        .where('id', '=', before.id)
        .execute();
      await recordAudit(db, request, {
        module: 'announcements',
        action: 'update',
        entityId: before.id,
        description: `Updated announcement "${values.title}"`,
        oldValues: toApi(before),
        newValues: { ...request.body, content: values.content },
      });
      await notifyIfLive(request, before.id);
      return { message: ANNOUNCEMENT_FORM.updated, data: await detail(await findOne(before.id)) };
    },
  );

  app.patch(
    '/announcements/:id/toggle-status',
    {
      config: { access: ['announcements', 'status'] },
      schema: { params: idParam, response: { 200: z.object({ message: z.string(), data: announcementSchema }), '4xx': apiErrorBody }, tags: ['announcements'] },
    },
    async (request) => {
      const before = await findOne(request.params.id);
      const active = !bool(before.is_active);
      await db
        .updateTable('announcements')
        .set({ is_active: flag(active), updated_at: nowIso() })
        .where('id', '=', before.id)
        .execute();
      await recordAudit(db, request, {
        module: 'announcements',
        action: 'status',
        entityId: before.id,
        description: `${active ? 'Activated' : 'Deactivated'} announcement "${before.title}"`,
        oldValues: { is_active: bool(before.is_active) },
        newValues: { is_active: active },
      });
      if (active) await notifyIfLive(request, before.id);
      return { message: active ? ANNOUNCEMENT_FORM.activated : ANNOUNCEMENT_FORM.deactivated, data: toApi(await findOne(before.id)) };
    },
  );

  app.delete(
    '/announcements/:id',
    { config: { access: ['announcements', 'delete'] }, schema: { params: idParam, response: { 204: noContent, '4xx': apiErrorBody }, tags: ['announcements'] } },
    async (request, reply) => {
      const before = await findOne(request.params.id);
      await db.deleteFrom('announcements').where('id', '=', before.id).execute();
      await recordAudit(db, request, {
        module: 'announcements',
        action: 'delete',
        entityId: before.id,
        description: `Deleted announcement "${before.title}"`,
        oldValues: toApi(before),
      });
      // No content: nothing for a response schema to shape.
      return (reply as FastifyReply).code(204).send();
    },
  );

  // ---- readers (manager, reseller, dealer) ----

  /** The caller's live announcements with their read state, newest first. */
  const readerView = async (request: Parameters<typeof actorOf>[0]) => {
    const actor = actorOf(request);
    const now = Date.now();
    const rows = await announcementsFor(db, actor, new Date(now).toISOString());
    const reads = rows.length
      ? new Set(
          (
            await db
              .selectFrom('announcement_reads')
              .select('announcement_id')
              .where('user_id', '=', actor.id)
              .where(
                'announcement_id',
                'in',
                rows.map((r) => r.id),
              )
              .execute()
          ).map((r) => r.announcement_id),
        )
      : new Set<number>();
    const view = (row: Row): UserAnnouncement => {
      const { target_users: _users, ...rest } = toApi(row, now);
      const read = reads.has(row.id);
      return { ...rest, is_read: read, is_new: !read };
    };
    return { actor, rows, reads, view };
  };

  app.get(
    '/user/announcements',
    {
      config: { access: ['user-announcements', 'list'] },
      schema: {
        querystring: listQuerystring(userListSpec),
        response: { 200: z.object({ data: z.array(userAnnouncementSchema), meta: listMetaSchema, unread_count: z.number() }), '4xx': apiErrorBody },
        tags: ['announcements'],
      },
    },
    async (request) => {
      const params = parseListQuery(request.query, userListSpec);
      const { rows, reads, view } = await readerView(request);
      const term = params.search?.toLowerCase();
      const matching = rows.filter(
        (r) =>
          (!term || r.title.toLowerCase().includes(term) || htmlText(r.content).toLowerCase().includes(term)) &&
          (!params.filters.type || r.type === params.filters.type) &&
          (!params.filters.priority || r.priority === params.filters.priority) &&
          (!params.filters.target_role || rolesOf(r).length === 0 || rolesOf(r).includes(params.filters.target_role)),
      );
      const key = params.sortKey as keyof AnnouncementRow | 'priority';
      const value = (r: AnnouncementRow) => (key === 'priority' ? (PRIORITY_RANK[r.priority] ?? 9) : (r[key as keyof AnnouncementRow] ?? ''));
      const sign = params.direction === 'asc' ? 1 : -1;
      matching.sort((a, b) => {
        const [x, y] = [value(a), value(b)];
        return (x < y ? -1 : x > y ? 1 : 0) * sign || (a.id - b.id) * sign;
      });
      const start = (params.page - 1) * params.perPage;
      const page = await withCreators(matching.slice(start, start + params.perPage));
      return {
        data: page.map(view),
        meta: listMeta(matching.length, params),
        unread_count: rows.filter((r) => !reads.has(r.id)).length,
      };
    },
  );

  app.get(
    '/user/announcements/unread-count',
    {
      config: { access: ['user-announcements', 'list'] },
      schema: { response: { 200: z.object({ unread_count: z.number() }), '4xx': apiErrorBody }, tags: ['announcements'] },
    },
    async (request) => {
      const { rows, reads } = await readerView(request);
      return { unread_count: rows.filter((r) => !reads.has(r.id)).length };
    },
  );

  app.get(
    '/user/announcements/recent',
    {
      config: { access: ['user-announcements', 'list'] },
      schema: {
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(20).default(3) }),
        response: { 200: z.object({ announcements: z.array(userAnnouncementSchema) }), '4xx': apiErrorBody },
        tags: ['announcements'],
      },
    },
    async (request) => {
      const { rows, view } = await readerView(request);
      return { announcements: (await withCreators(rows.slice(0, request.query.limit))).map(view) };
    },
  );

  // Opening one reads it.
  app.get(
    '/user/announcements/:id',
    {
      config: { access: ['user-announcements', 'show'] },
      schema: { params: idParam, response: { 200: z.object({ data: userAnnouncementSchema }), '4xx': apiErrorBody }, tags: ['announcements'] },
    },
    async (request) => {
      const { actor, rows, view } = await readerView(request);
      const row = rows.find((r) => r.id === request.params.id);
      if (!row) throw notFound();
      await db
        .insertInto('announcement_reads')
        .values({ announcement_id: row.id, user_id: actor.id, read_at: nowIso() })
        .onConflict((oc) => oc.columns(['announcement_id', 'user_id']).doNothing())
        .execute();
      const [withCreator] = await withCreators([row]);
      return { data: { ...view(withCreator), is_read: true, is_new: false } };
    },
  );
};

export default announcementRoutes;
