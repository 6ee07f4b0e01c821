/**
 * Notification events: what happened, recorded once per dedupe key, and fanned out in the same
 * transaction to each user it concerns through the channels that user chose: a row of the panel's
 * inbox (notifications) and an outbox row per outward channel (e-mail, webhook). The periodic scans
 * (expiring and expired accounts, low balances, announcements) and the hooks called by the modules
 * where things happen (credits received, ticket replies) all come through recordEvent.
 */
import { type Kysely, sql } from 'kysely';
import { NOTIFICATIONS, type NotificationType, REMINDER_DAYS, DEFAULT_LOW_BALANCE_THRESHOLD, DEFAULT_REMINDER_DAYS, previewText } from '../../src/contract';
import { type AnnouncementRow, isFor, liveAnnouncements } from '../announcements/audience';
import type { Database } from '../db/schema';
import { inTransaction } from '../db/transaction';

import { nextDigestAt } from './digest';
import { readSmtpSettings, settingsOfUsers } from './settings';

export interface EventInput {
  type: NotificationType;
  /** Unique per event: the same key recorded again is the same event and is ignored. */
  key: string;
  title: string;
  text: string;
  link: string | null;
  facts?: Record<string, unknown>;
  recipients: number[];
}

export interface EventPayload {
  title: string;
  text: string;
  link: string | null;
  facts: Record<string, unknown>;
}

/** Records the event and its deliveries; null when the key was recorded already. */
export async function recordEvent(db: Kysely<Database>, input: EventInput, now: Date = new Date()): Promise<number | null> {
  if (!db.isTransaction) return inTransaction(db, (trx) => recordEvent(trx, input, now));
  const at = now.toISOString();
  const payload: EventPayload = { title: input.title, text: input.text, link: input.link, facts: input.facts ?? {} };
  const event = await db
    .insertInto('notification_events')
    .values({ type: input.type, dedupe_key: input.key, payload: JSON.stringify(payload), created_at: at })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!event) return null;
  const recipients = [...new Set(input.recipients)];
  if (recipients.length === 0) return event.id;
  const settings = await settingsOfUsers(db, recipients);
  const smtp = await readSmtpSettings(db);
  const inbox: { event_id: number; user_id: number; created_at: string }[] = [];
  const outbox: { event_id: number; user_id: number; channel: string; status: string; next_attempt_at: string; created_at: string }[] = [];
  for (const userId of recipients) {
    const s = settings.get(userId);
    if (!s) continue;
    if (s.channels.panel.includes(input.type)) inbox.push({ event_id: event.id, user_id: userId, created_at: at });
    // E-mail waits for the user's next daily digest; without an SMTP server there is no e-mail channel.
    if (smtp && s.email && s.channels.email.includes(input.type)) {
      outbox.push({
        event_id: event.id,
        user_id: userId,
        channel: 'email',
        status: 'pending',
        next_attempt_at: nextDigestAt(now, smtp.digest_hour).toISOString(),
        created_at: at,
      });
    }
    if (s.webhook_url && s.webhook_secret_enc && s.channels.webhook.includes(input.type)) {
      outbox.push({ event_id: event.id, user_id: userId, channel: 'webhook', status: 'pending', next_attempt_at: at, created_at: at });
    }
  }
  for (let i = 0; i < inbox.length; i += 500) {
    await db
      .insertInto('notifications')
      .values(inbox.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
      .execute();
  }
  for (let i = 0; i < outbox.length; i += 500) {
    await db
      .insertInto('notification_outbox')
      .values(outbox.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['event_id', 'user_id', 'channel']).doNothing())
      .execute();
  }
  return event.id;
}

const day = (iso: string) => iso.slice(0, 10);

/** A parent added credits to a member: the member is told (called in the move's transaction). */
export function creditsReceived(trx: Kysely<Database>, move: { entryId: number; recipientId: number; credits: number; from: string }) {
  return recordEvent(trx, {
    type: 'credits_received',
    key: `credits_received:${move.entryId}`,
    title: NOTIFICATIONS.types.credits_received,
    text: NOTIFICATIONS.creditsReceived(move.credits, move.from),
    link: '/transactions',
    facts: { credits: move.credits, from: move.from, entry_id: move.entryId },
    recipients: [move.recipientId],
  });
}

/**
 * A reply on a ticket: the other side is told. The owner's reply goes to the staff who wrote on the
 * ticket, or to the owner's parent when none has yet; a staff reply goes to the owner.
 */
