import { type Kysely, sql } from 'kysely';

/**
 * A user's allocations (credits/allocations.ts: PURCHASED from another user, no bonus) by their own
 * index. Every recovery reads them; through the user's index it read all of the user's entries, and
 * a dealer's are mostly renewals (thousands at scale). The condition is written as the query writes
 * it, with literals, so SQLite can tell the partial index applies.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('credit_transactions_allocation_idx')
    .on('credit_transactions')
    .columns(['user_id', 'id'])
    .where(sql<boolean>`type = 'PURCHASED' and counterparty_id is not null and bonus_credits = 0 and credits > 0`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('credit_transactions_allocation_idx').execute();
}
