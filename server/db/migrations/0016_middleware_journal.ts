import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * The middleware journal (docs/middleware.md, "One outcome"): one row per panel change
 * that writes a Ministra middleware, written and committed before the middleware call and settled
 * after it ('done' in the transaction of the panel's change and its charge, or 'compensated' once
 * the middleware matches the panel again). A claim row per account (and per MAC and login on a
 * server) keeps two such changes on one subscriber from interleaving.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('middleware_journal')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('idempotency_key', 'text')
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .execute();
  await db.schema.createIndex('middleware_journal_status_idx').on('middleware_journal').columns(['status', 'lease_until']).execute();
  await db.schema.createIndex('middleware_journal_key_idx').on('middleware_journal').columns(['actor_id', 'idempotency_key']).execute();
  await db.schema
    .createTable('middleware_claims')
    .addColumn('claim', 'text', (c) => c.primaryKey())
    .addColumn('journal_id', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('middleware_claims_journal_idx').on('middleware_claims').column('journal_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('middleware_claims').execute();
  await db.schema.dropTable('middleware_journal').execute();
}
