import { randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema';

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock (PostgreSQL)

/**
 * Runs `fn` in one database transaction, retrying a bounded number of times when PostgreSQL
 * reports a serialization failure or deadlock. SQLite serialises writers on its one connection.
 */
export async function inTransaction<T>(db: Kysely<Database>, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, randomInt(5, 25) * attempt));
    }
  }
}
