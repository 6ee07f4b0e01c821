/**
 * The connection check of a server, run on demand (POST /servers/{id}/check) and for every active
 * server by a background job. A server with a middleware driver is asked a real query (its
 * subscribers are counted), and the online state of its accounts is refreshed from the boxes'
 * keep-alives; a `local` server only has its database port tried (a TCP connection).
 */
import net from 'node:net';
import type { Kysely } from 'kysely';
import type { Database, ServerRow } from '../db/schema';
import { nowIso } from '../db/values';
import { Provisioners, SERVER_FIELDS } from './index';

export const CHECK_TIMEOUT_MS = 3000;
export const CHECK_EVERY_MS = 5 * 60_000;
const PARALLEL_CHECKS = 8;

/** True when a TCP connection to host:port opens within the timeout. */
export function probeTcp(host: string, port: number, timeoutMs = CHECK_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host.replace(/^\[(.*)\]$/, '$1'), port });
    let settled = false;
    const done = (online: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(online);
    };
    // One deadline for the name lookup and the connection together.
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

type Checkable = Pick<ServerRow, (typeof SERVER_FIELDS)[number]>;

/** Marks the server's accounts online whose box the middleware saw within its watchdog window. */
async function syncOnlineState(db: Kysely<Database>, serverId: number, onlineIds: number[]): Promise<void> {
  const online = new Set(onlineIds);
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'middleware_id', 'state'])
    .where('server_id', '=', serverId)
    .where('deleted_at', 'is', null)
    .where('middleware_id', 'is not', null)
    .execute();
  const flip = (state: 'online' | 'offline') =>
    accounts.filter((a) => (online.has(a.middleware_id!) ? 'online' : 'offline') === state && a.state !== state).map((a) => a.id);
  const now = nowIso();
  for (const state of ['online', 'offline'] as const) {
    const ids = flip(state);
    for (let i = 0; i < ids.length; i += 500) {
      await db
        .updateTable('accounts')
        .set({ state, connection_status: state, ...(state === 'online' ? { last_active: now } : {}) })
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
    }
  }
}

async function probe(db: Kysely<Database>, server: Checkable, provisioners: Provisioners, timeoutMs: number): Promise<boolean> {
  if (server.driver === 'local') {
    const port = Number(server.db_port);
    return Number.isInteger(port) && port >= 1 && port <= 65535 && probeTcp(server.db_host, port, timeoutMs);
  }
  try {
    const provisioner = await provisioners.forRow(server);
    await provisioner.check();
    await syncOnlineState(db, server.id, await provisioner.onlineIds());
    return true;
  } catch {
    return false;
  }
}

/** Checks one server and records connection_status and last_checked_at; returns the new status. */
export async function checkServer(
  db: Kysely<Database>,
  server: Checkable,
  provisioners: Provisioners = Provisioners.of(db),
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<'online' | 'offline'> {
  const status = (await probe(db, server, provisioners, timeoutMs)) ? 'online' : 'offline';
  await db.updateTable('servers').set({ connection_status: status, last_checked_at: nowIso() }).where('id', '=', server.id).execute();
  return status;
}

/** Checks every active server, a few at a time; returns how many were checked. */
export async function checkActiveServers(db: Kysely<Database>, timeoutMs = CHECK_TIMEOUT_MS): Promise<number> {
  const servers = await db.selectFrom('servers').select(SERVER_FIELDS).where('status', '=', 'active').execute();
  const provisioners = Provisioners.of(db);
  let next = 0;
  const worker = async () => {
    while (next < servers.length) await checkServer(db, servers[next++], provisioners, timeoutMs);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHECKS, servers.length) }, worker));
  return servers.length;
}
