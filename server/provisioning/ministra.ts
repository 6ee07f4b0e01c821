/**
 * The `ministra` driver: accounts mirrored onto the `users` table of a Ministra (Stalker) 5.x
 * database over MySQL/MariaDB. The mapping (shared/notes/middleware.md):
 * - login -> `login`, full name -> `fname`, MAC -> `mac` colon-separated uppercase;
 * - status inverted: 0 enabled (panel `active`), 1 disabled (anything else);
 * - expiry -> `expire_billing_date`, written through FROM_UNIXTIME so it is in the middleware
 *   server's own time zone, the one its portal compares with NOW(); an account without an expiry
 *   gets "now" (expired), never the zero date Ministra reads as "no end";
 * - the device password -> `password` as Ministra stores it, md5(md5(password) . id);
 * - online when `keep_alive` is within twice the watchdog timeout;
 * - a device reset clears the columns that bind the subscriber to one box.
 * Delete removes the subscriber row: a deleted account must not keep a box working.
 *
 * Every call is bounded by the server's budget (`timeout_seconds`): waiting for a pooled
 * connection, connecting, each statement (given what is left of the budget) and, on the server, each
 * lock wait. A connection whose statement timed out is destroyed, never handed to the next call. The
 * server's circuit breaker refuses calls at once while it is open (see breaker.ts).
 */
import type { FieldPacket, Pool, PoolConnection, QueryResult, QueryValues, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { ACCOUNTS, formatMac } from '../../src/contract';
import { DomainError, fieldError } from '../errors';
import type { Admission, Breaker } from './breaker';
import { type DeviceState, type MiddlewareSubscriber, type MirroredAccount, type Provisioner, type Undo, markUnapplied } from './types';

/** Ministra's default watchdog timeout (seconds); a box is online within twice that. */
export const WATCHDOG_TIMEOUT_S = 120;
const ONLINE = `keep_alive > NOW() - INTERVAL ${2 * WATCHDOG_TIMEOUT_S} SECOND`;

/** What binds a subscriber to one box; a reset empties them. */
export const DEVICE_COLUMNS = ['ip', 'version', 'image_version', 'stb_type', 'serial_number', 'device_id', 'device_id2', 'hw_version', 'access_token'] as const;
/** The columns the panel writes (and restores when its own transaction does not commit). */
const MIRRORED_COLUMNS = ['login', 'fname', 'mac', 'status', 'expire_billing_date', 'password'] as const;

/** The code of a call that ran out of its budget on the panel's side. */
const DEADLINE = 'MIDDLEWARE_DEADLINE';

/** Errors of the connection rather than of a statement: the server cannot be reached. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
]);
/** The server answered, too late: a lock it never granted, a statement it stopped. */
const TIMED_OUT = new Set([DEADLINE, 'ER_LOCK_WAIT_TIMEOUT', 'ER_STATEMENT_TIMEOUT', 'ER_QUERY_TIMEOUT']);

type Failure = { code?: string; fatal?: boolean; sqlMessage?: string; sqlState?: string };

/**
 * What a failed call tells about the server: it failed (unreachable, too slow: the breaker counts
 * it), it answered (a refusal, a duplicate: it is up), or nothing (the panel's own pool was full).
 */
function verdict(error: unknown): 'failed' | 'answered' | 'unknown' {
  if (error instanceof DomainError) return 'answered';
  const e = error as Failure;
  if ((e?.code && (UNREACHABLE.has(e.code) || TIMED_OUT.has(e.code))) || e?.fatal) return 'failed';
  return e?.sqlState ? 'answered' : 'unknown';
}

export interface MinistraBounds {
  /** Milliseconds one call may take, everything included. */
  budgetMs: number;
  breaker: Breaker;
  /** Connections whose session limits are set (the pool's own connections, by identity). */
  prepared: WeakSet<object>;
}

/** One call's connection: every statement may take what is left of the call's budget. */
class Session {
  constructor(
    readonly conn: PoolConnection,
    private readonly deadline: number,
  ) {}

  query<T extends QueryResult>(sql: string, values?: QueryValues): Promise<[T, FieldPacket[]]> {
    const timeout = this.deadline - Date.now();
    if (timeout <= 0) return Promise.reject(deadlineError());
    return this.conn.query<T>({ sql, values, timeout });
  }
}

const deadlineError = () => Object.assign(new Error('the middleware call ran out of its time budget'), { code: DEADLINE });

/** `promise` settled before `deadline`, or a deadline error; what arrives late is handed to `late`. */
function beforeDeadline<T>(promise: Promise<T>, deadline: number, late: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(
      () => {
        expired = true;
        reject(deadlineError());
      },
      Math.max(0, deadline - Date.now()),
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (expired) late(value);
        else resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        if (!expired) reject(error);
      },
    );
  });
}

