/**
 * A Kysely SQLite dialect whose reads run off the event loop. better-sqlite3 is synchronous: on one
 * connection, a slow query stops every other request until it ends. Here a statement that only reads
 * and runs outside a transaction goes to a small pool of worker threads, each with a read-only
 * connection to the same WAL database; in WAL each such read sees every committed write at its start.
 * Everything else (writes, pragmas, and every statement of a transaction, reads included, so that
 * they see the transaction's own writes) runs on the main connection under one mutex, as Kysely's
 * own SqliteDriver does.
 * A read that cannot be slow (its plan finds each row by a unique key, such as a sign-in's token or
 * a user by id) runs on the main connection when no one holds it: handing it to a thread costs more
 * than running it.
 * WAL checkpoints (copying the log back into the database file, with a sync) run on a reader thread
 * shortly after writes, not inside whichever commit crosses SQLite's threshold on the main
 * connection: that commit took 2-20 ms where others take 0.1.
 */
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

export interface SqliteReadersConfig {
  /** The main connection: writes and transactions. */
  database: SQLite.Database;
  /** The database file the readers open (absolute). */
  file: string;
  /** How many reader threads (at least 1). */
  readers: number;
  busyTimeoutMs?: number;
  /** Told of every statement as it is run, on either connection, in the order they run. */
  onStatement?: (sql: string, parameters: readonly unknown[]) => void;
}

