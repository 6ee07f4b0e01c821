import { type Kysely, type CreateTableBuilder, sql } from 'kysely';
import { isPostgres } from '../dialect';

/** The schema of every entity the panel keeps, for SQLite and PostgreSQL alike. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const table = (name: string) => db.schema.createTable(name).addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));
  const timestamps = <T extends string>(t: CreateTableBuilder<T, any>) =>
    t.addColumn('created_at', 'text', (c) => c.notNull()).addColumn('updated_at', 'text', (c) => c.notNull());

  await timestamps(
    table('servers')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('db_host', 'text', (c) => c.notNull())
      .addColumn('db_username', 'text', (c) => c.notNull())
      .addColumn('db_password_enc', 'text')
      .addColumn('db_port', 'text', (c) => c.notNull().defaultTo('3306'))
      .addColumn('db_name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('connection_status', 'text', (c) => c.notNull().defaultTo('online'))
      .addColumn('last_checked_at', 'text'),
  ).execute();

  await timestamps(
    table('users')
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'integer', (c) => c.references('users.id'))
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('username', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('phone', 'text')
      .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('bonus_credits', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('set null'))
      .addCheckConstraint('users_balance_valid', sql`credits >= 0 and bonus_credits >= 0 and bonus_credits <= credits`),
  ).execute();
  await db.schema.createIndex('users_path_idx').on('users').column('path').execute();
  await db.schema.createIndex('users_parent_idx').on('users').column('parent_id').execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('auth_tokens_user_idx').on('auth_tokens').column('user_id').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await timestamps(
    table('accounts')
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('owner_path', 'text', (c) => c.notNull())
      .addColumn('server_id', 'integer', (c) => c.references('servers.id'))
      .addColumn('login', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('pwd_txt', 'text', (c) => c.notNull())
      .addColumn('mac_address', 'text', (c) => c.notNull())
      .addColumn('expiry_date', 'text')
      .addColumn('validity_months', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('is_promo', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('bonus_months', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_trial', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('auto_renew_months', 'integer')
      .addColumn('auto_renew_end_date', 'text')
      .addColumn('auto_renew_failed_at', 'text')
      .addColumn('auto_renew_error', 'text')
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('offline'))
      .addColumn('last_active', 'text')
      .addColumn('ip_address', 'text')
      .addColumn('connection_status', 'text', (c) => c.notNull().defaultTo('offline'))
      .addColumn('device_info', 'text'),
  ).execute();
  await db.schema.createIndex('accounts_owner_path_idx').on('accounts').column('owner_path').execute();
  await db.schema.createIndex('accounts_owner_idx').on('accounts').column('owner_id').execute();
  await db.schema.createIndex('accounts_expiry_idx').on('accounts').column('expiry_date').execute();
  // A MAC address is unique per server.
  await db.schema.createIndex('accounts_server_mac_uq').on('accounts').columns(['server_id', 'mac_address']).unique().execute();

  await table('credit_transactions')
    .addColumn('transaction_number', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('bonus_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('balance_before', 'integer', (c) => c.notNull())
    .addColumn('balance_after', 'integer', (c) => c.notNull())
    .addColumn('counterparty_id', 'integer', (c) => c.references('users.id'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id'))
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('coverage_start', 'text')
    .addColumn('coverage_end', 'text')
    .addColumn('remarks', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('credit_transactions_balances_valid', sql`balance_before >= 0 and balance_after >= 0 and balance_after = balance_before + credits`)
    .execute();
  await db.schema.createIndex('credit_transactions_user_idx').on('credit_transactions').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('credit_transactions_created_idx').on('credit_transactions').column('created_at').execute();
  await db.schema.createIndex('credit_transactions_account_idx').on('credit_transactions').column('account_id').execute();

  // The ledger is append-only: corrections are new entries, never edits.
  if (pg) {
    await sql`create function credit_transactions_append_only() returns trigger language plpgsql as $$
      begin raise exception 'credit_transactions is append-only'; end $$`.execute(db);
    await sql`create trigger credit_transactions_no_change before update or delete on credit_transactions
      for each row execute function credit_transactions_append_only()`.execute(db);
  } else {
    await sql`create trigger credit_transactions_no_update before update on credit_transactions
      begin select raise(abort, 'credit_transactions is append-only'); end`.execute(db);
    await sql`create trigger credit_transactions_no_delete before delete on credit_transactions
      begin select raise(abort, 'credit_transactions is append-only'); end`.execute(db);
  }

  await table('idempotency_keys')
    .addColumn('actor_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('idempotency_keys_actor_key_uq', ['actor_id', 'key'])
    .execute();

  await timestamps(
    table('ticket_categories')
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1)),
  ).execute();

  await timestamps(
    table('tickets')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('owner_path', 'text', (c) => c.notNull())
      .addColumn('category_id', 'integer', (c) => c.references('ticket_categories.id').onDelete('set null'))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('priority', 'text', (c) => c.notNull().defaultTo('medium'))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
      .addColumn('closed_at', 'text'),
  ).execute();
  await db.schema.createIndex('tickets_owner_path_idx').on('tickets').column('owner_path').execute();

  await table('ticket_replies')
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await timestamps(
    table('announcements')
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull().defaultTo('info'))
      .addColumn('priority', 'text', (c) => c.notNull().defaultTo('medium'))
      .addColumn('target_roles', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('target_users', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('starts_at', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null')),
  ).execute();

  await db.schema
    .createTable('announcement_reads')
    .addColumn('announcement_id', 'integer', (c) => c.notNull().references('announcements.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('announcement_reads_pk', ['announcement_id', 'user_id'])
    .execute();

  await table('audit_logs')
    .addColumn('module', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text')
    .addColumn('target_username', 'text')
    .addColumn('entity_id', 'integer')
    .addColumn('description', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('old_values', 'text')
    .addColumn('new_values', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_logs_created_idx').on('audit_logs').column('created_at').execute();

  await timestamps(
    table('themes')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('tokens', 'text'),
  ).execute();

  await timestamps(
    table('user_promos')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('cascade'))
      .addColumn('credits_required', 'integer', (c) => c.notNull())
      .addColumn('bonus_credits', 'integer', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1)),
  ).execute();

  await timestamps(
    table('global_discounts')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('server_id', 'integer', (c) => c.references('servers.id').onDelete('cascade'))
      .addColumn('validity_months', 'integer', (c) => c.notNull())
      .addColumn('credits_required', 'integer', (c) => c.notNull())
      .addColumn('discount_percentage', 'real', (c) => c.notNull().defaultTo(0))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('valid_from', 'text')
      .addColumn('valid_until', 'text')
      .addColumn('max_uses', 'integer')
      .addColumn('current_uses', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();

  await table('account_messages')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('job_locks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('The initial migration is not reversible.');
}
