/**
 * Personal API tokens (docs/security.md#api-tokens): `cpt_<public id>_<secret>`, given to its user
 * once and stored only as a SHA-256 hash beside the public prefix the list shows. A token opens a
 * session as its user (the same active, branch and role checks as a sign-in token), narrowed by its
 * scopes and allowed addresses (server/http/apiTokenGuard.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { API_TOKENS, API_TOKENS_PER_USER, API_TOKEN_PREFIX, type ApiToken, type ApiTokenScope, API_TOKEN_SCOPES } from '../../src/contract';
import { isPostgres } from '../db/dialect';
import { prepared } from '../db/prepared';
import type { ApiTokensTable, Database } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso, parseJson } from '../db/values';
import { blockedByAncestor } from '../hierarchy/branch';
import { conflict, notFound } from '../errors';
import { SYSTEM_SETTINGS_KEY, systemSettingsOf } from '../settings';
import type { ApiTokenUse } from '../http/sessionShape';
import { type Session, hashToken, resolveToken } from './tokens';

/** The session a token opens: what the guard takes (server/http/guard.ts). */
export interface ApiTokenSession extends Session {
  apiToken: ApiTokenUse;
}

export const isApiToken = (token: string) => token.startsWith(API_TOKEN_PREFIX);

/** `read` is in every token's scopes; the rest in the contract's order. */
export const normaliseScopes = (scopes: readonly string[]): ApiTokenScope[] => API_TOKEN_SCOPES.filter((s) => s === 'read' || scopes.includes(s));

const scopesOf = (text: string): ApiTokenScope[] => normaliseScopes(text.split(','));

const toApi = (
  row: Pick<ApiTokensTable, 'name' | 'prefix' | 'scopes' | 'allowed_addresses' | 'created_at' | 'expires_at' | 'last_used_at' | 'last_used_ip'> & { id: number },
): ApiToken => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: scopesOf(row.scopes),
  allowed_addresses: parseJson<string[]>(row.allowed_addresses, []),
  created_at: row.created_at,
  expires_at: row.expires_at,
  last_used_at: row.last_used_at,
  last_used_ip: row.last_used_ip,
});

export async function listApiTokens(db: Kysely<Database>, userId: number): Promise<ApiToken[]> {
  const rows = await db.selectFrom('api_tokens').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toApi);
}

export interface NewApiToken {
  name: string;
  scopes: readonly string[];
  expiresInDays: number;
  allowedAddresses: readonly string[];
}

/** Creates a token; answers it (the only time it exists in clear) and its entry. */
export async function createApiToken(db: Kysely<Database>, userId: number, input: NewApiToken): Promise<{ token: string; entry: ApiToken }> {
  const publicId = randomBytes(6).toString('hex');
  const prefix = `${API_TOKEN_PREFIX}${publicId}`;
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  const now = new Date();
  return inTransaction(db, async (trx) => {
    // The user's row is the lock two creates take turns on, so neither passes the limit (PostgreSQL;
    // SQLite runs one write transaction at a time).
    let owner = trx.selectFrom('users').select('id').where('id', '=', userId);
    if (isPostgres(trx)) owner = owner.forUpdate();
    await owner.executeTakeFirstOrThrow();
    const live = await trx
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirstOrThrow();
    if (Number(live.n) >= API_TOKENS_PER_USER) throw conflict(API_TOKENS.tooMany);
    const row = await trx
      .insertInto('api_tokens')
      .values({
        user_id: userId,
        name: input.name,
        prefix,
        token_hash: hashToken(token),
        scopes: normaliseScopes(input.scopes).join(','),
        allowed_addresses: input.allowedAddresses.length > 0 ? JSON.stringify(input.allowedAddresses) : null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + input.expiresInDays * 86_400_000).toISOString(),
        last_used_at: null,
        last_used_ip: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { token, entry: toApi(row) };
  });
}

/** Deletes one of the user's own tokens: a request with it is refused from now on. Another's: 404. */
export async function revokeApiToken(db: Kysely<Database>, userId: number, id: number): Promise<ApiToken> {
  const row = await db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
  if (!row) throw notFound();
  return toApi(row);
}

/** The user, the settings and the branch's state with the token, as the sign-in session reads them (auth/tokens.ts). */
const apiSessionOf = prepared((db, tokenHash: string) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .selectAll('users')
    .select((eb) => [
      'api_tokens.id as api_token_id',
      'api_tokens.name as api_token_name',
      'api_tokens.prefix as api_token_prefix',
      'api_tokens.scopes as api_token_scopes',
      'api_tokens.allowed_addresses as api_token_addresses',
      'api_tokens.expires_at as api_token_expires_at',
      'api_tokens.last_used_at as api_token_last_used_at',
      'api_tokens.last_used_ip as api_token_last_used_ip',
      eb.selectFrom('settings').select('value').where('key', '=', SYSTEM_SETTINGS_KEY).as('system_settings'),
      blockedByAncestor(db, 'users.path', 'users.id')(eb).as('branch_blocked'),
    ])
    .where('api_tokens.token_hash', '=', tokenHash),
);

/** The session an API token opens, or null (unknown, revoked, expired). */
export async function resolveApiToken(db: Kysely<Database>, token: string): Promise<ApiTokenSession | null> {
  const tokenHash = hashToken(token);
  const [row] = await apiSessionOf(db, tokenHash);
  if (!row || row.api_token_expires_at <= nowIso()) return null;
  const {
    api_token_id,
    api_token_name,
    api_token_prefix,
    api_token_scopes,
    api_token_addresses,
    api_token_expires_at,
    api_token_last_used_at,
    api_token_last_used_ip,
    system_settings,
    branch_blocked,
    ...user
  } = row;
  return {
    user,
    tokenHash,
    tokenId: null,
    expiresAt: api_token_expires_at,
    viewer: null,
    settings: systemSettingsOf(system_settings),
    branchBlocked: Boolean(Number(branch_blocked)),
    apiToken: {
      id: api_token_id,
      name: api_token_name,
      prefix: api_token_prefix,
      scopes: scopesOf(api_token_scopes),
      allowedAddresses: parseJson<string[]>(api_token_addresses, []),
      lastUsedAt: api_token_last_used_at,
      lastUsedIp: api_token_last_used_ip,
    },
  };
}

/** A bearer token of either kind: an API token (`cpt_…`) or a sign-in session's. */
export const resolveBearer = (db: Kysely<Database>, token: string): Promise<Session | ApiTokenSession | null> =>
  isApiToken(token) ? resolveApiToken(db, token) : resolveToken(db, token);
