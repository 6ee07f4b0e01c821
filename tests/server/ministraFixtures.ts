/**
 * What the Ministra suites share: the MariaDB on 127.0.0.1:3306 (null, with the reason printed, when
 * none answers; REQUIRE_MARIADB=true fails instead) and Ministra 5.x's subscriber table.
 */
import mysql, { type Connection } from 'mysql2/promise';

export const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

export async function mariadb(what: string): Promise<Connection | null> {
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
