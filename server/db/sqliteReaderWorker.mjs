/**
 * One reader thread of server/db/sqliteReaders.ts: its own read-only connection to the WAL database,
 * one statement at a time. Plain JavaScript so that it runs as it is under node, tsx and vitest.
 * It also runs the WAL checkpoints the pool asks for, on a read-write connection of its own, so that
 * copying the log into the database file does not hold up the main connection's commits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, busyTimeoutMs } = workerData;
const CACHE_SIZE = 64;

let db = null;
let writer = null;
const statements = new Map();

function open() {
  if (db) return db;
  db = new SQLite(file, { readonly: true, fileMustExist: true });
  db.pragma(`busy_timeout = ${Number(busyTimeoutMs)}`);
  return db;
}

/** Prepared statements by text, the least recently used dropped first. */
function prepare(sql) {
  let stmt = statements.get(sql);
  if (stmt) statements.delete(sql);
  else stmt = open().prepare(sql);
  statements.set(sql, stmt);
  if (statements.size > CACHE_SIZE) statements.delete(statements.keys().next().value);
  return stmt;
}

// A Buffer arrives as a plain Uint8Array after the copy between threads; better-sqlite3 binds Buffers.
const bindable = (parameters) => parameters.map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));

function hasBuffer(rows) {
  for (const row of rows) for (const key in row) if (row[key] instanceof Uint8Array) return true;
  return false;
}

/** PASSIVE: copies what no reader still needs and never waits for the writer or the readers. */
function checkpoint() {
  if (!writer) {
    writer = new SQLite(file, { fileMustExist: true });
    writer.pragma(`busy_timeout = ${Number(busyTimeoutMs)}`);
    // This connection never writes, so it never checkpoints on its own either; a checkpoint copies
    // pages without the page cache, which stays small.
    writer.pragma('wal_autocheckpoint = 0');
    writer.pragma('cache_size = -256');
  }
  return writer.pragma('wal_checkpoint(PASSIVE)');
}

parentPort.on('message', (message) => {
  if (message.type === 'close') {
    db?.close();
    writer?.close();
    db = null;
    writer = null;
    parentPort.close();
    return;
  }
  const { id, sql, parameters } = message;
  try {
    if (message.type === 'checkpoint') {
      parentPort.postMessage({ id, ok: true, rows: checkpoint() });
      return;
    }
    const stmt = prepare(sql);
    if (stmt.reader) {
      const rows = stmt.all(bindable(parameters));
      parentPort.postMessage({ id, ok: true, rows, buffers: hasBuffer(rows) });
    } else {
      const { changes, lastInsertRowid } = stmt.run(bindable(parameters));
      parentPort.postMessage({ id, ok: true, rows: [], changes, lastInsertRowid });
    }
  } catch (error) {
    // Errors lose their own properties in the copy between threads: send what the server reads.
    const { name, message: text, code } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    parentPort.postMessage({ id, ok: false, error: { name, message: text, code } });
  }
});
