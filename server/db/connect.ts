import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { DialectName } from './dialect';
import type { Database } from './schema';
import { ImmediateSqliteDialect, SqliteReadersDialect } from './sqliteReaders';
import { namingClient } from './namedStatements';
import { cacheStatements } from './statementCache';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** SQLite only: the database file (undefined in memory). */
  file?: string;
  close(): Promise<void>;
}

// The PostgreSQL driver is loaded only for a PostgreSQL database: on SQLite it would be resident
// memory for nothing.
let pgDriver: typeof pg | undefined;
function loadPg(): typeof pg {
  if (pgDriver) return pgDriver;
  pgDriver = createRequire(import.meta.url)('pg') as typeof pg;
  // pg returns int8 (COUNT, SUM) and numeric as strings; every figure here fits a JS number.
  pgDriver.types.setTypeParser(pgDriver.types.builtins.INT8, (v) => Number(v));
  pgDriver.types.setTypeParser(pgDriver.types.builtins.NUMERIC, (v) => Number(v));
  return pgDriver;
}

const BUSY_TIMEOUT_MS = 5000;

export const DEFAULT_DATABASE_URL = 'sqlite:./data/panel.sqlite';

export interface ConnectOptions {
  /** PostgreSQL only: the schema to work in (tests use one of their own per run). */
  schema?: string;
  poolSize?: number;
  /**
   * SQLite file databases only: threads that run reads outside transactions, so that a slow query
   * does not stop the event loop (server/db/sqliteReaders.ts). 0 runs everything on the one
   * connection. An in-memory database always does: it cannot be shared between threads.
   */
  sqliteReaders?: number;
  /**
   * SQLite file databases with reader threads only: told of every statement as it is run, with its
   * parameters (the credit-moves benchmark replays them on a plain connection).
   */
  onStatement?: (sql: string, parameters: readonly unknown[]) => void;
}

export const DEFAULT_SQLITE_READERS = 2;

export function connect(url: string = DEFAULT_DATABASE_URL, options: ConnectOptions = {}): Db {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const driver = loadPg();
    const pool = new driver.Pool({
      Client: namingClient(driver.Client),
      connectionString: url,
      max: options.poolSize ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle connection the server ends (a restart, a failover, an administrator's command) is
    // dropped by the pool and the next query opens a new one; unheard, its error would end the process.
    pool.on('error', () => undefined);
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  if (!url.startsWith('sqlite:')) throw new Error(`Unsupported DATABASE_URL: ${url} (use sqlite:PATH or postgres://...)`);
  const file = url.slice('sqlite:'.length) || ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  database.pragma('foreign_keys = ON');
  database.pragma('synchronous = NORMAL');
  // Statistics for the query planner (SQLite never gathers them by itself): analyse what needs it,
  // within a bounded effort, on open and again on close, as SQLite advises for long-lived connections.
  database.pragma('optimize = 0x10002');
  cacheStatements(database);
  const readers = options.sqliteReaders ?? DEFAULT_SQLITE_READERS;
  const dialect =
    file === ':memory:' || readers < 1
      ? new ImmediateSqliteDialect({ database })
      : new SqliteReadersDialect({ database, file: path.resolve(file), readers, busyTimeoutMs: BUSY_TIMEOUT_MS, onStatement: options.onStatement });
  const kysely = new Kysely<Database>({ dialect });
  const close = async () => {
    if (database.open) database.pragma('optimize');
    await kysely.destroy();
  };
  return { kysely, dialect: 'sqlite', file: file === ':memory:' ? undefined : path.resolve(file), close };
}
