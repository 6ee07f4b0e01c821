/**
 * The outbox of outward deliveries (e-mail, webhook): at least once, surviving restarts, never twice
 * to one channel. A worker claims due rows with one conditional UPDATE (status pending, due, lease
 * free) that sets its lease, so of two workers on one database only one gets a row; the claim
 * counts the attempt. A worker that dies leaves its lease to run out, and the row is claimed again
 * (the one case where a receiver may see a delivery twice: X-Notification-Id tells it). A failed
 * attempt waits an exponentially growing delay; after MAX_ATTEMPTS the row is failed for good.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { NOTIFICATIONS, type NotificationType } from '../../src/contract';
import type { Database, NotificationOutboxTable } from '../db/schema';
import { parseJson } from '../db/values';
import { buildDigest } from './digest';
import { sendMail } from './deliver/email';
import { postWebhook } from './deliver/webhook';
import type { EventPayload } from './events';
import { type KeyConfig, settingsOfUsers, smtpForSending, webhookSecret } from './settings';

export type OutboxRow = Selectable<NotificationOutboxTable>;
export type Channel = 'email' | 'webhook';

export const MAX_ATTEMPTS = 8;
/** How long a claim holds its rows: longer than a send may take (SMTP and webhook waits are bounded). */
export const LEASE_MS = 2 * 60_000;
/** 1, 2, 4 ... minutes after the failed attempt, at most 6 hours. */
export const backoffMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);

const processOwner = randomUUID();

interface ClaimOptions {
  channel: Channel;
  now: Date;
  owner: string;
  userId?: number;
  limit: number;
}

/** Takes the due rows nobody holds, up to `limit`; answers the ones this worker now holds. */
export async function claim(db: Kysely<Database>, { channel, now, owner, userId, limit }: ClaimOptions): Promise<OutboxRow[]> {
  const nowMs = now.getTime();
  const claimable = <Q extends { where: any }>(q: Q): Q =>
    q.where('status', '=', 'pending').where('channel', '=', channel).where('next_attempt_at', '<=', now.toISOString()).where('lease_until', '<', nowMs) as Q;
  let due = claimable(db.selectFrom('notification_outbox').select('id'));
  if (userId !== undefined) due = due.where('user_id', '=', userId);
  // The conditions again on the UPDATE itself: on PostgreSQL a row another worker claimed meanwhile
  // is re-checked after its lock and no longer matches.
  let update = claimable(
    db
      .updateTable('notification_outbox')
      .set((eb) => ({ lease_owner: owner, lease_until: nowMs + LEASE_MS, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due.orderBy('id').limit(limit)),
  );
  if (userId !== undefined) update = update.where('user_id', '=', userId);
  return update.returningAll().execute();
}

async function markSent(db: Kysely<Database>, rows: OutboxRow[], owner: string, now: Date): Promise<void> {
  if (rows.length === 0) return;
  await db
    .updateTable('notification_outbox')
    .set({ status: 'sent', sent_at: now.toISOString(), lease_owner: null, lease_until: 0, last_error: null })
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .execute();
}

async function markFailed(db: Kysely<Database>, rows: OutboxRow[], owner: string, error: unknown, now: Date): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500) || 'Delivery failed';
  for (const row of rows) {
    const attempts = Number(row.attempts);
    const last = attempts >= MAX_ATTEMPTS;
    await db
      .updateTable('notification_outbox')
      .set({
        status: last ? 'failed' : 'pending',
        next_attempt_at: new Date(now.getTime() + backoffMs(attempts)).toISOString(),
        lease_owner: null,
        lease_until: 0,
        last_error: message,
      })
      .where('id', '=', row.id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'pending')
      .execute();
  }
}

async function eventsOf(db: Kysely<Database>, rows: OutboxRow[]) {
  const ids = [...new Set(rows.map((r) => r.event_id))];
  const events = ids.length ? await db.selectFrom('notification_events').selectAll().where('id', 'in', ids).execute() : [];
  return new Map(
    events.map((e) => [e.id, { ...e, type: e.type as NotificationType, payload: parseJson<EventPayload>(e.payload, { title: '', text: '', link: null, facts: {} }) }]),
  );
}

