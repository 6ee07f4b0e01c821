import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Notifications (docs/domain.md#notifications). users.email: where a user's digest goes.
 * notification_settings: a user's channels, thresholds and webhook (its secret encrypted with APP_KEY);
 * no row means the defaults. notification_events: what happened, once per dedupe key.
 * notifications: the panel's inbox, one row per event and recipient. notification_outbox: one row
 * per event, recipient and outward channel (e-mail, webhook), claimed with a lease and retried with
 * backoff; its unique key is what keeps an event from being sent twice to one channel.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  await db.schema.alterTable('users').addColumn('email', 'text').execute();
  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('low_balance_threshold', 'integer', (c) => c.notNull())
    .addColumn('expiry_reminder_days', 'integer', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret_enc', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('notification_events')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('notifications')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('event_id', 'integer', (c) => c.notNull().references('notification_events.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('notifications_event_user_key', ['event_id', 'user_id'])
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema
    .createTable('notification_outbox')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('event_id', 'integer', (c) => c.notNull().references('notification_events.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('notification_outbox_event_user_channel_key', ['event_id', 'user_id', 'channel'])
    .execute();
  await db.schema.createIndex('notification_outbox_due_idx').on('notification_outbox').columns(['status', 'channel', 'next_attempt_at']).execute();
  await db.schema.createIndex('notification_outbox_user_idx').on('notification_outbox').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_outbox').execute();
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('notification_events').execute();
  await db.schema.dropTable('notification_settings').execute();
  await db.schema.alterTable('users').dropColumn('email').execute();
}
