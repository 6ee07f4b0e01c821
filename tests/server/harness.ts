/**
 * The API under test over real HTTP: a fresh database per suite (a temporary SQLite file, or a
 * PostgreSQL schema of its own that is dropped afterwards), migrated and seeded with the demo data.
 *
 *   describeEachDatabase('tickets', (ctx) => { it('...', async () => { await ctx.as('dealer').get(...) }) })
 *
 * PostgreSQL runs when TEST_DATABASE_URL is set, or is found on 127.0.0.1:5432; CI sets
 * REQUIRE_POSTGRES=true so a missing server fails instead of skipping.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '../../server/app';
import { type Config, loadConfig } from '../../server/config';
import { type Db, connect } from '../../server/db/connect';
import { migrateToLatest } from '../../server/db/migrate';
import { seedDemo } from '../../server/seed/demo';

export type DatabaseKind = 'sqlite' | 'postgres';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

async function postgresUrl(): Promise<string | null> {
  const url = process.env.TEST_DATABASE_URL || DEFAULT_PG;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return url;
  } catch (error) {
    if (process.env.REQUIRE_POSTGRES === 'true') throw new Error(`PostgreSQL is required but unreachable at ${url}: ${String(error)}`);
    console.warn(`Skipping the PostgreSQL layer: no server at ${url} (${(error as Error).message})`);
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}
export const pgUrl = await postgresUrl();

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Client {
  token: string | null;
  request<T = any>(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Response<T>>;
  get<T = any>(url: string): Promise<Response<T>>;
  post<T = any>(url: string, body?: unknown, headers?: Record<string, string>): Promise<Response<T>>;
  put<T = any>(url: string, body?: unknown): Promise<Response<T>>;
  patch<T = any>(url: string, body?: unknown): Promise<Response<T>>;
  delete<T = any>(url: string): Promise<Response<T>>;
}

export interface TestContext {
  kind: DatabaseKind;
  app: FastifyInstance;
  db: Db;
  baseUrl: string;
  config: Config;
  /** A client without a token. */
  anonymous: Client;
  /** A signed-in client for a seeded username (cached per suite). */
  as(username: string): Promise<Client>;
  client(token: string | null): Client;
}

export function makeClient(baseUrl: string, token: string | null): Client {
  const request = async <T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`;
    if (body !== undefined) {
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(`${baseUrl}${url.startsWith('/api/') || url.startsWith('/%') ? url : `/api/v1${url}`}`, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  };
  return {
    token,
    request,
    get: (url) => request('GET', url),
    post: (url, body, headers) => request('POST', url, body ?? {}, headers),
    put: (url, body) => request('PUT', url, body ?? {}),
    patch: (url, body) => request('PATCH', url, body ?? {}),
    delete: (url) => request('DELETE', url),
  };
}

/** A loopback port nothing listens on: bound, read, released. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Listens on a free loopback port; answers the base URL. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** `panelDir`: a built panel to serve beside the API (none by default). */
export async function startTestServer(kind: DatabaseKind, overrides: Partial<Config> = {}, panelDir: string | null = null) {
  let db: Db;
  let cleanup: () => Promise<void>;
  if (kind === 'postgres') {
    const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl! });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    db = connect(pgUrl!, { schema, poolSize: 10 });
    cleanup = async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-test-'));
    db = connect(`sqlite:${path.join(dir, 'test.sqlite')}`);
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  await migrateToLatest(db.kysely);
  await seedDemo(db.kysely);
  const config: Config = { ...loadConfig({ NODE_ENV: 'test', DEMO_MODE: 'true' }), schedulers: false, ...overrides };
  const app = await buildApp({ db, config, panelDir });
  const baseUrl = await listenOnLoopback(app);
  const ctx: TestContext = { kind, app, db, baseUrl, config, ...clientsOf(baseUrl) };
  const stop = async () => {
    await app.close();
    await db.close();
    await cleanup();
  };
  return { ctx, stop };
}

/** The clients of an API at `baseUrl`: anonymous, by token, and signed in by username (kept per name). */
export function clientsOf(baseUrl: string): Pick<TestContext, 'anonymous' | 'client' | 'as'> {
  const sessions = new Map<string, Client>();
  return {
    anonymous: makeClient(baseUrl, null),
    client: (token) => makeClient(baseUrl, token),
    async as(username) {
      const cached = sessions.get(username);
      if (cached) return cached;
      const res = await makeClient(baseUrl, null).post('/login', { username, password: 'password123' });
      if (res.status !== 200) throw new Error(`login as ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
      const client = makeClient(baseUrl, res.body.token);
      sessions.set(username, client);
      return client;
    },
  };
}

/** Runs the suite once per reachable database; `ctx` is filled in before the tests run. */
export function describeEachDatabase(name: string, suite: (ctx: TestContext) => void, overrides: Partial<Config> = {}) {
  const kinds: DatabaseKind[] = pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const kind of kinds) {
    describe(`${name} [${kind}]`, () => {
      const ctx = {} as TestContext;
      let stop: () => Promise<void> = async () => {};
      beforeAll(async () => {
        const started = await startTestServer(kind, overrides);
        Object.assign(ctx, started.ctx);
        stop = started.stop;
      });
      afterAll(async () => stop());
      suite(ctx);
    });
  }
}

/** Ids of seeded users by username. */
export async function userId(ctx: TestContext, username: string): Promise<number> {
  const row = await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return row.id;
}
