import { type Kysely, Migrator, PostgresAdapter, sql } from 'kysely';
import { migrations } from './migrations';
import { grantRuntime, runtimeRoles } from './roles';

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which one; with several schemas
  // in one database (parallel test runs) it would find another schema's and fail. Use ours.
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    // A runtime role owns nothing and may create nothing: migrations run as the owner.
    const hint = (error as { code?: string })?.code === '42501' ? " (migrations run as the tables' owner: set MIGRATION_DATABASE_URL)" : '';
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}${hint}`);
  }
  // The runtime roles (server/db/roles.ts) get their grants on what these migrations created.
  if (migrationTableSchema && results?.some((r) => r.status === 'Success')) {
    for (const role of await runtimeRoles(db)) await grantRuntime(db, role);
  }
}
