import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Sessions and sign-in history (docs/security.md#sessions). auth_tokens: where a session was opened
 * (address, user agent) and, for a view-as session, the parent viewing (viewer_id), the parent's own
 * session it came from (viewer_token_id) and its mode ('read' or 'act'). sign_in_events: each sign-in
 * of a known user, success or failure, kept 90 days. users.last_login_at/last_login_ip: the last
 * successful sign-in, kept for good (parents see it on their members). audit_logs.viewer_username:
 * the parent who acted through a view-as session.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  for (const column of ['ip_address', 'user_agent', 'view_mode']) await db.schema.alterTable('auth_tokens').addColumn(column, 'text').execute();
  for (const column of ['viewer_id', 'viewer_token_id']) await db.schema.alterTable('auth_tokens').addColumn(column, 'integer').execute();
  await db.schema.createIndex('auth_tokens_viewer_token_idx').on('auth_tokens').column('viewer_token_id').execute();
  for (const column of ['last_login_at', 'last_login_ip']) await db.schema.alterTable('users').addColumn(column, 'text').execute();
  await db.schema.alterTable('audit_logs').addColumn('viewer_username', 'text').execute();
  await db.schema
    .createTable('sign_in_events')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_events_user_idx').on('sign_in_events').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('sign_in_events_created_idx').on('sign_in_events').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_events').execute();
  await db.schema.alterTable('audit_logs').dropColumn('viewer_username').execute();
  for (const column of ['last_login_ip', 'last_login_at']) await db.schema.alterTable('users').dropColumn(column).execute();
  await db.schema.dropIndex('auth_tokens_viewer_token_idx').execute();
  for (const column of ['viewer_token_id', 'viewer_id', 'view_mode', 'user_agent', 'ip_address']) await db.schema.alterTable('auth_tokens').dropColumn(column).execute();
}
