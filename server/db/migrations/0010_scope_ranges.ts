import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Subtree scopes as index ranges (server/http/scope.ts): a subtree is `path >= '/1/5/' and
 * path < '/1/50'`, which a b-tree index answers directly, where `like '/1/5/%'` scanned every row.
 * - PostgreSQL compares text by the database's collation, under which '/' may weigh nothing: the
 *   path columns get the "C" collation (byte order, the order the ranges assume; also what lets a
 *   LIKE prefix use an index). SQLite's default BINARY collation is already byte order.
 * - The accounts that scopes count and list are the live ones: a partial index on their owner path.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const [table, column] of [
      ['users', 'path'],
      ['accounts', 'owner_path'],
      ['tickets', 'owner_path'],
    ]) {
      await sql.raw(`alter table ${table} alter column ${column} type text collate "C"`).execute(db);
    }
  }
  await db.schema.createIndex('accounts_live_owner_path_idx').on('accounts').column('owner_path').where(sql.ref('deleted_at'), 'is', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('accounts_live_owner_path_idx').execute();
  if (isPostgres(db)) {
    for (const [table, column] of [
      ['users', 'path'],
      ['accounts', 'owner_path'],
      ['tickets', 'owner_path'],
    ]) {
      await sql.raw(`alter table ${table} alter column ${column} type text collate "default"`).execute(db);
    }
  }
}
