import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Bulk operations on accounts chosen by a filter or a selection (docs/domain.md#bulk-by-filter):
 * the preview a caller saw (`previewed`), then its one application. Above the bulk limit the
 * application is a job: the chosen accounts are frozen in `bulk_job_items`, each chunk runs in its
 * own transaction with its ledger entries and advances `cursor`, so a restart resumes after the last
 * committed chunk. A row's result is written once: the primary key (job_id, account_id) of
 * `bulk_job_results` refuses a second charge of the same row in the same job.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('bulk_jobs')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('actor_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('months', 'integer')
    .addColumn('message', 'text')
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('matched', 'integer', (c) => c.notNull())
    .addColumn('applicable', 'integer', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('succeeded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('charged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cursor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('bulk_jobs_status').on('bulk_jobs').columns(['status', 'id']).execute();
  await db.schema.createIndex('bulk_jobs_actor').on('bulk_jobs').columns(['actor_id', 'id']).execute();

  await db.schema
    .createTable('bulk_job_items')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('bulk_jobs.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_job_items_pk', ['job_id', 'account_id'])
    .execute();

  await db.schema
    .createTable('bulk_job_results')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('bulk_jobs.id').onDelete('cascade'))
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transaction_number', 'text')
    .addColumn('expiry_date', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_job_results_pk', ['job_id', 'account_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bulk_job_results').execute();
  await db.schema.dropTable('bulk_job_items').execute();
  await db.schema.dropTable('bulk_jobs').execute();
}
