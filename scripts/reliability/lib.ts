/**
 * What the reliability scripts share: a fresh database of either kind, API server processes started
 * the way `npm start` starts them (and killed with SIGKILL), and a small HTTP client.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { API_NODE_FLAGS } from '../apiProcess.mjs';

export type Kind = 'sqlite' | 'postgres';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface Args {
  db: Kind;
  [key: string]: string;
}

/** `--db sqlite --seconds 3` -> { db: 'sqlite', seconds: '3' } (db defaults to sqlite). */
export function parseArgs(argv: string[] = process.argv.slice(2)): Args {
  const out: Record<string, string> = { db: 'sqlite' };
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!match) throw new Error(`Unexpected argument ${argv[i]}`);
    out[match[1]] = match[2] ?? argv[++i] ?? '';
  }
  if (out.db !== 'sqlite' && out.db !== 'postgres') throw new Error(`--db must be sqlite or postgres, not ${out.db}`);
  return out as Args;
}

/** An empty database of its own: a SQLite file in a temporary directory, or a new PostgreSQL database. */
export async function freshDatabase(kind: Kind): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-reliability-'));
    return { url: `sqlite:${path.join(dir, 'panel.sqlite')}`, cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `reliability_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    cleanup: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Output so far (for a failure report). */
  output(): string;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (graceful), and wait. */
  stop(): Promise<void>;
}

/** Starts the API as `npm start` does, on its own port, and waits until it answers. */
export async function startServer(url: string, env: Record<string, string> = {}, timeoutMs = 90_000): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [...API_NODE_FLAGS, 'scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_MODE: 'true',
      NODE_ENV: 'development',
      SKIP_PANEL_BUILD: 'true',
      SCHEDULERS: 'false',
      LOG_LEVEL: 'warn',
      CREDIT_OPS_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within ${timeoutMs / 1000} s:\n${output}`);
    }
    await sleep(100);
  }
  return {
    baseUrl,
    child,
    output: () => output,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
      await exited;
    },
  };
}

export interface Answer {
  status: number;
  body: any;
  /** The Idempotency-Key's first answer, replayed (idempotent-replayed: true). */
  replayed: boolean;
}

/** A JSON call; rejects when the connection fails (the server was killed). */
export async function call(baseUrl: string, method: string, url: string, token: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${baseUrl}/api/v1${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* keep the text */
  }
  return { status: res.status, body: parsed, replayed: res.headers.get('idempotent-replayed') === 'true' };
}

/** Signs a demo user in (demo mode: any password). */
export async function signIn(baseUrl: string, username: string): Promise<string> {
  const res = await call(baseUrl, 'POST', '/login', null, { username, password: 'any-password' });
  if (res.status !== 200) throw new Error(`sign-in as ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** A small deterministic generator, so a run can be replayed with its seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A credit move of the demo hierarchy: who calls, on whom, with what body. */
export interface Move {
  key: string;
  actor: 'admin' | 'manager' | 'reseller';
  url: string;
  body: { action: 'renew' | 'recover'; credits: number };
}

export function moveMaker(ids: Record<string, number>, random: () => number, prefix: string): (n: number) => Move {
  // Amounts the demo's allocation options accept (a manager or reseller gives at least 10; admin and a recovery, any from 1).
  const kinds: Array<Omit<Move, 'key'>> = [
    { actor: 'admin', url: `/managers/${ids.manager}/credits`, body: { action: 'renew', credits: 5 } },
    { actor: 'manager', url: `/resellers/${ids.reseller}/credits`, body: { action: 'renew', credits: 12 } },
    { actor: 'reseller', url: `/dealers/${ids.dealer}/credits`, body: { action: 'renew', credits: 10 } },
    { actor: 'manager', url: `/resellers/${ids.reseller}/credits`, body: { action: 'recover', credits: 1 } },
    { actor: 'reseller', url: `/dealers/${ids.dealer}/credits`, body: { action: 'recover', credits: 1 } },
    { actor: 'admin', url: `/managers/${ids.manager}/credits`, body: { action: 'recover', credits: 1 } },
  ];
  return (n) => ({ key: `${prefix}-${n}`, ...kinds[Math.floor(random() * kinds.length)] });
}

/** The transaction numbers an answered move wrote (a refusal writes none). */
export const numbersOf = (answer: Answer): string[] =>
  answer.status === 200 ? ((answer.body?.data?.transactions ?? []) as Array<{ transaction_number: string }>).map((t) => t.transaction_number) : [];

export function report(name: string, ok: boolean, figures: Record<string, unknown>, problems: string[] = []): void {
  console.log(`${name}: ${ok ? 'PASS' : 'FAIL'} ${JSON.stringify(figures)}`);
  for (const p of problems) console.log(`  - ${p}`);
  if (!ok) process.exitCode = 1;
}
