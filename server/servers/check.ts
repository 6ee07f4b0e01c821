/**
 * The connection check of a server: a TCP connection attempt to db_host:db_port with a short timeout.
 * Run on demand (POST /servers/{id}/check) and for every active server by a background job.
 */
import net from 'node:net';
import type { Kysely } from 'kysely';
import type { Database, ServerRow } from '../db/schema';
import { nowIso } from '../db/values';
import type { Job } from '../jobs/scheduler';

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

type Checkable = Pick<ServerRow, 'id' | 'db_host' | 'db_port'>;

/** Checks one server and records connection_status and last_checked_at; returns the new status. */
export async function checkServer(db: Kysely<Database>, server: Checkable, timeoutMs = CHECK_TIMEOUT_MS): Promise<'online' | 'offline'> {
  const port = Number(server.db_port);
  const online = Number.isInteger(port) && port >= 1 && port <= 65535 && (await probeTcp(server.db_host, port, timeoutMs));
  const status = online ? 'online' : 'offline';
  const now = nowIso();
  await db.updateTable('servers').set({ connection_status: status, last_checked_at: now }).where('id', '=', server.id).execute();
  return status;
}

/** Checks every active server, a few at a time; returns how many were checked. */
export async function checkActiveServers(db: Kysely<Database>, timeoutMs = CHECK_TIMEOUT_MS): Promise<number> {
  const servers = await db.selectFrom('servers').select(['id', 'db_host', 'db_port']).where('status', '=', 'active').execute();
  let next = 0;
  const worker = async () => {
    while (next < servers.length) await checkServer(db, servers[next++], timeoutMs);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHECKS, servers.length) }, worker));
  return servers.length;
}

export const serverChecksJob: Job = {
  name: 'check-servers',
  everyMs: CHECK_EVERY_MS,
  run: async (db) => void (await checkActiveServers(db)),
};
