/**
 * Notifications: the caller's own inbox (list, mark read, mark all read), its delivery log, its
 * channels (GET and PUT /profile/notifications) and the admin's SMTP server (GET and PUT
 * /smtp-settings). Nothing here takes another user's id: a notification of someone else answers 404.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  NOTIFICATIONS,
  type NotificationType,
  apiErrorBody,
  dataOf,
  deliveryEntity,
  idParam,
  messageDataOf,
  notificationEntity,
  notificationListAnswer,
  notificationQuery,
  notificationSettingsBody,
  notificationSettingsEntity,
  paginatedOf,
  smtpSettingsBody,
  smtpSettingsEntity,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { nowIso, parseJson } from '../db/values';
import { notFound } from '../http/errors';
import { actorOf } from '../http/guard';
import { listMeta } from '../http/list';
import type { EventPayload } from '../notifications/events';
import { deliveryLog } from '../notifications/outbox';
import { readNotificationSettings, readSmtpSettings, updateNotificationSettings, updateSmtpSettings } from '../notifications/settings';

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
    const row = await db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirst();
    return Number(row?.n ?? 0);
  };

  app.get(
    '/notifications',
    { config: { access: ['notifications', 'list'] }, schema: { querystring: notificationQuery, response: { 200: notificationListAnswer, '4xx': apiErrorBody }, tags: ['notifications'] } },
    async (request) => {
      const actor = actorOf(request);
      const { page, per_page, unread } = request.query;
      let query = inbox(actor.id);
      if (unread === 'true') query = query.where('n.read_at', 'is', null);
      if (unread === 'false') query = query.where('n.read_at', 'is not', null);
      const counted = await query
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      const rows = await query
        .orderBy('n.id', 'desc')
        .limit(per_page)
        .offset((page - 1) * per_page)
        .execute();
      return { data: rows.map(toApi), meta: listMeta(Number(counted?.n ?? 0), { page, perPage: per_page }, rows.length), unread_count: await unreadCount(actor.id) };
    },
  );

  app.get(
    '/notifications/unread-count',
    { config: { access: ['notifications', 'list'] }, schema: { response: { 200: z.object({ unread_count: z.number() }), '4xx': apiErrorBody }, tags: ['notifications'] } },
    async (request) => ({ unread_count: await unreadCount(actorOf(request).id) }),
  );

  app.post(
    '/notifications/:id/read',
    { config: { access: ['notifications', 'edit'] }, schema: { params: idParam, response: { 200: messageDataOf(notificationEntity), '4xx': apiErrorBody }, tags: ['notifications'] } },
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
      schema: { querystring: notificationQuery.omit({ unread: true }), response: { 200: paginatedOf(deliveryEntity), '4xx': apiErrorBody }, tags: ['notifications'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const { page, per_page } = request.query;
      const counted = await db
        .selectFrom('notification_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', actor.id)
        .executeTakeFirst();
      const rows = await deliveryLog(db, actor.id)
        .orderBy('o.id', 'desc')
        .limit(per_page)
        .offset((page - 1) * per_page)
        .execute();
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
        meta: listMeta(Number(counted?.n ?? 0), { page, perPage: per_page }, rows.length),
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
    { config: { access: ['settings', 'edit'] }, schema: { body: smtpSettingsBody, response: { 200: messageDataOf(smtpSettingsEntity), '4xx': apiErrorBody }, tags: ['settings'] } },
    async (request) => {
      const before = await readSmtpSettings(db);
      const after = await updateSmtpSettings(db, app.config, request.body);
      await recordAudit(db, request, { module: 'system_settings', action: 'update_smtp', description: 'Updated the SMTP server', oldValues: before, newValues: after });
      return { message: NOTIFICATIONS.smtpSaved, data: after };
    },
  );
};

export default notificationRoutes;
