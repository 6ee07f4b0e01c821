/**
 * A Ministra middleware of a test's own on the MariaDB at 127.0.0.1:3306 (as tests/server/ministra.test.ts
 * builds it): a database holding Ministra 5.x's `users` table. Tests that need one skip, with the
 * reason printed, when no MariaDB answers; REQUIRE_MARIADB=true makes a missing one fail instead.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import mysql, { type Connection, type RowDataPacket } from 'mysql2/promise';

export const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

export async function mariadbAdmin(what: string): Promise<Connection | null> {
  try {
    return await mysql.createConnection({ ...MARIADB, connectTimeout: 2000, multipleStatements: true });
  } catch (error) {
    if (process.env.REQUIRE_MARIADB === 'true') throw new Error(`MariaDB is required but unreachable at 127.0.0.1:3306: ${String(error)}`);
    console.warn(`Skipping ${what}: no MariaDB at 127.0.0.1:3306 (${(error as Error).message})`);
    return null;
  }
}

/** Ministra 5.x's subscriber table, as far as the panel reads and writes it. */
export const USERS_TABLE = `
CREATE TABLE users (
  id int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name varchar(64) NOT NULL DEFAULT '', sname varchar(64) NOT NULL DEFAULT '', pass varchar(64) NOT NULL DEFAULT '',
  parent_password varchar(64) NOT NULL DEFAULT '0000', mac varchar(64) NOT NULL DEFAULT '', ip varchar(128) NOT NULL DEFAULT '',
  ls varchar(64) NOT NULL DEFAULT '', version text, lang varchar(32) NOT NULL DEFAULT '', locale varchar(32) NOT NULL DEFAULT '',
  status tinyint NOT NULL DEFAULT 0, hd tinyint NOT NULL DEFAULT 0, storage_name varchar(255) NOT NULL DEFAULT '',
  image_version varchar(64) NOT NULL DEFAULT '', last_change_status timestamp NULL DEFAULT NULL, last_start timestamp NULL DEFAULT NULL,
  last_active timestamp NULL DEFAULT NULL, keep_alive timestamp NULL DEFAULT NULL, fname varchar(255) NOT NULL DEFAULT '',
  login varchar(64) NOT NULL DEFAULT '', password varchar(64) NOT NULL DEFAULT '', stb_type varchar(64) NOT NULL DEFAULT '',
  serial_number varchar(64) NOT NULL DEFAULT '', tariff_plan_id int NOT NULL DEFAULT 0, comment text, created timestamp NULL DEFAULT NULL,
  access_token varchar(64) NOT NULL DEFAULT '', device_id varchar(255) NOT NULL DEFAULT '', device_id2 varchar(255) NOT NULL DEFAULT '',
  verified tinyint NOT NULL DEFAULT 0, hw_version varchar(64) NOT NULL DEFAULT '', theme varchar(64) NOT NULL DEFAULT '',
  expire_billing_date datetime NOT NULL DEFAULT '0000-00-00 00:00:00', reseller_id int DEFAULT NULL,
  account_balance int NOT NULL DEFAULT 0, client_type varchar(32) NOT NULL DEFAULT 'STB', hw_version_2 varchar(64) NOT NULL DEFAULT '',
  blocked tinyint NOT NULL DEFAULT 0,
  UNIQUE KEY mac (mac)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;

export type Subscriber = RowDataPacket & Record<string, any>;

/** A new middleware database with its `users` table; `drop` removes it. */
export async function middlewareDatabase(admin: Connection): Promise<{ name: string; conn: Connection; drop: () => Promise<void> }> {
  const name = `ministra_${randomBytes(5).toString('hex')}`;
  await admin.query(`CREATE DATABASE \`${name}\``);
  const conn = await mysql.createConnection({ ...MARIADB, database: name });
  await conn.query(USERS_TABLE);
  return {
    name,
    conn,
    drop: async () => {
      await conn.end().catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    },
  };
}

/** A subscriber by login, with its expiry as epoch seconds. */
export async function subscriberByLogin(conn: Connection, login: string): Promise<Subscriber | undefined> {
  const [rows] = await conn.query<Subscriber[]>('SELECT *, UNIX_TIMESTAMP(expire_billing_date) AS expiry_epoch FROM users WHERE login = ?', [login]);
  return rows[0];
}

export const epochOf = (iso: string | null) => (iso ? Math.floor(new Date(iso).getTime() / 1000) : null);

/**
 * A loopback port whose listener accepts connections and, while `silent`, never writes a byte (a
 * host that hangs); otherwise it relays to the MariaDB (the same server, healthy again).
 */
export async function hangingHost() {
  const sockets = new Set<net.Socket>();
  const state = { silent: true };
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (state.silent) return;
    const upstream = net.connect(MARIADB.port, MARIADB.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    state,
    /** Connections it has accepted so far: a call refused without reaching the host adds none. */
    get accepted() {
      return accepted;
    },
    /** Silent from now on, the connections it relays cut. */
    hang: () => {
      state.silent = true;
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