export async function ticketReplied(
  db: Kysely<Database>,
  reply: { replyId: number; ticketId: number; subject: string; ownerId: number; authorId: number; author: string },
) {
  let recipients: number[];
  if (reply.authorId !== reply.ownerId) recipients = [reply.ownerId];
  else {
    const staff = await db
      .selectFrom('ticket_replies')
      .select('user_id')
      .distinct()
      .where('ticket_id', '=', reply.ticketId)
      .where('user_id', '<>', reply.ownerId)
      .execute();
    if (staff.length > 0) recipients = staff.map((r) => r.user_id);
    else {
      const owner = await db.selectFrom('users').select('parent_id').where('id', '=', reply.ownerId).executeTakeFirst();
      recipients = owner?.parent_id ? [owner.parent_id] : [];
    }
  }
  return recordEvent(db, {
    type: 'ticket_reply',
    key: `ticket_reply:${reply.replyId}`,
    title: NOTIFICATIONS.types.ticket_reply,
    text: NOTIFICATIONS.ticketReply(reply.subject, reply.author),
    link: `/tickets?ticket=${reply.ticketId}`,
    facts: { ticket_id: reply.ticketId, reply_id: reply.replyId },
    recipients,
  });
}

const BATCH = 500;

const ACCOUNT_TEXT = { account_expiring: NOTIFICATIONS.accountExpiring, account_expired: NOTIFICATIONS.accountExpired };

/** Records one event per account, to its owner, once per expiry date; answers how many were new. */
async function recordAccountEvents(
  db: Kysely<Database>,
  type: keyof typeof ACCOUNT_TEXT,
  rows: ReadonlyArray<{ id: number; login: string; owner_id: number; expiry_date: string | null }>,
  now: Date,
): Promise<number> {
  let recorded = 0;
  for (const a of rows) {
    const id = await recordEvent(
      db,
      {
        type,
        key: `${type}:${a.id}:${a.expiry_date}`,
        title: NOTIFICATIONS.types[type],
        text: ACCOUNT_TEXT[type](a.login, day(a.expiry_date!)),
        link: `/accounts?open=${a.id}`,
        facts: { account_id: a.id, login: a.login, expiry_date: a.expiry_date },
        recipients: [a.owner_id],
      },
      now,
    );
    if (id) recorded++;
  }
  return recorded;
}
/** An account that expired longer ago than this is not announced (e.g. when notifications start). */
export const EXPIRED_LOOKBACK_MS = 3 * 86_400_000;

/** Accounts expiring within their owner's reminder window, each once per expiry date. */
export async function scanExpiring(db: Kysely<Database>, now: Date): Promise<number> {
  let recorded = 0;
  for (const days of REMINDER_DAYS) {
    const rows = await db
      .selectFrom('accounts as a')
      .leftJoin('notification_settings as s', 's.user_id', 'a.owner_id')
      .select(['a.id', 'a.login', 'a.owner_id', 'a.expiry_date'])
      .where('a.deleted_at', 'is', null)
      .where('a.status', '=', 'active')
      .where('a.expiry_date', '>', now.toISOString())
      .where('a.expiry_date', '<=', new Date(now.getTime() + days * 86_400_000).toISOString())
      .where(sql<number>`coalesce(s.expiry_reminder_days, ${DEFAULT_REMINDER_DAYS})`, '=', days)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('notification_events as e')
              .select('e.id')
              .whereRef('e.dedupe_key', '=', sql<string>`'account_expiring:' || a.id || ':' || a.expiry_date`),
          ),
        ),
      )
      .orderBy('a.expiry_date')
      .limit(BATCH)
      .execute();
    recorded += await recordAccountEvents(db, 'account_expiring', rows, now);
  }
  return recorded;
}

/** Accounts that expired lately (and were not renewed), each once per expiry date. */
export async function scanExpired(db: Kysely<Database>, now: Date): Promise<number> {
  const rows = await db
    .selectFrom('accounts as a')
    .select(['a.id', 'a.login', 'a.owner_id', 'a.expiry_date'])
    .where('a.deleted_at', 'is', null)
    .where('a.expiry_date', '<=', now.toISOString())
    .where('a.expiry_date', '>', new Date(now.getTime() - EXPIRED_LOOKBACK_MS).toISOString())
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notification_events as e')
            .select('e.id')
            .whereRef('e.dedupe_key', '=', sql<string>`'account_expired:' || a.id || ':' || a.expiry_date`),
        ),
      ),
    )
    .orderBy('a.expiry_date')
    .limit(BATCH)
    .execute();
  return recordAccountEvents(db, 'account_expired', rows, now);
}

