/**
 * SQLite: keeps the most recently used prepared statements of a connection, so a query that runs
 * again is not compiled again. Kysely's driver prepares every query it runs, and compiling costs
 * more than running most of the panel's statements (an entry insert compiles the ledger triggers
 * with it). better-sqlite3 runs a statement synchronously, so one statement object serves every
 * caller; a cached statement the schema changed under is recompiled by SQLite itself.
 */
import type SQLite from 'better-sqlite3';

export function cacheStatements(database: SQLite.Database, size = 300): void {
  const prepare = database.prepare.bind(database);
  const cache = new Map<string, SQLite.Statement>();
  database.prepare = ((source: string) => {
    const cached = cache.get(source);
    // A statement still being iterated (a streamed query) cannot run again until it finishes.
    if (cached && !cached.busy) {
      // Most recent last: the first key is the one to drop when full.
      cache.delete(source);
      cache.set(source, cached);
      return cached;
    }
    const statement = prepare(source);
    if (cached) return statement;
    cache.set(source, statement);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
    return statement;
  }) as typeof database.prepare;
}
