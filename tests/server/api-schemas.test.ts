/**
 * Every API route states its answer: a response schema with a success (2xx) entry and the shared 4xx
 * body, and every paginated GET list its query string. Fastify serialises replies by these schemas
 * (fields outside them are not sent) and /api/docs is generated from them, so the test also reads the
 * OpenAPI document and finds each route there with its success answer. Derived from the route table:
 * a route added later without schemas fails here.
 */
import { expect, it } from 'vitest';
import { type ApiRoute, apiRoutes, label } from './apiSurface';
import { describeEachDatabase } from './harness';

type ZodLike = { shape?: Record<string, unknown>; _zod?: { def?: { type?: string } } };

const responsesOf = (route: ApiRoute): Record<string, ZodLike> => (route.schema?.response ?? {}) as Record<string, ZodLike>;

const successCodes = (route: ApiRoute) => Object.keys(responsesOf(route)).filter((code) => /^2(\d\d|xx)$/.test(code));

/**
 * A paginated list: a GET whose success answer carries the paging figures, as `meta` (docs/api.md#lists), as
 * `pagination` (audit logs) or inside `data` beside the rows (tickets).
 */
function isPaginatedList(route: ApiRoute): boolean {
  const shape = responsesOf(route)['200']?.shape;
  if (route.method !== 'GET' || !shape) return false;
  return Boolean(shape.meta || shape.pagination || (shape.data as ZodLike | undefined)?.shape?.current_page);
}

/** The OpenAPI path of a route URL: ':id' (with or without a pattern) becomes '{id}'. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\([^)]*\))?/g, '{$1}');

describeEachDatabase('API schemas', (ctx) => {
  it('every route states a response schema with a success entry and the 4xx body', () => {
    const routes = apiRoutes(ctx);
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes.filter((route) => successCodes(route).length === 0).map(label);
    expect(missing, 'routes without a 2xx response schema').toEqual([]);
    const withoutErrors = routes.filter((route) => !responsesOf(route)['4xx']).map(label);
    expect(withoutErrors, 'routes without the 4xx response schema').toEqual([]);
    // A 204 answers no body: its schema says so, and nothing else may be declared as a success beside it.
    for (const route of routes.filter((r) => successCodes(r).includes('204'))) {
      expect(responsesOf(route)['204']._zod?.def?.type, `${label(route)}: 204 is no content`).toBe('null');
    }
  });

  it('every paginated GET list states its query string with page and per_page', () => {
    const lists = apiRoutes(ctx).filter(isPaginatedList);
    // Accounts, user search, managers, resellers, dealers, transactions (global, legacy, per level, per account), ...
    expect(lists.length).toBeGreaterThan(15);
    for (const route of lists) {
      const query = route.schema?.querystring as ZodLike | undefined;
      expect(query, `${label(route)}: querystring`).toBeDefined();
      expect(Object.keys(query?.shape ?? {}), `${label(route)}: querystring keys`).toEqual(expect.arrayContaining(['page', 'per_page']));
    }
  });

  it('/api/docs/json lists every route with its success answer', async () => {
    const res = await ctx.anonymous.request('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, { responses?: Record<string, any>; parameters?: Array<{ in: string; name: string }> }>>;
    const problems: string[] = [];
    for (const route of apiRoutes(ctx)) {
      const operation = paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      if (!operation) {
        problems.push(`${label(route)}: not in the document`);
        continue;
      }
      const documented = Object.keys(operation.responses ?? {});
      for (const code of successCodes(route)) {
        const content = operation.responses?.[code]?.content;
        if (!documented.includes(code)) problems.push(`${label(route)}: ${code} not documented`);
        else if (code === '204' && content) problems.push(`${label(route)}: 204 documented with a body`);
        else if (code !== '204' && !content?.['application/json']?.schema) problems.push(`${label(route)}: ${code} without a JSON schema`);
      }
      if (isPaginatedList(route)) {
        const query = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        if (!query.includes('page') || !query.includes('per_page')) problems.push(`${label(route)}: page and per_page not documented`);
      }
    }
    expect(problems).toEqual([]);
  });
});
