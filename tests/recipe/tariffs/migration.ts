/** The table of a plain resource; its row type follows from the contract's entity. */
import type { Generated, Kysely } from 'kysely';
import { isPostgres } from '../../../server/db/dialect';
import type { Tariff } from './contract';

declare module '../../../server/db/schema' {
  interface Database {
    tariffs: Omit<Tariff, 'id' | 'active'> & { id: Generated<number>; active: number };
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('tariffs')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('months', 'integer', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('server_id', 'integer', (c) => c.notNull().references('servers.id'))
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
