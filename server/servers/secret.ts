/**
 * Secrets at rest (server database passwords, TOTP secrets): AES-256-GCM with a key derived
 * (HKDF-SHA256) from APP_KEY; each kind bound to its own additional data, so one cannot pass for another.
 * Without APP_KEY outside production, a random key is generated once and kept beside the data:
 * in `app.key` next to the SQLite file, or in the settings table (key 'app_key') on PostgreSQL.
 * In production without APP_KEY nothing can be stored (the caller answers 422).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Config } from '../config';
import { isPostgres } from '../db/dialect';
import type { Database } from '../db/schema';
import { nowIso, parseJson } from '../db/values';

type KeyConfig = Pick<Config, 'appKey' | 'production'>;

const FORMAT = 'v1';
const AAD = Buffer.from('server-db-password');
export const GENERATED_KEY_FILE = 'app.key';
export const GENERATED_KEY_SETTING = 'app_key';

function deriveKey(secret: string): Buffer {
  const material = secret.startsWith('base64:') ? Buffer.from(secret.slice(7), 'base64') : Buffer.from(secret, 'utf8');
  return Buffer.from(hkdfSync('sha256', material, 'credit-panel', 'server-db-password', 32));
}

/** The SQLite database file, or null for PostgreSQL and in-memory databases. */
async function sqliteFile(db: Kysely<Database>): Promise<string | null> {
  if (isPostgres(db)) return null;
  const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  const main = rows.find((r) => r.name === 'main');
  return main?.file ? main.file : null;
}

async function generatedSecret(db: Kysely<Database>): Promise<string> {
  const fresh = `base64:${randomBytes(32).toString('base64')}`;
  const file = await sqliteFile(db);
  if (file) {
    const keyFile = path.join(path.dirname(file), GENERATED_KEY_FILE);
    try {
      fs.writeFileSync(keyFile, `${fresh}\n`, { flag: 'wx', mode: 0o600 });
      return fresh;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return fs.readFileSync(keyFile, 'utf8').trim();
    }
  }
  // First writer wins, so concurrent processes agree on one key.
  await db
    .insertInto('settings')
    .values({ key: GENERATED_KEY_SETTING, value: JSON.stringify(fresh), updated_at: nowIso() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', GENERATED_KEY_SETTING).executeTakeFirstOrThrow();
  return parseJson<string>(row.value, fresh);
}

const keys = new WeakMap<Kysely<Database>, Map<string, Promise<Buffer | null>>>();

/** The encryption key, or null when none may be used (production without APP_KEY). */
export function secretKey(db: Kysely<Database>, config: KeyConfig): Promise<Buffer | null> {
  let byConfig = keys.get(db);
  if (!byConfig) keys.set(db, (byConfig = new Map()));
  const id = `${config.production ? 'prod' : 'dev'}:${config.appKey ?? ''}`;
  let key = byConfig.get(id);
  if (!key) {
    key = config.appKey ? Promise.resolve(deriveKey(config.appKey)) : config.production ? Promise.resolve(null) : generatedSecret(db).then(deriveKey);
    key.catch(() => byConfig!.delete(id));
    byConfig.set(id, key);
  }
  return key;
}

export function encryptWith(key: Buffer, plain: string, aad: Buffer = AAD): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

/** Throws when the text was not encrypted with this key (wrong APP_KEY or tampered). */
export function decryptWith(key: Buffer, stored: string, aad: Buffer = AAD): string {
  const [format, iv, tag, body] = stored.split(':');
  if (format !== FORMAT || !iv || !tag || body === undefined) throw new Error('Unrecognised encrypted value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAAD(aad);
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

/**
 * A server's database password in clear, for code that connects to the middleware database.
 * Null when none is stored; throws when it cannot be decrypted with the current key.
 */
export async function serverPassword(db: Kysely<Database>, config: KeyConfig, serverId: number): Promise<string | null> {
  const row = await db.selectFrom('servers').select('db_password_enc').where('id', '=', serverId).executeTakeFirst();
  if (!row?.db_password_enc) return null;
  const key = await secretKey(db, config);
  if (!key) throw new Error('APP_KEY is not set: stored server passwords cannot be decrypted');
  return decryptWith(key, row.db_password_enc);
}