export class SqliteReadersDialect implements Dialect {
  #driver: SqliteReadersDriver | undefined;
  constructor(readonly config: SqliteReadersConfig) {}
  createDriver(): Driver {
    this.#driver = new SqliteReadersDriver(this.config);
    return this.#driver;
  }
  /** The reader threads running now (for diagnostics and tests). */
  readerThreads(): readonly Worker[] {
    return this.#driver?.readerThreads() ?? [];
  }
  /** Where a statement runs (for diagnostics and tests). */
  routeOf(query: CompiledQuery): Route {
    if (!this.#driver) throw new Error('the dialect has no driver yet');
    return this.#driver.routeOf(query);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

/**
 * Kysely's own SQLite dialect (everything on the one connection: a database in memory, or no reader
 * threads), its transactions beginning IMMEDIATE as the readers' dialect's do.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class Mutex {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;
  async lock(): Promise<void> {
    while (this.#promise) await this.#promise;
    this.#promise = new Promise((resolve) => (this.#resolve = resolve));
  }
  get held(): boolean {
    return this.#promise !== undefined;
  }
  unlock(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}

/** Runs a statement on a better-sqlite3 connection as Kysely's SqliteConnection does. */
function runOn(db: SQLite.Database, { sql, parameters }: CompiledQuery): QueryResult<any> {
  const stmt = db.prepare(sql);
  if (stmt.reader) return { rows: stmt.all(parameters as unknown[]) };
  const { changes, lastInsertRowid } = stmt.run(parameters as unknown[]);
  return {
    numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
    insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
    rows: [],
  };
}

const READ_TEXT = /^\s*(select|with)\b/i;
const DECISIONS_KEPT = 1000;
/** How soon after a write a checkpoint is asked for: writes in between share it. */
const CHECKPOINT_DELAY_MS = 100;
/** The main connection still checkpoints by itself past this many pages of log (40 MB), should the threads fall behind. */
const MAIN_CHECKPOINT_PAGES = 10_000;

/** How a statement text is run: on the main connection only, on a reader, or where it is quickest. */
type Route = 'main' | 'reader' | 'point';

/** Plan lines that name no table access of their own. */
const PLAN_FRAME = /^(CORRELATED )?(SCALAR|LIST) SUBQUERY \d+$|^USE TEMP B-TREE FOR (ORDER BY|GROUP BY|DISTINCT)$|^COMPOUND QUERY$|^(LEFT-MOST|UNION ALL) SUBQUERY$/;
const PLAN_ROWID = /^SEARCH \S+(?: AS \S+)? USING INTEGER PRIMARY KEY \(rowid=\?\)$/;
const PLAN_INDEX = /^SEARCH (\S+)(?: AS \S+)? USING (?:COVERING )?INDEX (\S+) \(([^)]*)\)$/;

/**
 * Whether every row the statement reads is found by equality on a unique key (the rowid, or every
 * column of a unique index), as SQLite's own plan says: such a read returns at most one row per key
 * it is given and cannot be slow. Anything else (a scan, a range, a non-unique index) is not.
 */
function readsByUniqueKeys(db: SQLite.Database, { sql, parameters }: CompiledQuery): boolean {
  const plan = db.prepare(`explain query plan ${sql}`).all(parameters as unknown[]) as Array<{ detail: string }>;
  return plan.every(({ detail }) => {
    if (PLAN_FRAME.test(detail) || PLAN_ROWID.test(detail)) return true;
    const search = PLAN_INDEX.exec(detail);
    if (!search) return false;
    const [, table, index, terms] = search;
    const equal = terms.split(' AND ').map((term) => /^(\w+)=\?$/.exec(term)?.[1]);
    if (equal.some((column) => !column)) return false;
    const unique = (db.pragma(`index_list(${quoteName(table)})`) as Array<{ name: string; unique: number; partial: number }>).find((i) => i.name === index);
    if (!unique?.unique) return false;
    const columns = (db.pragma(`index_info(${quoteName(index)})`) as Array<{ name: string }>).map((c) => c.name);
    return columns.every((column) => equal.includes(column));
  });
}

export class SqliteReadersDriver implements Driver {
  readonly #db: SQLite.Database;
  readonly #mutex = new Mutex();
  readonly #pool: ReaderPool;
  /** Where each statement text runs, as SQLite itself says; texts repeat, so this is kept. */
  readonly #routes = new Map<string, Route>();
  readonly #onStatement: SqliteReadersConfig['onStatement'];

  #checkpoint: NodeJS.Timeout | Promise<void> | null = null;

  constructor(config: SqliteReadersConfig) {
    this.#db = config.database;
    this.#onStatement = config.onStatement;
    this.#pool = new ReaderPool(config.file, Math.max(1, Math.floor(config.readers) || 1), config.busyTimeoutMs ?? 5000);
    this.#db.pragma(`wal_autocheckpoint = ${MAIN_CHECKPOINT_PAGES}`);
  }

  // Kysely calls this before the first query: the threads start then, not on a request's time.
  async init(): Promise<void> {
    this.#pool.start();
  }

  // No lock here: a connection takes the main connection's mutex only when it needs it (a write, a
  // transaction), and keeps it until it is released, so a connection() block stays one session.
  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this);
  }

  // IMMEDIATE: the write lock is taken at BEGIN, where SQLite's busy timeout waits for another
  // process's writer. A deferred transaction that read first and then writes after another process
  // committed fails at once (SQLITE_BUSY_SNAPSHOT): its snapshot is too old to write from.
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    await routed.holdMain();
    await routed.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    if (this.#checkpoint && !(this.#checkpoint instanceof Promise)) clearTimeout(this.#checkpoint);
    await this.#pool.close();
    this.#db.close();
  }

  /** After a committed write: one checkpoint on a thread soon, unless one is already asked for. */
  #committed(): void {
    if (this.#checkpoint) return;
    this.#checkpoint = setTimeout(() => {
      this.#checkpoint = this.#pool
        .checkpoint()
        .catch(() => undefined) // a busy log is checkpointed next time; the main connection's own threshold remains
        .finally(() => (this.#checkpoint = null));
    }, CHECKPOINT_DELAY_MS);
    this.#checkpoint.unref();
  }

  readerThreads(): readonly Worker[] {
    return this.#pool.threads();
  }

