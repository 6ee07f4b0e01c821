/**
 * The provisioning driver of each server, with one small MySQL pool per `ministra` server. The
 * password is decrypted only to open the pool and kept nowhere else; a changed server row (host,
 * credentials, driver) replaces its pool.
 *
 * A write to the middleware happens outside the panel's transactions, journaled so that the panel's
 * change and the middleware's are one outcome (see `outcome` and ./journal.ts). An account on a
 * `local` server has only the panel's tables.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Pool } from 'mysql2/promise';
import { ACCOUNTS } from '../../src/contract';
import { type Config, loadConfig } from '../config';
import type { Database, ServerRow } from '../db/schema';
import { ApiError } from '../http/errors';
import { decryptWith, secretKey } from '../servers/secret';
import { type JournalKind, MiddlewareJournal, Outcome, SETTLE_EVERY_MS, requestKey } from './journal';
import { MinistraProvisioner } from './ministra';
import { type Provisioner, localProvisioner } from './types';

export type { MirroredAccount, Provisioner, Undo } from './types';
export { localProvisioner } from './types';

/** A connection attempt gives up after this long: a write to a dead server fails fast. */
export const CONNECT_TIMEOUT_MS = 3000;
const POOL_SIZE = 4;

/** Where driver failures are told (the API's logger; the console for the CLI). */
export interface ProvisioningLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

type ServerFields = Pick<ServerRow, 'id' | 'name' | 'driver' | 'db_host' | 'db_port' | 'db_username' | 'db_name' | 'db_password_enc'>;
type KeyConfig = Pick<Config, 'appKey' | 'production'>;

const signature = (s: ServerFields) => JSON.stringify([s.driver, s.db_host, s.db_port, s.db_username, s.db_name, s.db_password_enc]);

export class Provisioners {
  private static readonly registry = new WeakMap<Kysely<Database>, Provisioners>();
  private readonly pools = new Map<number, { signature: string; pool: Pool }>();
  private journalOf: MiddlewareJournal | undefined;

  private constructor(
    private readonly db: Kysely<Database>,
    private readonly config: KeyConfig,
    private readonly logger?: ProvisioningLogger,
  ) {}

  /** The registry of a database's servers; the API attaches it with its config and logger. */
  static attach(db: Kysely<Database>, config: KeyConfig, logger?: ProvisioningLogger): Provisioners {
    const provisioners = new Provisioners(db, config, logger);
    Provisioners.registry.set(db, provisioners);
    return provisioners;
  }

  /** The attached registry, or one on the environment's config (the CLI, a job run on its own). */
  static of(db: Kysely<Database>): Provisioners {
    return Provisioners.registry.get(db) ?? Provisioners.attach(db, loadConfig());
  }

  /**
   * The driver of a server row. `q` is what the panel's database is read through: inside a
   * transaction, the transaction (SQLite has one connection, which the transaction holds).
   */
  async forRow(server: ServerFields, q: Kysely<Database> = this.db): Promise<Provisioner> {
    if (server.driver !== 'ministra') return localProvisioner;
    const log = (message: string, error: unknown) => this.logger?.warn({ err: error, server_id: server.id }, message);
    return new MinistraProvisioner(await this.pool(server, q), server.name, log);
  }

  /** The driver of a server by id; an account without a server has only the panel's tables. */
  async forServer(serverId: number | null, q: Kysely<Database> = this.db): Promise<Provisioner> {
    if (serverId === null) return localProvisioner;
    const server = await q
      .selectFrom('servers')
      .select(['id', 'name', 'driver', 'db_host', 'db_port', 'db_username', 'db_name', 'db_password_enc'])
      .where('id', '=', serverId)
      .executeTakeFirst();
    return server ? this.forRow(server, q) : localProvisioner;
  }

  private async pool(server: ServerFields, q: Kysely<Database>): Promise<Pool> {
    const sig = signature(server);
    const cached = this.pools.get(server.id);
    if (cached?.signature === sig) return cached.pool;
    if (cached) void cached.pool.end().catch(() => {});
    let password: string | undefined;
    if (server.db_password_enc) {
      const key = await secretKey(q, this.config);
      try {
        if (!key) throw new Error('APP_KEY is not set');
        password = decryptWith(key, server.db_password_enc);
      } catch (error) {
        this.logger?.warn({ err: error, server_id: server.id }, 'stored server password cannot be decrypted');
        throw new ApiError(503, ACCOUNTS.serverUnavailable(server.name));
      }
    }
    // Loaded with the first Ministra server: a panel without one keeps no MySQL driver in memory.
    const { default: mysql } = await import('mysql2/promise');
    const pool = mysql.createPool({
      host: server.db_host.replace(/^\[(.*)\]$/, '$1'),
      port: Number(server.db_port),
      user: server.db_username,
      password,
      database: server.db_name,
      connectionLimit: POOL_SIZE,
      maxIdle: 1,
      idleTimeout: 60_000,
      connectTimeout: CONNECT_TIMEOUT_MS,
      dateStrings: true,
      supportBigNumbers: true,
      charset: 'utf8mb4',
    });
    this.pools.set(server.id, { signature: sig, pool });
    return pool;
  }

  /** The middleware journal of this database (./journal.ts). */
  get journal(): MiddlewareJournal {
    this.journalOf ??= new MiddlewareJournal(this.db, this);
    return this.journalOf;
  }

  /**
   * A panel change that may write the middleware, as one outcome (Outcome.transact). With the
   * request's Idempotency-Key, what a first attempt left pending is settled first.
   */
  async outcome(kind: JournalKind, actorId: number | null, request?: FastifyRequest): Promise<Outcome> {
    const key = request ? requestKey(request) : null;
    if (key && actorId !== null) await this.journal.settleKey(actorId, key);
    return new Outcome(this.db, this.journal, kind, actorId, key);
  }

  /**
   * Starts the journal's settle worker: a pass now (after a crash, the rows the dead process left),
   * then one every SETTLE_EVERY_MS. Each row is taken under its own lease, so the API processes
   * sharing one PostgreSQL never settle a row twice. Returns its stop.
   */
  startSettling(): () => void {
    let running = false;
    const pass = () => {
      if (running) return;
      running = true;
      this.journal
        .settlePending()
        .then(({ failed }) => failed && this.logger?.warn({ failed }, 'middleware changes could not be compensated yet; retried with backoff'))
        .catch((error) => this.logger?.error({ err: error }, 'the middleware journal could not be read'))
        .finally(() => (running = false));
    };
    pass();
    const timer = setInterval(pass, SETTLE_EVERY_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Closes every pool (the API's shutdown, the end of a CLI command). */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map(({ pool }) => pool.end().catch(() => {})));
  }
}
