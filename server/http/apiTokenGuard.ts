/**
 * What an API token may call (docs/security.md#api-tokens). The guard (guard.ts) has already opened
 * the token's session as its user and checked the role matrix; this plugin then narrows it: each
 * route needs a scope (TOKEN_NEEDS, one table), the token must be used from an allowed address, and
 * its requests count per token. A token never reaches what only a signed-in session may do.
 */
import net from 'node:net';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_TOKENS, API_TOKEN_REQUESTS_PER_MINUTE, type TokenNeed } from '../../src/contract';
import { forbidden, tooManyRequests } from './errors';
import { hit } from './rateLimit';
import type { ApiTokenUse } from './sessionShape';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What an API token needs for this route, when the table below does not say it. */
    tokenScope?: TokenNeed;
  }
  interface FastifyRequest {
    /** The API token the request was made with; null for a signed-in session or none. */
    apiToken: ApiTokenUse | null;
  }
}

const READS = new Set(['GET', 'HEAD']);

/**
 * What a token needs for a call that changes something, by the route's resource (and action). A
 * resource not listed is `session`: a route added later is closed to tokens until it is listed.
 */
const WRITE_NEEDS: Record<string, TokenNeed | Record<string, TokenNeed>> = {
  // End-user accounts: create (trials too), edit, status, renew (`credits` spends for a renewal), move, messages.
  accounts: 'accounts',
  'mac-search': 'accounts',
  // Members: create, edit, status, delete and promote need `accounts`; credit moves `credits`.
  managers: { credits: 'credits', '*': 'accounts' },
  resellers: { credits: 'credits', '*': 'accounts' },
  dealers: { credits: 'credits', '*': 'accounts' },
  hierarchy: 'accounts',
  // Security and the caller's own settings: a signed-in session only.
  profile: 'session',
  'api-tokens': 'session',
  // The panel's configuration and support stay with the panel.
  tickets: 'session',
  'ticket-categories': 'session',
  announcements: 'session',
  servers: 'session',
  themes: 'session',
  'user-promos': 'session',
  promos: 'session',
  'global-discounts': 'session',
  'credit-levels': 'session',
  'credit-options-settings': 'session',
  settings: 'session',
};

/** Reads a token may not make (a token cannot see the tokens). */
const READ_NEEDS: Record<string, TokenNeed> = { 'api-tokens': 'session' };

/** Routes that differ from their resource's row: keyed `METHOD /url`. */
const ROUTE_NEEDS: Record<string, TokenNeed> = {
  // Resetting a member's second factor is security, not account work.
  'POST /api/v1/managers/:id/two-factor/reset': 'session',
  'POST /api/v1/resellers/:id/two-factor/reset': 'session',
  'POST /api/v1/dealers/:id/two-factor/reset': 'session',
  // Where the user is signed in, and its sign-in history, are the session's own security.
  'GET /api/v1/sessions': 'session',
  'GET /api/v1/sign-in-history': 'session',
  // POSTs that only compute an answer.
  'POST /api/v1/global-discounts/calculate-credits': 'read',
  'POST /api/v1/accounts/move/preview': 'read',
};

/** What an API token needs to call the route: every route of the API has exactly one answer. */
export function tokenNeedOf(method: string, url: string, config: Pick<FastifyContextConfig, 'access' | 'tokenScope'> | undefined): TokenNeed {
  if (config?.tokenScope) return config.tokenScope;
  const stated = ROUTE_NEEDS[`${method} ${url}`];
  if (stated) return stated;
  const [resource, action] = config?.access ?? ['', ''];
  if (READS.has(method)) return READ_NEEDS[resource] ?? 'read';
  const row = WRITE_NEEDS[resource];
  if (row === undefined) return 'session';
  return typeof row === 'string' ? row : (row[action] ?? row['*'] ?? 'session');
}

/** An address as compared: an IPv4-mapped IPv6 address as its IPv4 form, without a zone id. */
export function plainAddress(ip: string): string {
  const bare = ip.split('%')[0];
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  return mapped ? mapped[1] : bare;
}

/** Is the address within one of the ranges (an address alone is its /32 or /128; none listed: any address)? */
export function addressAllowed(ranges: readonly string[], ip: string): boolean {
  if (ranges.length === 0) return true;
  const address = plainAddress(ip);
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (!family) return false;
  const list = new net.BlockList();
  for (const range of ranges) {
    const [base, bits] = range.split('/');
    const type = net.isIPv4(base) ? 'ipv4' : 'ipv6';
    list.addSubnet(base, bits === undefined ? (type === 'ipv4' ? 32 : 128) : Number(bits), type);
  }
  return list.check(address, family);
}

/** Last use is written at most once a minute per token and address: a write per request would cost every request. */
const LAST_USE_EVERY_MS = 60_000;

export const apiTokenGuard = fp(async (app: FastifyInstance) => {
  app.decorateRequest('apiToken', null);

  app.addHook('onRequest', async (request) => {
    const token = request.apiToken;
    if (!token) return;
    const config = request.routeOptions.config;
    if (!addressAllowed(token.allowedAddresses, request.ip)) throw forbidden(API_TOKENS.addressRefused);
    const need = tokenNeedOf(request.method, request.routeOptions.url ?? '', config);
    if (need === 'session') throw forbidden(API_TOKENS.sessionOnly);
    if (!token.scopes.includes(need)) throw forbidden(API_TOKENS.scopeMissing(need));
    const db = app.db.kysely;
    const state = await hit(db, `api-token:${token.id}`, { max: API_TOKEN_REQUESTS_PER_MINUTE, windowMs: 60_000 });
    if (state.exceeded) throw tooManyRequests(API_TOKENS.rateLimited, state.retryAfter);
    const address = plainAddress(request.ip);
    const now = Date.now();
    if (token.lastUsedIp !== address || !token.lastUsedAt || now - Date.parse(token.lastUsedAt) >= LAST_USE_EVERY_MS) {
      await db
        .updateTable('api_tokens')
        .set({ last_used_at: new Date(now).toISOString(), last_used_ip: address })
        .where('id', '=', token.id)
        .execute();
    }
  });
});
