import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL keeps the rate-limit counters out of the write-ahead log. Every credit call and sign-in
 * counts a hit in its own short transaction before its real work; on a logged table each of those
 * commits waited for a WAL flush of its own, a second disk sync per credit move. A counter lives
 * for a minute's window: after a crash the table comes back empty, which only forgets the current
 * windows. SQLite has no such tables (its commits in WAL mode do not sync by default anyway).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter table rate_limits set unlogged`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter table rate_limits set logged`.execute(db);
}
