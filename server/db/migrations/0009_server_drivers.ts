import type { Kysely } from 'kysely';

/**
 * Provisioning (issue 13): a server says where its accounts live besides the panel (`driver`:
 * `local` or `ministra`), and an account remembers its subscriber's id in that middleware.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('servers')
    .addColumn('driver', 'text', (c) => c.notNull().defaultTo('local'))
    .execute();
  await db.schema.alterTable('accounts').addColumn('middleware_id', 'integer').execute();
  await db.schema.createIndex('accounts_middleware_idx').on('accounts').columns(['server_id', 'middleware_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('accounts_middleware_idx').execute();
  await db.schema.alterTable('accounts').dropColumn('middleware_id').execute();
  await db.schema.alterTable('servers').dropColumn('driver').execute();
}
