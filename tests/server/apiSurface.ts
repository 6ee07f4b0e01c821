/**
 * The API surface as the app itself registered it (app.routeTable), so the role-matrix and bad-input
 * suites cover every endpoint that exists, including modules added after they were written.
 */
import { expect } from 'vitest';
import { ROLES, type Role, can } from '../../src/contract';
import type { RouteEntry } from '../../server/app';
import { issueToken } from '../../server/auth/tokens';
import { getSystemSettings, updateSystemSettings } from '../../server/settings';
import { type Client, type Response, type TestContext, userId } from './harness';

export type ApiRoute = RouteEntry;

/** The derived tests walk every route, so they grow with the API: more than the default test time. */
export const DERIVED_TIMEOUT = 180_000;

/** Demo user of each role (the harness seeds them). */
export const USER_OF: Record<Role, string> = { admin: 'admin', manager: 'manager', reseller: 'reseller', dealer: 'dealer' };

/**
 * Every API route (under /api/, so legacy paths outside /api/v1 too; not the OpenAPI pages), one entry
 * per method and URL (HEAD/OPTIONS that Fastify adds are left out).
 */
export function apiRoutes(ctx: TestContext): ApiRoute[] {
  const seen = new Set<string>();
  const routes: ApiRoute[] = [];
  for (const route of ctx.app.routeTable) {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) continue;
    if (route.method === 'HEAD' || route.method === 'OPTIONS') continue;
    const key = `${route.method} ${route.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push(route);
  }
  return routes;
}

export const label = (route: Pick<ApiRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

export const isPublic = (route: ApiRoute) => Boolean(route.config?.public);

/** May this role call the route (public routes: everyone)? */
export function allowed(route: ApiRoute, role: Role): boolean {
  if (isPublic(route)) return true;
  const access = route.config?.access;
  return Boolean(access && can(role, access[0], access[1]));
}

/** The first role, most privileged first, that may call the route; null for a route nobody may call. */
export const firstAllowedRole = (route: ApiRoute): Role | null => ROLES.find((role) => allowed(route, role)) ?? null;

/** The URL with every path parameter (':id', ':id(\\d+)', '*') filled with `value`. */
export const fillPath = (url: string, value: string | number) => url.replace(/:[A-Za-z_][A-Za-z0-9_]*(\([^)]*\))?/g, String(value)).replace(/\*/g, String(value));

/** Bodyful methods get a body; GET and DELETE none. */
export const takesBody = (method: string) => ['POST', 'PUT', 'PATCH'].includes(method);

/**
 * A client with a token of its own, so a request that signs out (or changes the password) cannot
 * spoil the next one. Tokens are minted directly: the login route is not what these suites test.
 */
export async function freshClient(ctx: TestContext, username: string): Promise<Client & { userId: number }> {
  // A body an earlier request sent may have switched maintenance on (a valid settings payload):
  // non-admins would then get 503 for reasons that have nothing to do with the request under test.
  if (username !== USER_OF.admin && (await getSystemSettings(ctx.db.kysely)).maintenance_mode) {
    await updateSystemSettings(ctx.db.kysely, { maintenance_mode: false });
  }
  const id = await userId(ctx, username);
  const token = await issueToken(ctx.db.kysely, id, 1);
  return Object.assign(ctx.client(token), { userId: id });
}

/** Routes in an order that keeps reads before writes and deletes last. */
export function readsFirst(routes: ApiRoute[]): ApiRoute[] {
  const rank = (m: string) => (m === 'GET' ? 0 : m === 'DELETE' ? 2 : 1);
  return [...routes].sort((a, b) => rank(a.method) - rank(b.method));
}

/** The 422 body (docs/api.md#errors): {message, errors: {field: [msg, ...]}}. */
export function expectValidationShape(res: Response, where: string) {
  expect(res.status, where).toBe(422);
  expect(typeof res.body?.message, `${where}: message`).toBe('string');
  expect(res.body.message.length, `${where}: message`).toBeGreaterThan(0);
  const errors = res.body.errors;
  expect(errors && typeof errors === 'object' && !Array.isArray(errors), `${where}: errors is an object`).toBe(true);
  expect(Object.keys(errors).length, `${where}: errors has a field`).toBeGreaterThan(0);
  for (const [field, messages] of Object.entries(errors)) {
    expect(Array.isArray(messages) && messages.length > 0, `${where}: errors.${field} is a non-empty list`).toBe(true);
    for (const message of messages as unknown[]) expect(typeof message, `${where}: errors.${field}`).toBe('string');
  }
}

/** Any 4xx: a JSON body with a message (422 also with per-field errors). */
export function expectClientErrorShape(res: Response, where: string) {
  expect(res.status >= 400 && res.status < 500, `${where}: 4xx, got ${res.status} ${JSON.stringify(res.body)}`).toBe(true);
  expect(typeof res.body?.message, `${where}: message`).toBe('string');
  if (res.status === 422) expectValidationShape(res, where);
}

type ZodLike = { safeParseAsync?: (v: unknown) => Promise<{ success: boolean }>; shape?: unknown; _zod?: { def?: any } };

/** Whether the route's own body schema accepts `value` (null when the route declares no zod body). */
export async function bodySchemaAccepts(route: ApiRoute, value: unknown): Promise<boolean | null> {
  const schema = route.schema?.body as ZodLike | undefined;
  if (!schema || typeof schema.safeParseAsync !== 'function') return null;
  return (await schema.safeParseAsync(value)).success;
}

/** The field names of the route's body schema when it is an object (through optional/default/pipe/refine). */
export function bodyFields(route: ApiRoute): string[] {
  let schema = route.schema?.body as ZodLike | undefined;
  for (let depth = 0; depth < 10 && schema; depth++) {
    if (schema.shape && typeof schema.shape === 'object') return Object.keys(schema.shape);
    const def = schema._zod?.def;
    schema = def?.in ?? def?.innerType ?? def?.schema;
  }
  return [];
}
