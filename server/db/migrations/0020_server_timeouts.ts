import { type Kysely, sql } from 'kysely';

/**
 * Every call to a server's middleware is bounded. `timeout_seconds` is the budget of one
 * call (connect, pool wait, statements, lock waits); the check keeps a hand-written value sane.
 * Literals, not the contract's constants: a migration states what it did when it ran.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('servers')
    .addColumn('timeout_seconds', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(5)
        .check(sql`timeout_seconds between 1 and 60`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('servers').dropColumn('timeout_seconds').execute();
}