/**
 * Members whose balance is below their threshold: once per fall below it (keyed by the ledger entry
 * that crossed the threshold), so a balance that stays low is not repeated and a new fall is told.
 * Admin mints credits and has no low balance; a threshold of 0 turns it off.
 */
export async function scanLowBalance(db: Kysely<Database>, now: Date): Promise<number> {
  const threshold = sql<number>`coalesce(s.low_balance_threshold, ${DEFAULT_LOW_BALANCE_THRESHOLD})`;
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('notification_settings as s', 's.user_id', 'u.id')
    .select(['u.id', 'u.credits'])
    .select(threshold.as('threshold'))
    .select((eb) =>
      eb
        .selectFrom('credit_transactions as ct')
        .select((e) => e.fn.max('ct.id').as('m'))
        .whereRef('ct.user_id', '=', 'u.id')
        .where(sql<boolean>`ct.balance_before >= ${threshold} and ct.balance_after < ${threshold}`)
        .as('crossing'),
    )
    .where('u.role', '<>', 'admin')
    .where('u.status', '=', 'active')
    .where(sql<boolean>`u.credits < ${threshold}`)
    .limit(5_000)
    .execute();
  let recorded = 0;
  const keys = rows.map((r) => `low_balance:${r.id}:${r.crossing ?? 0}`);
  const seen = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const found = await db
      .selectFrom('notification_events')
      .select('dedupe_key')
      .where('dedupe_key', 'in', keys.slice(i, i + 500))
      .execute();
    for (const f of found) seen.add(f.dedupe_key);
  }
  for (const [i, r] of rows.entries()) {
    if (seen.has(keys[i])) continue;
    const balance = Number(r.credits);
    const limit = Number(r.threshold);
    const id = await recordEvent(
      db,
      {
        type: 'low_balance',
        key: keys[i],
        title: NOTIFICATIONS.types.low_balance,
        text: NOTIFICATIONS.lowBalance(balance, limit),
        link: '/transactions',
        facts: { balance, threshold: limit },
        recipients: [r.id],
      },
      now,
    );
    if (id) recorded++;
  }
  return recorded;
}

const announcementKey = (id: number) => `announcement:${id}`;

/** Tells each live announcement to its audience (audience.ts), once per announcement. */
async function recordAnnouncements(db: Kysely<Database>, live: AnnouncementRow[], now: Date): Promise<number> {
  if (live.length === 0) return 0;
  // Readers of announcements: everyone below admin who may sign in.
  const readers = await db.selectFrom('users').select(['id', 'role']).where('role', '<>', 'admin').where('status', '=', 'active').execute();
  const roleOfUser = new Map(readers.map((u) => [u.id, u.role]));
  let recorded = 0;
  for (const a of live) {
    const id = await recordEvent(
      db,
      {
        type: 'announcement',
        key: announcementKey(a.id),
        title: a.title,
        text: previewText(a.content, 200),
        link: `/user-announcements?open=${a.id}`,
        facts: { announcement_id: a.id },
        recipients: readers.filter((r) => isFor(a, r, roleOfUser)).map((r) => r.id),
      },
      now,
    );
    if (id) recorded++;
  }
  return recorded;
}

/** Live announcements not told yet: the catch-up for those that go live later (a start date). */
export async function scanAnnouncements(db: Kysely<Database>, now: Date): Promise<number> {
  const live = await liveAnnouncements(db, now.toISOString())
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notification_events as e')
            .select('e.id')
            .whereRef('e.dedupe_key', '=', sql<string>`'announcement:' || a.id`),
        ),
      ),
    )
    .orderBy('a.id')
    .limit(20)
    .execute();
  return recordAnnouncements(db, live, now);
}

/**
 * An announcement was published or changed: when it is live now, its audience is told at once (the
 * same event the scan would record, so it is told once either way). Answers whether it was recorded.
 */
export async function announcementPublished(db: Kysely<Database>, announcementId: number, now: Date = new Date()): Promise<boolean> {
  const live = await liveAnnouncements(db, now.toISOString()).where('a.id', '=', announcementId).execute();
  return (await recordAnnouncements(db, live, now)) > 0;
}

/** Every periodic scan, as the notification job runs them. */
export async function scanEvents(db: Kysely<Database>, now: Date = new Date()) {
  return {
    expiring: await scanExpiring(db, now),
    expired: await scanExpired(db, now),
    lowBalance: await scanLowBalance(db, now),
    announcements: await scanAnnouncements(db, now),
  };
}
