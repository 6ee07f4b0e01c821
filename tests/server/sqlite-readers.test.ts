/**
 * SQLite reads off the event loop (docs/performance.md): a read outside a transaction runs on a reader
 * thread, so a slow one leaves the server answering; writes and whole transactions stay on the main
 * connection, reads see every committed write, errors keep their SQLite codes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSqliteReaders } from '../../server/config';
import { connect } from '../../server/db/connect';
import { SqliteReadersDialect } from '../../server/db/sqliteReaders';
import { startTestServer } from './harness';

/** A read that keeps SQLite busy for a second or so, and returns one row. */
const SLOW_COUNT = 5_000_000;
const slowRead = sql<{ n: number }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${SLOW_COUNT}) select count(*) as n from c`;

/**
 * The longest the event loop went without running a 5 ms timer while `work` ran, and how long the work
 * took. Run on the main thread, the work would hold the loop the whole time (gap close to took): the
 * tests compare the two rather than a fixed number of milliseconds, which a loaded machine stretches.
 */
async function worstTimerGap(work: Promise<unknown>): Promise<{ gap: number; took: number }> {
  const started = performance.now();
  let last = started;
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  const now = performance.now();
  return { gap: Math.max(worst, now - last), took: now - started };
}

interface Row {
  id: number;
  name: string;
  data: Buffer | null;
  big: number | null;
}

describe('SQLite reader threads', () => {
  let dir: string;
  let database: SQLite.Database;
  let dialect: SqliteReadersDialect;
  let db: Kysely<{ t: Row }>;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-readers-'));
    const file = path.join(dir, 'test.sqlite');
    database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('busy_timeout = 5000');
    dialect = new SqliteReadersDialect({ database, file, readers: 2 });
    db = new Kysely({ dialect });
    await sql`create table t (id integer primary key, name text not null unique, data blob, big integer)`.execute(db);
  });
  afterEach(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs a slow read without stopping the event loop', async () => {
    let rows: { n: number }[] = [];
    const { gap, took } = await worstTimerGap(slowRead.execute(db).then((r) => (rows = r.rows)));
    expect(rows).toEqual([{ n: SLOW_COUNT }]);
    expect(took).toBeGreaterThan(300); // slow enough that running it on the main thread would show
    expect(gap).toBeLessThan(took / 3);
    expect(dialect.readerThreads().length).toBeGreaterThan(0);
  });

  it('answers other reads and writes while one slow read runs', async () => {
    await Promise.all([db.selectFrom('t').selectAll().execute(), db.selectFrom('t').selectAll().execute()]); // both threads up
    let slowDone = false;
    const slow = slowRead.execute(db).then(
      () => ((slowDone = true), null),
      (error: unknown) => error,
    );
    await db.insertInto('t').values({ id: 1, name: 'one' }).execute();
    const rows = await db.selectFrom('t').select('name').execute();
    // Answered by the second thread while the slow read still runs, not queued behind it.
    expect(slowDone).toBe(false);
    expect(await slow).toBeNull();
    expect(rows).toEqual([{ name: 'one' }]);
  });

  it('sees a committed write at once (read your writes)', async () => {
    for (let i = 1; i <= 50; i++) {
      if (i % 2)
        await db
          .insertInto('t')
          .values({ id: i, name: `n${i}` })
          .execute();
      else
        await db.transaction().execute((trx) =>
          trx
            .insertInto('t')
            .values({ id: i, name: `n${i}` })
            .execute(),
        );
      const seen = await db
        .selectFrom('t')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(seen.n).toBe(i);
      await db
        .updateTable('t')
        .set({ name: `m${i}` })
        .where('id', '=', i)
        .execute();
      expect((await db.selectFrom('t').select('name').where('id', '=', i).executeTakeFirstOrThrow()).name).toBe(`m${i}`);
    }
  });

  it('reads inside a transaction see its own writes; reads outside see only what was committed, without waiting', async () => {
    await db.insertInto('t').values({ id: 1, name: 'before' }).execute();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('t').set({ name: 'inside' }).where('id', '=', 1).execute();
      await trx.insertInto('t').values({ id: 2, name: 'new' }).execute();
      expect(await trx.selectFrom('t').select('name').orderBy('id').execute()).toEqual([{ name: 'inside' }, { name: 'new' }]);
      expect((await sql<{ n: number }>`select count(*) as n from t`.execute(trx)).rows).toEqual([{ n: 2 }]);
      // The main connection is held by this transaction: a read outside it goes to a reader thread.
      expect(await db.selectFrom('t').select('name').orderBy('id').execute()).toEqual([{ name: 'before' }]);
    });
    expect(await db.selectFrom('t').select('name').orderBy('id').execute()).toEqual([{ name: 'inside' }, { name: 'new' }]);
  });

  it('runs a read by unique keys on the free main connection, any other read on a reader', () => {
    const route = (q: { compile(): CompiledQuery }) => dialect.routeOf(q.compile());
    const t = db.selectFrom('t').selectAll();
    expect(route(t.where('id', '=', 1))).toBe('point');
    expect(route(t.where('id', 'in', [1, 2, 3]))).toBe('point');
    expect(route(t.where('name', '=', 'x'))).toBe('point'); // the unique constraint's index
    expect(route(db.selectFrom('t as a').innerJoin('t as b', 'b.id', 'a.big').selectAll('a').where('a.id', '=', 1))).toBe('point');
    expect(route(t.where('big', '=', 1))).toBe('reader'); // no index: a scan
    expect(route(t.where('id', '>', 1))).toBe('reader'); // a range
    expect(route(t.where('name', '>=', 'a'))).toBe('reader');
    expect(route(db.selectFrom('t').select(sql<number>`count(*)`.as('n')))).toBe('reader');
    expect(route(db.insertInto('t').values({ id: 9, name: 'w' }).returning('id'))).toBe('main');
  });

  it('sends a point read to a reader while a transaction holds the main connection, so it sees only committed rows', async () => {
    await db.insertInto('t').values({ id: 1, name: 'before' }).execute();
    const byId = () => db.selectFrom('t').select('name').where('id', '=', 1).executeTakeFirst();
    expect(await byId()).toEqual({ name: 'before' });
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('t').set({ name: 'inside' }).where('id', '=', 1).execute();
      expect(await byId()).toEqual({ name: 'before' });
    });
    expect(await byId()).toEqual({ name: 'inside' });
  });

  it('rolls back, and keeps savepoints on the main connection', async () => {
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('t').values({ id: 1, name: 'gone' }).execute();
        throw new Error('undo');
      })
      .catch(() => {});
    const trx = await db.startTransaction().execute();
    await trx.insertInto('t').values({ id: 2, name: 'kept' }).execute();
    const saved = await trx.savepoint('sp').execute();
    await saved.insertInto('t').values({ id: 3, name: 'undone' }).execute();
    expect((await saved.selectFrom('t').select('id').execute()).length).toBe(2);
    const back = await saved.rollbackToSavepoint('sp').execute();
    await back.commit().execute();
    expect(await db.selectFrom('t').select('name').execute()).toEqual([{ name: 'kept' }]);
  });

  it('returns blobs as Buffers and large integers as numbers, as the main connection does', async () => {
    const data = Buffer.from([0, 1, 2, 255]);
    await db
      .insertInto('t')
      .values({ id: 1, name: 'b', data, big: 2 ** 50 })
      .execute();
    const row = await db.selectFrom('t').selectAll().where('data', '=', data).executeTakeFirstOrThrow();
    expect(Buffer.isBuffer(row.data)).toBe(true);
    expect(row.data).toEqual(data);
    expect(row.big).toBe(2 ** 50);
  });

  it('keeps the SQLite error code, from a reader thread and from the main connection', async () => {
    const fromReader = await sql`select json_extract('not json', '$') as x`.execute(db).then(
      () => null,
      (error: unknown) => error,
    );
    expect(fromReader).toBeInstanceOf(SQLite.SqliteError);
    expect((fromReader as { code?: string }).code).toBe('SQLITE_ERROR');
    expect((fromReader as Error).message).toMatch(/malformed JSON/);
    await db.insertInto('t').values({ id: 1, name: 'x' }).execute();
    const duplicate = await db
      .insertInto('t')
      .values({ id: 2, name: 'x' })
      .execute()
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect((duplicate as { code?: string }).code).toBe('SQLITE_CONSTRAINT_UNIQUE');
    const missing = await sql`select * from nowhere`.execute(db).then(
      () => null,
      (error: unknown) => error,
    );
    expect((missing as { code?: string }).code).toBe('SQLITE_ERROR');
  });

  it('rejects the read of a thread that stops, and starts another', async () => {
    const slow = slowRead.execute(db).then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [thread] = dialect.readerThreads();
    await thread.terminate();
    const error = await slow;
    expect((error as { code?: string })?.code).toBe('SQLITE_READER_EXITED');
    expect(dialect.readerThreads()).not.toContain(thread);
    await db.insertInto('t').values({ id: 1, name: 'after' }).execute();
    expect(await db.selectFrom('t').select('name').execute()).toEqual([{ name: 'after' }]);
  });

  it('checkpoints the log on a reader thread after writes, where the main connection would only past 10,000 pages', async () => {
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    const shm = path.join(dir, 'test.sqlite-shm');
    // The WAL index's header (native byte order): the last frame in the log, and how many of them
    // are copied back into the database file. Read from the file: asking SQLite would checkpoint.
    const frames = () => {
      const header = fs.readFileSync(shm).subarray(0, 100);
      return { inLog: header.readUInt32LE(16), copied: header.readUInt32LE(96) };
    };
    await db
      .insertInto('t')
      .values({ id: 1, name: 'one', data: Buffer.alloc(3000), big: null })
      .execute();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('t')
        .values({ id: 2, name: 'two', data: Buffer.alloc(3000), big: null })
        .execute();
      await trx
        .insertInto('t')
        .values({ id: 3, name: 'three', data: Buffer.alloc(3000), big: null })
        .execute();
    });
    const written = frames();
    expect(written.copied).toBeLessThan(written.inLog);
    const deadline = performance.now() + 5000;
    while (frames().copied < written.inLog && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(frames()).toEqual({ inLog: written.inLog, copied: written.inLog });
    expect(await db.selectFrom('t').select('id').orderBy('id').execute()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('ends its threads on destroy', async () => {
    await Promise.all([db.selectFrom('t').selectAll().execute(), db.selectFrom('t').selectAll().execute()]);
    const threads = dialect.readerThreads();
    expect(threads.length).toBe(2);
    const exits = threads.map((thread) => new Promise((resolve) => thread.once('exit', resolve)));
    await db.destroy();
    await Promise.all(exits);
    expect(dialect.readerThreads()).toEqual([]);
    await expect(db.selectFrom('t').selectAll().execute()).rejects.toThrow();
  });
});

describe('SQLITE_READERS', () => {
  it('takes a whole number from 0 to 16, 2 when unset, and stops the start-up on anything else', () => {
    expect(parseSqliteReaders(undefined)).toBe(2);
    expect(parseSqliteReaders('')).toBe(2);
    expect(parseSqliteReaders('0')).toBe(0);
    expect(parseSqliteReaders('4')).toBe(4);
    for (const bad of ['-1', 'two', '1.5', '17']) expect(() => parseSqliteReaders(bad), bad).toThrow(/SQLITE_READERS/);
  });
});

describe('connect() on SQLite', () => {
  it('keeps the one connection for a database in memory (it cannot be shared between threads)', async () => {
    const memory = connect('sqlite::memory:');
    await sql`create table m (x integer)`.execute(memory.kysely);
    await sql`insert into m values (1)`.execute(memory.kysely);
    expect((await sql<{ x: number }>`select x from m`.execute(memory.kysely)).rows).toEqual([{ x: 1 }]);
    await memory.close();
  });

  it('reads a file database through the readers, and closes (pragma optimize, threads ended)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-readers-'));
    try {
      const db = connect(`sqlite:${path.join(dir, 'panel.sqlite')}`);
      await sql`create table m (x integer)`.execute(db.kysely);
      await sql`insert into m values (1)`.execute(db.kysely);
      const { gap, took } = await worstTimerGap(slowRead.execute(db.kysely));
      expect(gap).toBeLessThan(took / 3);
      expect((await sql<{ x: number }>`select x from m`.execute(db.kysely)).rows).toEqual([{ x: 1 }]);
      await db.close();
      await expect(sql`select x from m`.execute(db.kysely)).rejects.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

it('tells onStatement of every statement with its parameters, in the order they run, on either connection', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-readers-'));
  const seen: Array<[string, unknown[]]> = [];
  try {
    const db = connect(`sqlite:${path.join(dir, 'panel.sqlite')}`, { onStatement: (text, parameters) => seen.push([text, [...parameters]]) });
    await sql`create table m (x integer)`.execute(db.kysely);
    await db.kysely.transaction().execute(async (trx) => {
      await sql`insert into m values (${1})`.execute(trx);
    });
    await sql`select x from m where x > ${0}`.execute(db.kysely); // a reader thread's
    await db.close();
    expect(seen).toEqual([
      ['create table m (x integer)', []],
      ['begin immediate', []],
      ['insert into m values (?)', [1]],
      ['commit', []],
      ['select x from m where x > ?', [0]],
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('/health during a slow read [sqlite]', () => {
  let started: Awaited<ReturnType<typeof startTestServer>>;
  afterAll(async () => started?.stop());

  it('answers while a slow query runs', async () => {
    started = await startTestServer('sqlite');
    const { ctx } = started;
    const admin = await ctx.as('admin');
    await fetch(`${ctx.baseUrl}/api/v1/health`).then((res) => res.text()); // the first answer of a new server is not the point
    await admin.get('/accounts');
    const slowStarted = performance.now();
    const slow = slowRead.execute(ctx.db.kysely);
    let slowDone = false;
    void slow.then(() => (slowDone = true));
    const times: number[] = [];
    while (!slowDone && times.length < 20) {
      const begun = performance.now();
      const res = await fetch(`${ctx.baseUrl}/api/v1/health`);
      await res.text();
      expect(res.status).toBe(200);
      times.push(performance.now() - begun);
      const list = await admin.get('/accounts');
      expect(list.status).toBe(200);
    }
    await slow;
    const slowTook = performance.now() - slowStarted;
    // Several answers came while the slow query ran, none of them waiting for it.
    expect(times.length).toBeGreaterThan(1);
    expect(Math.max(...times)).toBeLessThan(slowTook / 2);
  });
});