type Row = RowDataPacket & Record<string, unknown>;

const text = (value: unknown): string | null => (value === null || value === undefined || value === '' ? null : String(value));
const epochToIso = (value: unknown): string | null => {
  const seconds = Number(value);
  return value !== null && Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : null;
};
const epochOf = (iso: string | null): number => Math.floor((iso ? new Date(iso).getTime() : Date.now()) / 1000);
const enabledFlag = (status: string) => (status === 'active' ? 0 : 1);

export class MinistraProvisioner implements Provisioner {
  readonly driver = 'ministra';

  constructor(
    private readonly pool: Pool,
    private readonly serverName: string,
    private readonly bounds: MinistraBounds,
    private readonly log: (message: string, error: unknown) => void = () => {},
  ) {}

  private unavailable(retryAfter?: number): DomainError {
    return new DomainError('unavailable', ACCOUNTS.serverUnavailable(this.serverName), undefined, retryAfter);
  }

  /** Middleware failures as the API answers them: 422 for a taken MAC or login, else 503. */
  private translate(error: unknown): Error {
    if (error instanceof DomainError) return error;
    const e = error as Failure;
    if (e?.code === 'ER_DUP_ENTRY') {
      const message = e.sqlMessage ?? '';
      if (/login/i.test(message)) return fieldError('login', ACCOUNTS.loginTaken);
      return fieldError('mac_address', ACCOUNTS.macTaken);
    }
    if (e?.code && TIMED_OUT.has(e.code)) {
      this.log(`middleware of server ${this.serverName} did not answer within ${this.bounds.budgetMs} ms`, error);
      return this.unavailable();
    }
    if ((e?.code && UNREACHABLE.has(e.code)) || e?.fatal) {
      this.log(`middleware of server ${this.serverName} unreachable`, error);
      return this.unavailable();
    }
    if (!e?.sqlState) {
      // The panel's side: every pooled connection busy and the queue full, or the pool closing.
      this.log(`middleware of server ${this.serverName} not called`, error);
      return this.unavailable();
    }
    this.log(`middleware of server ${this.serverName} refused a statement`, error);
    return new DomainError('unavailable', ACCOUNTS.middlewareRefused(this.serverName));
  }

  /** A pooled connection within the deadline, its session's lock waits bounded by the same budget. */
  private async acquire(deadline: number): Promise<PoolConnection> {
    const conn = await beforeDeadline(this.pool.getConnection(), deadline, (late) => late.release());
    const raw = (conn as unknown as { connection: object }).connection;
    if (!this.bounds.prepared.has(raw)) {
      // So a statement the panel gave up on does not stay queued for the lock on the server.
      const seconds = Math.max(1, Math.ceil(this.bounds.budgetMs / 1000));
      try {
        await new Session(conn, deadline).query('SET SESSION innodb_lock_wait_timeout = ?, lock_wait_timeout = ?', [seconds, seconds]);
      } catch (error) {
        conn.destroy();
        throw error;
      }
      this.bounds.prepared.add(raw);
    }
    return conn;
  }

