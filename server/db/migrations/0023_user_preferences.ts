import type { Kysely } from 'kysely';

/**
 * Each user's own preferences (colour scheme, hidden columns...), one JSON text per user, so they
 * follow the user to any browser. A row exists once the user saved something; none means defaults.
 * Deleting the user deletes its row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_preferences')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('preferences', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_preferences').execute();
}
