import net from 'node:net';
import { DEFAULT_DATABASE_URL, DEFAULT_SQLITE_READERS } from './db/connect';

/**
 * Which peers may tell the client address through X-Forwarded-For: none (false), the nearest N hops
 * (a count), or the peers whose address is in a list. The client address is then the right-most
 * entry that a trusted peer did not add; entries to its left were written by the client.
 */
export type TrustProxy = false | number | string[];

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** The connection migrations run over: the tables' owner (PostgreSQL); DATABASE_URL when unset. */
  migrationDatabaseUrl: string;
  /** SQLite: threads that run reads outside transactions, off the event loop (0: none). */
  sqliteReaders: number;
  production: boolean;
  /** Demo mode seeds the demo hierarchy and lets the demo users sign in with any password. */
  demoMode: boolean;
  tokenTtlHours: number;
  /** Key for secrets kept encrypted at rest (server database passwords). */
  appKey: string | undefined;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  /** Run the background jobs (auto-renew, server checks) in this process. */
  schedulers: boolean;
  logLevel: string;
  /** Credit operations (add, recover) one user may make per minute. */
  creditOpsPerMinute: number;
  /** A server's middleware is refused at once after this many consecutive failed calls... */
  middlewareBreakerFailures: number;
  /** ...for this long; then one trial call decides. */
  middlewareBreakerCooldownMs: number;
  trustProxy: TrustProxy;
  /** Rows a CSV export reads per statement (the memory it holds at once; see DEFAULT_EXPORT_BATCH_ROWS). */
  exportBatchRows: number;
}

/**
 * Rows a CSV export reads per statement. On SQLite a batch comes from a reader thread as one message,
 * and V8 puts a message of over 100 KB (about 150 accounts, at some 640 B each) straight into the old
 * generation: batches of 1,000 piled up to 100 MB there between full collections during a
 * million-row export. A hundred rows stay young and die at the next scavenge, at no cost in time
 * now that each batch is one index range (docs/performance.md, "CSV exports").
 */
export const DEFAULT_EXPORT_BATCH_ROWS = 100;

const flag = (value: string | undefined): boolean | undefined =>
  value === undefined || value === '' ? undefined : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  // Demo mode when no DATABASE_URL is set outside production; DEMO_MODE overrides, never in production.
  const demoMode = !production && (flag(env.DEMO_MODE) ?? !env.DATABASE_URL);
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    migrationDatabaseUrl: env.MIGRATION_DATABASE_URL || env.DATABASE_URL || DEFAULT_DATABASE_URL,
    sqliteReaders: parseSqliteReaders(env.SQLITE_READERS),
    production,
    demoMode,
    tokenTtlHours: Number(env.TOKEN_TTL_HOURS ?? 24 * 7),
    appKey: env.APP_KEY || undefined,
    adminUsername: env.ADMIN_USERNAME || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    schedulers: flag(env.SCHEDULERS) ?? true,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    creditOpsPerMinute: Number(env.CREDIT_OPS_PER_MINUTE ?? 30),
    middlewareBreakerFailures: wholeNumber(env, 'MIDDLEWARE_BREAKER_FAILURES', 3),
    middlewareBreakerCooldownMs: wholeNumber(env, 'MIDDLEWARE_BREAKER_COOLDOWN_SECONDS', 30) * 1000,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    exportBatchRows: wholeNumber(env, 'EXPORT_BATCH_ROWS', DEFAULT_EXPORT_BATCH_ROWS),
  };
}

/** A positive whole number from the environment; anything else stops the start-up. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim() ?? '';
  if (text === '') return fallback;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) throw new Error(`${name}=${text}: expected a positive whole number`);
  return Number(text);
}

/** SQLITE_READERS: a whole number of reader threads, 0 to 16; anything else stops the start-up. */
export function parseSqliteReaders(value: string | undefined): number {
  const text = value?.trim() ?? '';
  if (text === '') return DEFAULT_SQLITE_READERS;
  if (!/^\d+$/.test(text) || Number(text) > 16) throw new Error(`SQLITE_READERS=${text}: expected a whole number of reader threads from 0 to 16`);
  return Number(text);
}

/** proxy-addr's names for address ranges (127.0.0.1/8 and ::1; 169.254/16 and fe80::/10; private ranges). */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset, 'false' or '0' trusts no proxy; a whole number trusts that many hops in front of
 * the server ('true' is one hop, its former meaning); otherwise a comma-separated list of proxy
 * addresses or CIDR ranges (or loopback, linklocal, uniquelocal). Anything else stops the start-up:
 * a mistyped value must not silently trust every forwarded address.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text.toLowerCase() === 'false') return false;
  if (text.toLowerCase() === 'true') return 1;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32) throw new Error(`TRUST_PROXY=${text}: a hop count above 32 is not a real proxy chain`);
    return hops === 0 ? false : hops;
  }
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const invalid = entries.filter((e) => !isAddressOrRange(e));
  if (entries.length === 0 || invalid.length > 0) {
    throw new Error(`TRUST_PROXY=${text}: expected false, a hop count or a comma-separated list of proxy addresses or CIDR ranges (not: ${invalid.join(', ')})`);
  }
  return entries;
}
