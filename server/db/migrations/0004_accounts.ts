import type { Kysely } from 'kysely';

/**
 * Accounts are soft-deleted: ledger entries keep pointing at the account they paid for, and the
 * ledger is append-only, so the row stays. A deleted account leaves its server (server_id null), which
 * frees its MAC address and login there (the unique indexes ignore nulls).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('deleted_at', 'text').execute();
  await db.schema.createIndex('accounts_server_login_uq').on('accounts').columns(['server_id', 'login']).unique().execute();
  await db.schema.createIndex('account_messages_account_idx').on('account_messages').columns(['account_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('account_messages_account_idx').execute();
  await db.schema.dropIndex('accounts_server_login_uq').execute();
  await db.schema.alterTable('accounts').dropColumn('deleted_at').execute();
}
