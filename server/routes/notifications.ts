/**
 * Notifications: the caller's own inbox (list, mark read, mark all read), its delivery log, its
 * channels (GET and PUT /profile/notifications) and the admin's SMTP server (GET and PUT
 * /smtp-settings). Nothing here takes another user's id: a notification of someone else answers 404.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LISTS,
  NOTIFICATIONS,
  NOTIFICATION_TYPES,
  type NotificationType,
  apiErrorBody,
  dataOf,
  deliveryEntity,
  idParam,
  messageDataOf,
  notificationEntity,
  notificationListAnswer,
  notificationSettingsBody,
  notificationSettingsEntity,
  smtpSettingsBody,
  smtpSettingsEntity,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { nowIso, parseJson } from '../db/values';
import { notFound } from '../http/errors';
import { actorOf } from '../http/guard';
import { listQuerystring, listSpec, paginate } from '../http/list';
import type { EventPayload } from '../notifications/events';
import { deliveryLog } from '../notifications/outbox';
import { readNotificationSettings, readSmtpSettings, updateNotificationSettings, updateSmtpSettings } from '../notifications/settings';

const UNREAD_VALUES: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

/** The caller's inbox as a list: newest first, filtered by unread and type. */
const inboxSpec = listSpec(LISTS.notifications, {
  filters: {
    unread: {
      validate: (v) => (v in UNREAD_VALUES ? null : 'The unread filter must be true or false.'),
      apply: (qb, v) => (UNREAD_VALUES[v] ? qb.where('n.read_at', 'is', null) : qb.where('n.read_at', 'is not', null)),
    },
    type: { column: 'e.type', type: 'enum', values: NOTIFICATION_TYPES },
  },
  sorts: { created_at: 'n.created_at', id: 'n.id' },
  idColumn: 'n.id',
});

/** The delivery log shows a user's latest deliveries. */
const DELIVERY_LOG_ROWS = 100;

const payloadOf = (text: string) => parseJson<EventPayload>(text, { title: '', text: '', link: null, facts: {} });