  /**
   * One bounded call: refused at once while the breaker is open; else a connection, `work` (in a
   * middleware transaction when asked) and its outcome told to the breaker. A connection is handed
   * back only after a clean end or a statement the server refused; anything else destroys it.
   */
  private async call<T>(work: (session: Session) => Promise<T>, options: { transaction?: boolean; probe?: boolean } = {}): Promise<T> {
    const { breaker, budgetMs } = this.bounds;
    const admission: Admission | null = breaker.admit(options.probe);
    if (!admission) throw markUnapplied(this.unavailable(Math.max(1, Math.ceil(breaker.retryInMs() / 1000))));
    const deadline = Date.now() + budgetMs;
    let conn: PoolConnection | null = null;
    let commitSent = false;
    try {
      conn = await this.acquire(deadline);
      const session = new Session(conn, deadline);
      let result: T;
      if (options.transaction) {
        await session.query('START TRANSACTION');
        try {
          result = await work(session);
          commitSent = true;
          await session.query('COMMIT');
        } catch (error) {
          if (verdict(error) !== 'answered') throw error;
          await session.query('ROLLBACK');
          throw error;
        }
      } else {
        result = await work(session);
      }
      conn.release();
      conn = null;
      breaker.succeeded(admission);
      return result;
    } catch (error) {
      const outcome = verdict(error);
      if (conn) {
        if (outcome === 'answered') conn.release();
        else conn.destroy();
      }
      if (outcome === 'failed') breaker.failed(admission);
      else if (outcome === 'answered') breaker.succeeded(admission);
      else breaker.released(admission);
      // Only a COMMIT sent and not answered leaves it unknown whether a write went through.
      const translated = this.translate(error);
      throw options.transaction && !commitSent ? markUnapplied(translated) : translated;
    }
  }

  /** The subscriber rows of these accounts: by the id kept in the panel, else by MAC address. */
  private async locate(conn: Session, accounts: MirroredAccount[], columns: readonly string[]): Promise<Map<number, Row>> {
    const ids = accounts.flatMap((a) => (a.middleware_id ? [a.middleware_id] : []));
    const macs = accounts.map((a) => formatMac(a.mac_address));
    const select = columns.includes('*') ? '*' : ['id', 'mac', ...columns.filter((c) => c !== 'mac')].map((c) => `\`${c}\``).join(', ');
    const [rows] = await conn.query<Row[]>(
      `SELECT ${select} FROM users WHERE ${ids.length ? 'id IN (?) OR ' : ''}mac IN (?) FOR UPDATE`,
      ids.length ? [ids, macs] : [macs],
    );
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const byMac = new Map(rows.map((r) => [String(r.mac).toUpperCase(), r]));
    const found = new Map<number, Row>();
    for (const account of accounts) {
      const row = (account.middleware_id ? byId.get(account.middleware_id) : undefined) ?? byMac.get(formatMac(account.mac_address));
      if (row) found.set(account.id, row);
    }
    return found;
  }