export interface DeliveryReport {
  emails: number;
  webhooks: number;
  failed: number;
}

interface DeliverOptions {
  now?: Date;
  /** The worker's name in the leases (one per process by default). */
  owner?: string;
}

/** E-mail: one digest per user of all its due rows. */
async function deliverEmail(db: Kysely<Database>, config: KeyConfig, now: Date, owner: string, report: DeliveryReport): Promise<void> {
  const users = await db
    .selectFrom('notification_outbox')
    .select('user_id')
    .distinct()
    .where('status', '=', 'pending')
    .where('channel', '=', 'email')
    .where('next_attempt_at', '<=', now.toISOString())
    .where('lease_until', '<', now.getTime())
    .limit(100)
    .execute();
  if (users.length === 0) return;
  const smtp = await smtpForSending(db, config);
  const settings = await settingsOfUsers(
    db,
    users.map((u) => u.user_id),
  );
  for (const { user_id } of users) {
    const rows = await claim(db, { channel: 'email', now, owner, userId: user_id, limit: 500 });
    if (rows.length === 0) continue;
    try {
      if (!smtp) throw new Error(NOTIFICATIONS.smtpNotConfigured);
      const to = settings.get(user_id)?.email;
      if (!to) throw new Error(NOTIFICATIONS.emailInvalid);
      const events = await eventsOf(db, rows);
      const items = rows.flatMap((r) => {
        const e = events.get(r.event_id);
        return e ? [{ type: e.type, title: e.payload.title, text: e.payload.text, link: e.payload.link, created_at: e.created_at }] : [];
      });
      await sendMail(smtp, to, buildDigest(items, smtp.panel_url));
      await markSent(db, rows, owner, now);
      report.emails++;
    } catch (error) {
      await markFailed(db, rows, owner, error, now);
      report.failed += rows.length;
    }
  }
}

/** Webhooks: one signed POST per row. */
async function deliverWebhooks(db: Kysely<Database>, config: KeyConfig, now: Date, owner: string, report: DeliveryReport): Promise<void> {
  for (;;) {
    const rows = await claim(db, { channel: 'webhook', now, owner, limit: 50 });
    if (rows.length === 0) return;
    const events = await eventsOf(db, rows);
    const settings = await settingsOfUsers(db, [...new Set(rows.map((r) => r.user_id))]);
    for (const row of rows) {
      try {
        const s = settings.get(row.user_id);
        const event = events.get(row.event_id);
        if (!s?.webhook_url || !s.webhook_secret_enc || !event) throw new Error(NOTIFICATIONS.webhookUrlInvalid);
        const secret = await webhookSecret(db, config, s.webhook_secret_enc);
        const payload = { id: event.id, type: event.type, ...event.payload, created_at: event.created_at, delivery_id: row.id };
        await postWebhook(s.webhook_url, secret, `${event.id}`, payload, now);
        await markSent(db, [row], owner, now);
        report.webhooks++;
      } catch (error) {
        await markFailed(db, [row], owner, error, now);
        report.failed++;
      }
    }
    if (rows.length < 50) return;
  }
}

/** Delivers every due row of the outbox once (the notification job's step, also after a restart). */
export async function deliverPending(db: Kysely<Database>, config: KeyConfig, options: DeliverOptions = {}): Promise<DeliveryReport> {
  const now = options.now ?? new Date();
  const owner = options.owner ?? processOwner;
  const report: DeliveryReport = { emails: 0, webhooks: 0, failed: 0 };
  await deliverEmail(db, config, now, owner, report);
  await deliverWebhooks(db, config, now, owner, report);
  return report;
}

/** Rows of the delivery log of one user, newest first. */
export function deliveryLog(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('notification_outbox as o')
    .innerJoin('notification_events as e', 'e.id', 'o.event_id')
    .select(['o.id', 'o.channel', 'o.status', 'o.attempts', 'o.last_error', 'o.next_attempt_at', 'o.sent_at', 'o.created_at', 'e.type', 'e.payload'])
    .where('o.user_id', '=', userId);
}