const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;

  const inbox = (userId: number) =>
    db
      .selectFrom('notifications as n')
      .innerJoin('notification_events as e', 'e.id', 'n.event_id')
      .select(['n.id', 'n.read_at', 'n.created_at', 'e.type', 'e.payload'])
      .where('n.user_id', '=', userId);

  const toApi = (r: { id: number; read_at: string | null; created_at: string; type: string; payload: string }) => {
    const p = payloadOf(r.payload);
    return { id: r.id, type: r.type as NotificationType, title: p.title, text: p.text, link: p.link, created_at: r.created_at, read_at: r.read_at };
  };

  const unreadCount = async (userId: number) => {
    const row = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };

  app.get(
    '/notifications',
    {
      config: { access: ['notifications', 'list'] },
      schema: { querystring: listQuerystring(inboxSpec), response: { 200: notificationListAnswer, '4xx': apiErrorBody }, tags: ['notifications'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const base = db.selectFrom('notifications as n').innerJoin('notification_events as e', 'e.id', 'n.event_id').where('n.user_id', '=', actor.id);
      const page = await paginate(
        base,
        request.query as Record<string, unknown>,
        inboxSpec,
        (qb) => qb.select(['n.id', 'n.read_at', 'n.created_at', 'e.type', 'e.payload']),
        toApi,
      );
      return { ...page, unread_count: await unreadCount(actor.id) };
    },
  );

  app.get(
    '/notifications/unread-count',
    {
      config: { access: ['notifications', 'list'] },
      schema: { response: { 200: z.object({ unread_count: z.number() }), '4xx': apiErrorBody }, tags: ['notifications'] },
    },
    async (request) => ({ unread_count: await unreadCount(actorOf(request).id) }),
  );

  app.post(
    '/notifications/:id/read',
    {
      config: { access: ['notifications', 'edit'] },
      schema: { params: idParam, response: { 200: messageDataOf(notificationEntity), '4xx': apiErrorBody }, tags: ['notifications'] },
    },
    async (request) => {
      const actor = actorOf(request);
      // Only the caller's own row: another user's id is not found, whether or not it exists.
      await db
        .updateTable('notifications')
        .set({ read_at: nowIso() })
        .where('id', '=', request.params.id)
        .where('user_id', '=', actor.id)
        .where('read_at', 'is', null)
        .execute();
      const row = await inbox(actor.id).where('n.id', '=', request.params.id).executeTakeFirst();
      if (!row) throw notFound();
      return { message: NOTIFICATIONS.markedRead, data: toApi(row) };
    },
  );

  app.post(
    '/notifications/read-all',
    {
      config: { access: ['notifications', 'edit'] },
      schema: { response: { 200: messageDataOf(z.object({ updated: z.number() })), '4xx': apiErrorBody }, tags: ['notifications'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const result = await db.updateTable('notifications').set({ read_at: nowIso() }).where('user_id', '=', actor.id).where('read_at', 'is', null).executeTakeFirst();
      return { message: NOTIFICATIONS.allMarkedRead, data: { updated: Number(result.numUpdatedRows) } };
    },
  );

  app.get(
    '/notifications/deliveries',
    {
      config: { access: ['notifications', 'list'] },
      schema: { response: { 200: dataOf(z.array(deliveryEntity)), '4xx': apiErrorBody }, tags: ['notifications'] },
    },
    async (request) => {
      const rows = await deliveryLog(db, actorOf(request).id).orderBy('o.id', 'desc').limit(DELIVERY_LOG_ROWS).execute();
      return {
        data: rows.map((r) => ({
          id: r.id,
          channel: r.channel as 'email' | 'webhook',
          status: r.status as 'pending' | 'sent' | 'failed',
          attempts: Number(r.attempts),
          last_error: r.last_error,
          next_attempt_at: r.next_attempt_at,
          sent_at: r.sent_at,
          created_at: r.created_at,
          event: { type: r.type as NotificationType, title: payloadOf(r.payload).title },
        })),
      };
    },
  );

  app.get(
    '/profile/notifications',
    { config: { access: ['profile', 'list'] }, schema: { response: { 200: dataOf(notificationSettingsEntity), '4xx': apiErrorBody }, tags: ['notifications'] } },
    async (request) => ({ data: await readNotificationSettings(db, actorOf(request).id) }),
  );

  app.put(
    '/profile/notifications',
    {
      config: { access: ['profile', 'edit'] },
      schema: { body: notificationSettingsBody, response: { 200: messageDataOf(notificationSettingsEntity), '4xx': apiErrorBody }, tags: ['notifications'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const before = await readNotificationSettings(db, actor.id);
      const after = await updateNotificationSettings(db, app.config, actor.id, request.body);
      await recordAudit(db, request, {
        module: 'profile',
        action: 'update_notifications',
        entityId: actor.id,
        targetUsername: actor.username,
        oldValues: before,
        newValues: after,
      });
      return { message: NOTIFICATIONS.settingsSaved, data: after };
    },
  );

  app.get(
    '/smtp-settings',
    { config: { access: ['settings', 'list'] }, schema: { response: { 200: dataOf(smtpSettingsEntity.nullable()), '4xx': apiErrorBody }, tags: ['settings'] } },
    async () => ({ data: await readSmtpSettings(db) }),
  );

  app.put(
    '/smtp-settings',
    {
      config: { access: ['settings', 'edit'] },
      schema: { body: smtpSettingsBody, response: { 200: messageDataOf(smtpSettingsEntity), '4xx': apiErrorBody }, tags: ['settings'] },
    },
    async (request) => {
      const before = await readSmtpSettings(db);
      const after = await updateSmtpSettings(db, app.config, request.body);
      await recordAudit(db, request, { module: 'system_settings', action: 'update_smtp', description: 'Updated the SMTP server', oldValues: before, newValues: after });
      return { message: NOTIFICATIONS.smtpSaved, data: after };
    },
  );
};

export default notificationRoutes;
