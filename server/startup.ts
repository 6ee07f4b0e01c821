/**
 * What a process does to its database before it serves: migrations, the first admin, the demo seed.
 * Several processes may start at once against one database, so all of it runs under one lock: a
 * PostgreSQL session-level advisory lock (released by the server if the process dies), or on SQLite
 * an exclusive transaction on a lock file beside the database (released by the OS if it dies).
 * The steps themselves check before they write, so the process that waited finds the work done.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { ensureAdmin } from './seed/admin';
import { seedDemo } from './seed/demo';
import { type Db, connect } from './db/connect';
import { migrateToLatest } from './db/migrate';

/** One lock per schema, so separate installs (or test runs) in one PostgreSQL database do not wait on each other. */
const LOCK_NAME = 'credit-panel:startup:';

export const STARTUP_LOCK_TIMEOUT_MS = 120_000;

export async function withStartupLock<T>(db: Db, fn: () => Promise<T>, timeoutMs = STARTUP_LOCK_TIMEOUT_MS): Promise<T> {
  if (db.dialect === 'postgres') {
    return db.kysely.connection().execute(async (session) => {
      const key = sql`hashtext(${LOCK_NAME} || current_schema())`;
      const deadline = Date.now() + timeoutMs;
      // Polled rather than waited for in one call, so a stuck holder ends in a clear error.
      while (!(await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}) as locked`.execute(session)).rows[0]?.locked) {
        if (Date.now() > deadline) throw new Error(`Another process has held the start-up lock for ${timeoutMs / 1000} s`);
        await sleep(100);
      }
      try {
        return await fn();
      } finally {
        await sql`select pg_advisory_unlock(${key})`.execute(session);
      }
    });
  }
  if (!db.file) return fn();
  const lock = new SQLite(`${db.file}.startup-lock`);
  try {
    lock.pragma('busy_timeout = 0');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        lock.exec('begin exclusive');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
        if (Date.now() > deadline) throw new Error(`Another process has held the start-up lock for ${timeoutMs / 1000} s`);
        await sleep(50);
      }
    }
    try {
      return await fn();
    } finally {
      lock.exec('commit');
    }
  } finally {
    lock.close();
  }
}

/**
 * Runs the migrations as the tables' owner: over `migrationDatabaseUrl` when it names another
 * connection than `db`'s (PostgreSQL with a runtime role, server/db/roles.ts), else over `db`.
 */
export async function migrateAsOwner(db: Db, migrationDatabaseUrl: string | undefined, databaseUrl: string | undefined): Promise<void> {
  if (!migrationDatabaseUrl || migrationDatabaseUrl === databaseUrl || db.dialect !== 'postgres') {
    await migrateToLatest(db.kysely);
    return;
  }
  const owner = connect(migrationDatabaseUrl, { poolSize: 1 });
  try {
    await migrateToLatest(owner.kysely);
  } finally {
    await owner.close();
  }
}

export interface PrepareOptions {
  demoMode: boolean;
  /** The API's connection and the owner's, when they differ (MIGRATION_DATABASE_URL). */
  databaseUrl?: string;
  migrationDatabaseUrl?: string;
  adminUsername?: string;
  adminPassword?: string;
}

export interface Prepared {
  adminCreated: boolean;
  demoSeeded: boolean;
}

/** Migrates (as the owner), creates the first admin (ADMIN_USERNAME/ADMIN_PASSWORD) and seeds the demo, under the start-up lock. */
export function prepareDatabase(db: Db, options: PrepareOptions): Promise<Prepared> {
  return withStartupLock(db, async () => {
    await migrateAsOwner(db, options.migrationDatabaseUrl, options.databaseUrl);
    const admin = options.adminUsername && options.adminPassword ? await ensureAdmin(db.kysely, options.adminUsername, options.adminPassword) : null;
    const demoSeeded = options.demoMode ? await seedDemo(db.kysely) : false;
    return { adminCreated: admin !== null, demoSeeded };
  });
}
