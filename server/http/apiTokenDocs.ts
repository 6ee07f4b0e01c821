/**
 * The OpenAPI document (/api/docs) states what an API token needs for each operation: an
 * `x-token-scope` extension (`read`, `accounts`, `credits`, or `session`: a signed-in session only)
 * and a line in its description, and the bearer scheme explains token use with an example.
 */
import type { FastifySchema, RouteOptions } from 'fastify';
import { API_TOKEN_PREFIX, type TokenNeed } from '../../src/contract';
import { tokenNeedOf } from './apiTokenGuard';

export const TOKEN_USE = [
  'Send a sign-in token (POST /api/v1/login) or a personal API token (created on the Profile page) as a bearer token:',
  '',
  `    curl -H "Authorization: Bearer ${API_TOKEN_PREFIX}1a2b3c4d5e6f_…" https://panel.example/api/v1/accounts?per_page=25`,
  '',
  'An API token acts as its user, never beyond the user’s role and subtree, and only within its scopes: every token reads',
  '(GET); `accounts` adds account and member changes; `credits` adds credit moves. Each operation names the scope it needs',
  'in `x-token-scope`; `session` operations (tokens, passwords, second factors, profile, panel configuration) refuse',
  'API tokens with 403. Expired or revoked tokens get 401; a token listing allowed addresses is refused elsewhere (403).',
].join('\n');

const NEED_TEXT: Record<TokenNeed, string> = {
  read: 'API tokens: any token (read).',
  accounts: 'API tokens: needs the `accounts` scope.',
  credits: 'API tokens: needs the `credits` scope.',
  session: 'API tokens: refused (a signed-in session only).',
};

/** `/accounts/:id(\\d+)` as OpenAPI writes it: `/accounts/{id}`. */
const openapiPath = (url: string) => url.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\([^)]*\))?/g, '{$1}');

const needs = new Map<string, TokenNeed>();

/** Adds the need to the operation's description and keeps it for documentTokenScopes. */
export function tokenScopeTransform(input: { url: string; route: RouteOptions }, out: { schema: FastifySchema; url: string }) {
  const { route } = input;
  if (!input.url.startsWith('/api/') || (route.config as { public?: boolean } | undefined)?.public) return out;
  const methods = [route.method].flat();
  const need = tokenNeedOf(methods[0], input.url, route.config as Parameters<typeof tokenNeedOf>[2]);
  for (const method of methods) needs.set(`${method.toLowerCase()} ${openapiPath(out.url)}`, need);
  const schema = { ...(out.schema ?? {}) } as FastifySchema & { description?: string };
  schema.description = schema.description ? `${schema.description}\n\n${NEED_TEXT[need]}` : NEED_TEXT[need];
  return { ...out, schema };
}

/** Writes `x-token-scope` on every operation the transform saw. */
export function documentTokenScopes<T extends object>(document: T): T[keyof T] {
  const doc = (document as { openapiObject: { paths?: Record<string, unknown> } }).openapiObject;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries((item ?? {}) as Record<string, Record<string, unknown>>)) {
      const need = needs.get(`${method} ${path}`);
      if (need && operation && typeof operation === 'object') operation['x-token-scope'] = need;
    }
  }
  return doc as T[keyof T];
}
