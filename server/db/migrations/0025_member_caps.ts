import type { Kysely } from 'kysely';

/**
 * Limits a user above sets on a member of its subtree (docs/domain.md#caps): the live accounts of
 * the member's branch, the trials its branch may start per UTC day, the credits it may give its own
 * children per UTC day. A missing row or a null column is no limit. The row is also what a capped
 * operation locks, so two of them under one cap take turns.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('member_caps')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('max_accounts', 'integer')
    .addColumn('trials_per_day', 'integer')
    .addColumn('credits_per_day', 'integer')
    .addColumn('updated_by', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('member_caps').execute();
}
