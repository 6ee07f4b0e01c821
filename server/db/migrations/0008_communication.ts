import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Tickets, announcements, audit logs and analytics (issue 9).
 *
 * - Tickets remember their last activity and which side wrote it (the owner, or the staff above the
 *   owner up to admin), and each reader's last reading: a ticket is unread for a user when the other
 *   side wrote after that user last opened it.
 * - Indexes for the lists and figures these screens read: ticket threads, audit filters, ledger
 *   entries by type and date, accounts by creation date.
 * - Audit entries are append-only against direct SQL too. The ledger guards (0006) create the same
 *   triggers under the same names; whichever runs first creates them and the other leaves them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);

  await db.schema.alterTable('tickets').addColumn('last_activity_at', 'text').execute();
  await db.schema
    .alterTable('tickets')
    .addColumn('last_activity_side', 'text', (c) => c.notNull().defaultTo('owner'))
    .execute();
  await sql`update tickets set last_activity_at = coalesce(
      (select max(r.created_at) from ticket_replies r where r.ticket_id = tickets.id), created_at)`.execute(db);
  await db.schema
    .createTable('ticket_reads')
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_reads_pk', ['ticket_id', 'user_id'])
    .execute();
  await db.schema.createIndex('ticket_replies_ticket_idx').on('ticket_replies').columns(['ticket_id', 'id']).execute();
  await db.schema.createIndex('tickets_status_idx').on('tickets').columns(['status', 'id']).execute();
  await db.schema.createIndex('tickets_category_idx').on('tickets').column('category_id').execute();

  await db.schema.createIndex('announcement_reads_user_idx').on('announcement_reads').column('user_id').execute();
  await db.schema.createIndex('announcements_live_idx').on('announcements').columns(['is_active', 'expires_at']).execute();

  await db.schema.createIndex('audit_logs_module_idx').on('audit_logs').columns(['module', 'created_at']).execute();
  await db.schema.createIndex('audit_logs_action_idx').on('audit_logs').columns(['action', 'created_at']).execute();
  await db.schema.createIndex('audit_logs_username_idx').on('audit_logs').column('username').execute();
  await db.schema.createIndex('audit_logs_target_idx').on('audit_logs').column('target_username').execute();

  // Analytics at scale: ledger entries by type over a date range, accounts created per month.
  await db.schema.createIndex('credit_transactions_type_created_idx').on('credit_transactions').columns(['type', 'created_at']).execute();
  await db.schema.createIndex('accounts_created_idx').on('accounts').column('created_at').execute();

  if (pg) await postgresAuditGuards(db);
  else await sqliteAuditGuards(db);
}

const APPEND_ONLY = 'audit_logs is append-only';

async function sqliteAuditGuards(db: Kysely<any>) {
  const raw = (text: string) => sql.raw(text).execute(db);
  await raw(`create trigger if not exists audit_logs_no_update before update on audit_logs
    begin select raise(abort, '${APPEND_ONLY}'); end`);
  await raw(`create trigger if not exists audit_logs_no_delete before delete on audit_logs
    begin select raise(abort, '${APPEND_ONLY}'); end`);
  // INSERT OR REPLACE deletes the old row without firing delete triggers.
  await raw(`create trigger if not exists audit_logs_no_replace before insert on audit_logs
    begin
      select raise(abort, 'UNIQUE constraint failed: audit_logs (an existing row cannot be replaced)')
      where exists (select 1 from audit_logs where id = new.id);
    end`);
}

async function postgresAuditGuards(db: Kysely<any>) {
  const raw = (text: string) => sql.raw(text).execute(db);
  const exists = async (name: string) =>
    (
      await sql<{ n: number }>`select count(*)::int as n from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where t.tgname = ${name} and c.relname = 'audit_logs' and c.relnamespace = current_schema()::regnamespace`.execute(db)
    ).rows[0].n > 0;
  await raw(`create or replace function audit_logs_append_only() returns trigger language plpgsql as $$
    begin raise exception '${APPEND_ONLY}'; end $$`);
  if (!(await exists('audit_logs_no_change'))) {
    await raw(`create trigger audit_logs_no_change before update or delete on audit_logs
      for each row execute function audit_logs_append_only()`);
  }
  if (!(await exists('audit_logs_no_truncate'))) {
    await raw(`create trigger audit_logs_no_truncate before truncate on audit_logs
      for each statement execute function audit_logs_append_only()`);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'accounts_created_idx',
    'credit_transactions_type_created_idx',
    'audit_logs_target_idx',
    'audit_logs_username_idx',
    'audit_logs_action_idx',
    'audit_logs_module_idx',
    'announcements_live_idx',
    'announcement_reads_user_idx',
    'tickets_category_idx',
    'tickets_status_idx',
    'ticket_replies_ticket_idx',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.dropTable('ticket_reads').execute();
  await db.schema.alterTable('tickets').dropColumn('last_activity_side').execute();
  await db.schema.alterTable('tickets').dropColumn('last_activity_at').execute();
}