  /** Puts saved rows' columns back (undo of an update). */
  private async restore(conn: Session, rows: Row[], columns: readonly string[]): Promise<void> {
    for (const row of rows) {
      await conn.query(`UPDATE users SET ${columns.map((c) => `\`${c}\` = ?`).join(', ')} WHERE id = ?`, [...columns.map((c) => row[c]), row.id]);
    }
  }

  private undoing(work: (conn: Session) => Promise<void>): Undo {
    return () => this.call(work, { transaction: true });
  }

  /** `work` in one middleware transaction on one connection, within the budget. */
  private inTransaction<T>(work: (conn: Session) => Promise<T>): Promise<T> {
    return this.call(work, { transaction: true });
  }

  async push(accounts: MirroredAccount[]): Promise<{ ids: Map<number, number>; undo: Undo }> {
    if (accounts.length === 0) return { ids: new Map(), undo: async () => {} };
    return this.inTransaction(async (conn) => {
      const existing = await this.locate(conn, accounts, MIRRORED_COLUMNS);
      const ids = new Map<number, number>();
      const inserted: number[] = [];
      for (const account of accounts) {
        const values = [account.login, account.full_name, formatMac(account.mac_address), enabledFlag(account.status), epochOf(account.expiry_date)];
        const row = existing.get(account.id);
        let id: number;
        if (row) {
          id = Number(row.id);
          await conn.query('UPDATE users SET login = ?, fname = ?, mac = ?, status = ?, expire_billing_date = FROM_UNIXTIME(?) WHERE id = ?', [...values, id]);
        } else {
          const [result] = await conn.query<ResultSetHeader>(
            'INSERT INTO users (login, fname, mac, status, expire_billing_date, created) VALUES (?, ?, ?, ?, FROM_UNIXTIME(?), NOW())',
            values,
          );
          id = result.insertId;
          inserted.push(id);
        }
        // Ministra's own hash needs the subscriber id, so it is computed where the id is known. An
        // adopted subscriber's password is not known to the panel and stays as it is.
        if (account.pwd_txt) await conn.query('UPDATE users SET password = MD5(CONCAT(MD5(?), id)) WHERE id = ?', [account.pwd_txt, id]);
        ids.set(account.id, id);
      }
      const before = [...existing.values()];
      const undo = this.undoing(async (c) => {
        await this.restore(c, before, MIRRORED_COLUMNS);
        if (inserted.length) await c.query('DELETE FROM users WHERE id IN (?)', [inserted]);
      });
      return { ids, undo };
    });
  }

  async remove(account: MirroredAccount): Promise<{ undo: Undo }> {
    return this.inTransaction(async (conn) => {
      const row = (await this.locate(conn, [account], ['*'])).get(account.id);
      if (!row) return { undo: async () => {} };
      await conn.query('DELETE FROM users WHERE id = ?', [row.id]);
      return { undo: this.undoing(async (c) => void (await c.query('INSERT INTO users SET ?', [{ ...row }]))) };
    });
  }

  async resetDevice(account: MirroredAccount): Promise<{ undo: Undo }> {
    return this.inTransaction(async (conn) => {
      const row = (await this.locate(conn, [account], DEVICE_COLUMNS)).get(account.id);
      if (!row) return { undo: async () => {} };
      await conn.query(`UPDATE users SET ${DEVICE_COLUMNS.map((c) => `\`${c}\` = ''`).join(', ')} WHERE id = ?`, [row.id]);
      return { undo: this.undoing((c) => this.restore(c, [row], DEVICE_COLUMNS)) };
    });
  }

  async device(account: MirroredAccount): Promise<DeviceState | null> {
    return this.call(async (conn) => {
      const where = account.middleware_id ? 'id = ?' : 'mac = ?';
      const [rows] = await conn.query<Row[]>(
        `SELECT ip, stb_type, serial_number, version, image_version, hw_version, device_id,
                UNIX_TIMESTAMP(last_active) AS last_active, (${ONLINE}) AS online
           FROM users WHERE ${where}`,
        [account.middleware_id ?? formatMac(account.mac_address)],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        online: Number(row.online) === 1,
        last_active: epochToIso(row.last_active),
        ip_address: text(row.ip),
        stb_type: text(row.stb_type),
        serial_number: text(row.serial_number),
        version: text(row.version),
        image_version: text(row.image_version),
        hw_version: text(row.hw_version),
        device_id: text(row.device_id),
      };
    });
  }

  async taken(values: { mac?: string; login?: string }, exceptId: number | null): Promise<{ mac: boolean; login: boolean }> {
    const mac = values.mac ? formatMac(values.mac) : null;
    if (!mac && !values.login) return { mac: false, login: false };
    return this.call(async (conn) => {
      const [rows] = await conn.query<Row[]>('SELECT mac, login FROM users WHERE (mac = ? OR login = ?) AND id <> ?', [mac ?? '', values.login ?? '', exceptId ?? 0]);
      return {
        mac: mac !== null && rows.some((r) => String(r.mac).toUpperCase() === mac),
        login: Boolean(values.login) && rows.some((r) => r.login === values.login),
      };
    });
  }

  async check(): Promise<void> {
    await this.call((conn) => conn.query('SELECT COUNT(*) AS n FROM users'), { probe: true });
  }

  async onlineIds(): Promise<number[]> {
    return this.call(async (conn) => {
      const [rows] = await conn.query<Row[]>(`SELECT id FROM users WHERE ${ONLINE}`);
      return rows.map((r) => Number(r.id));
    });
  }

  async subscribers(): Promise<MiddlewareSubscriber[]> {
    return this.call(async (conn) => {
      const [rows] = await conn.query<Row[]>('SELECT id, login, fname, mac, status, UNIX_TIMESTAMP(expire_billing_date) AS expiry FROM users ORDER BY id');
      return rows.map((r) => ({
        id: Number(r.id),
        login: String(r.login ?? ''),
        full_name: String(r.fname ?? ''),
        mac_address: text(r.mac),
        enabled: Number(r.status) === 0,
        expiry_date: epochToIso(r.expiry),
      }));
    });
  }
}