  /** @internal */
  lockMain(): Promise<void> {
    return this.#mutex.lock();
  }
  /** @internal */
  unlockMain(): void {
    this.#mutex.unlock();
  }
  /** @internal */
  runOnMain(query: CompiledQuery): QueryResult<any> {
    this.#onStatement?.(query.sql, query.parameters);
    const result = runOn(this.#db, query);
    if (result.numAffectedRows !== undefined && !this.#db.inTransaction) this.#committed();
    return result;
  }
  /** @internal */
  *iterateOnMain({ sql, parameters }: CompiledQuery): Generator<unknown> {
    this.#onStatement?.(sql, parameters);
    yield* this.#db.prepare(sql).iterate(parameters as unknown[]);
  }
  /** @internal */
  runOnReader(query: CompiledQuery): Promise<QueryResult<any>> {
    this.#onStatement?.(query.sql, query.parameters);
    return this.#pool.run(query.sql, query.parameters);
  }

  /** @internal Whether the main connection is held (by a write or a transaction). */
  mainHeld(): boolean {
    return this.#mutex.held;
  }

  /**
   * @internal Where a statement runs: 'reader' for one that reads and nothing else (not BEGIN, not a
   * pragma, not a write with RETURNING), 'point' for such a read by unique keys, else 'main'.
   */
  routeOf(query: CompiledQuery): Route {
    const known = this.#routes.get(query.sql);
    if (known !== undefined) return known;
    if (!READ_TEXT.test(query.sql)) return 'main';
    let route: Route;
    try {
      const stmt = this.#db.prepare(query.sql);
      route = !(stmt.reader && stmt.readonly) ? 'main' : readsByUniqueKeys(this.#db, query) ? 'point' : 'reader';
    } catch {
      return 'main'; // the main connection runs it and reports the error as before
    }
    if (this.#routes.size >= DECISIONS_KEPT) this.#routes.clear();
    this.#routes.set(query.sql, route);
    return route;
  }
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

class RoutedConnection implements DatabaseConnection {
  #holdsMain = false;
  constructor(readonly driver: SqliteReadersDriver) {}

  async holdMain(): Promise<void> {
    if (this.#holdsMain) return;
    await this.driver.lockMain();
    this.#holdsMain = true;
  }

  release(): void {
    if (!this.#holdsMain) return;
    this.#holdsMain = false;
    this.driver.unlockMain();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.#holdsMain) {
      const route = this.driver.routeOf(query);
      // A point read runs at once on the free main connection; one held by a transaction would show
      // that transaction's uncommitted writes, so then it goes to a reader like any other read.
      if (route === 'point' && !this.driver.mainHeld()) return this.driver.runOnMain(query);
      if (route !== 'main') return this.driver.runOnReader(query);
    }
    await this.holdMain();
    return this.driver.runOnMain(query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    await this.holdMain();
    for (const row of this.driver.iterateOnMain(query)) yield { rows: [row as R] };
  }
}

interface Job {
  type?: 'checkpoint';
  sql: string;
  parameters: readonly unknown[];
  resolve(result: QueryResult<any>): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  failure: Error | null;
}

type Reply =
  | { id: number; ok: true; rows: Record<string, unknown>[]; buffers?: boolean; changes?: number; lastInsertRowid?: number | bigint }
  | { id: number; ok: false; error: { name: string; message: string; code?: string } };

const WORKER_URL = new URL('./sqliteReaderWorker.mjs', import.meta.url);
const CLOSE_WAIT_MS = 1000;

/** Reader threads, started with the driver and replaced when one stops; a job waits in line for an idle one, so a slow read holds one thread only. */
class ReaderPool {
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #closed = false;
  #nextId = 1;

  constructor(
    readonly file: string,
    readonly size: number,
    readonly busyTimeoutMs: number,
  ) {}

  start(): void {
    while (!this.#closed && this.#slots.length < this.size) this.#start().worker.unref();
  }

  threads(): readonly Worker[] {
    return this.#slots.map((slot) => slot.worker);
  }

  run(sql: string, parameters: readonly unknown[]): Promise<QueryResult<any>> {
    return this.#enqueue({ sql, parameters });
  }

  /** A passive WAL checkpoint, run by the next idle thread. */
  async checkpoint(): Promise<void> {
    await this.#enqueue({ type: 'checkpoint', sql: '', parameters: [] });
  }

  #enqueue(job: Pick<Job, 'type' | 'sql' | 'parameters'>): Promise<QueryResult<any>> {
    if (this.#closed) return Promise.reject(new Error('The database connection is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ ...job, resolve, reject });
      this.#dispatch();
    });
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot = this.#slots.find((s) => s.job === null) ?? (this.#slots.length < this.size ? this.#start() : null);
      if (!slot) return;
      const job = this.#queue.shift()!;
      try {
        slot.worker.postMessage({ id: this.#nextId++, type: job.type, sql: job.sql, parameters: job.parameters });
      } catch (error) {
        job.reject(error as Error); // a parameter that cannot be copied to the thread
        continue;
      }
      slot.job = job;
      slot.worker.ref();
    }
  }

  #start(): Slot {
    const worker = new Worker(WORKER_URL, {
      workerData: { file: this.file, busyTimeoutMs: this.busyTimeoutMs },
      // Plain JavaScript: no TypeScript loader (tsx, vitest) needed in the thread.
      execArgv: [],
    });
    const slot: Slot = { worker, job: null, failure: null };
    worker.on('message', (reply: Reply) => {
      const job = slot.job;
      slot.job = null;
      worker.unref();
      if (job) settle(job, reply);
      this.#dispatch();
    });
    worker.on('error', (error) => (slot.failure = error));
    worker.on('exit', (code) => {
      const index = this.#slots.indexOf(slot);
      if (index >= 0) this.#slots.splice(index, 1);
      const job = slot.job;
      slot.job = null;
      if (job) {
        const why = slot.failure ? `: ${slot.failure.message}` : ` (exit code ${code})`;
        job.reject(Object.assign(new Error(`The SQLite reader thread stopped before answering${why}`), { code: 'SQLITE_READER_EXITED' }));
      }
      if (!this.#closed) this.#dispatch(); // a replacement starts for what is waiting
    });
    this.#slots.push(slot);
    return slot;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('The database connection is closed'));
    await Promise.all(
      this.#slots.map(async (slot) => {
        const { worker } = slot;
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage({ type: 'close' });
        // A thread inside a long SQLite call ends only when the call returns: it is not waited for.
        const terminate = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
        const given = new Promise<void>((resolve) => setTimeout(resolve, 2 * CLOSE_WAIT_MS).unref());
        await Promise.race([exited, given]);
        clearTimeout(terminate);
        worker.unref();
        const job = slot.job;
        slot.job = null;
        job?.reject(new Error('The database connection is closed'));
      }),
    );
  }
}

function settle(job: Job, reply: Reply): void {
  if (!reply.ok) {
    const { name, message, code } = reply.error;
    // The server reads `code` (SQLITE_CONSTRAINT_..., SQLITE_BUSY): rebuilt as better-sqlite3's own error.
    const error = name === 'SqliteError' && code ? new SQLite.SqliteError(message, code) : Object.assign(new Error(message), code ? { code } : {});
    job.reject(error);
    return;
  }
  if (reply.changes !== undefined) {
    job.resolve({
      numAffectedRows: BigInt(reply.changes),
      insertId: reply.lastInsertRowid !== undefined ? BigInt(reply.lastInsertRowid) : undefined,
      rows: [],
    });
    return;
  }
  if (reply.buffers) for (const row of reply.rows) for (const key in row) row[key] = asBuffer(row[key]);
  job.resolve({ rows: reply.rows });
}

// A Buffer comes back from the thread as a plain Uint8Array.
const asBuffer = (value: unknown) => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);
