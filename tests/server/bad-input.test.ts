/**
 * Bad input on every endpoint the app registers (derived from the route table): malformed JSON,
 * bodies of the wrong shape, wrong-typed fields and odd list queries are clean 4xx, never a 500.
 * What a body should get is read off the route's own zod schema: rejected there means 422.
 */
import { expect, it } from 'vitest';
import { GENERAL, MAX_PAGE_SIZE } from '../../src/contract';
import {
  type ApiRoute,
  DERIVED_TIMEOUT,
  USER_OF,
  apiRoutes,
  bodyFields,
  bodySchemaAccepts,
  expectClientErrorShape,
  expectValidationShape,
  fillPath,
  firstAllowedRole,
  freshClient,
  isPublic,
  label,
  readsFirst,
  takesBody,
} from './apiSurface';
import { type Client, type TestContext, describeEachDatabase } from './harness';

/** A client allowed to call the route (anonymous for public routes), with the URL it should use. */
async function callerFor(ctx: TestContext, route: ApiRoute): Promise<{ client: Client; url: string } | null> {
  if (isPublic(route)) return { client: ctx.anonymous, url: fillPath(route.url, 1) };
  const role = firstAllowedRole(route);
  if (!role) return null;
  const client = await freshClient(ctx, USER_OF[role]);
  return { client, url: fillPath(route.url, client.userId) };
}

const bodyRoutes = (ctx: TestContext) => readsFirst(apiRoutes(ctx)).filter((r) => takesBody(r.method));

describeEachDatabase('bad input: request bodies', (ctx) => {
  it('derives at least the foundation routes that take a body', () => {
    const labels = bodyRoutes(ctx).map(label);
    expect(labels).toEqual(expect.arrayContaining(['POST /api/v1/login', 'PUT /api/v1/update-profile', 'POST /api/v1/ticket-categories']));
  });

  it(
    'answers malformed JSON with 400 {message} on every route that takes a body',
    async () => {
      for (const route of bodyRoutes(ctx)) {
        const caller = await callerFor(ctx, route);
        if (!caller) continue;
        for (const text of ['{"name": ', "{'name': 'x'}", '{"a":1}}', 'nope']) {
          const res = await caller.client.request(route.method, caller.url, text, { 'content-type': 'application/json' });
          const where = `${label(route)} with ${text}`;
          expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body, where).toEqual({ message: GENERAL.malformedJson });
        }
      }
    },
    DERIVED_TIMEOUT,
  );

  it(
    'answers bodies that are not objects with 422 where the route validates its body, never 500',
    async () => {
      for (const route of bodyRoutes(ctx)) {
        for (const payload of [[], [{ id: 1 }], 'text', 42, true, null]) {
          const caller = await callerFor(ctx, route);
          if (!caller) continue;
          const res = await caller.client.request(route.method, caller.url, JSON.stringify(payload));
          const where = `${label(route)} with ${JSON.stringify(payload)}`;
          const accepted = await bodySchemaAccepts(route, payload);
          expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
          if (accepted === false) expectValidationShape(res, where);
          else if (res.status >= 400) expectClientErrorShape(res, where);
        }
      }
    },
    DERIVED_TIMEOUT,
  );

  it(
    'answers wrong-typed fields with 422 {message, errors:{field:[...]}}, never 500',
    async () => {
      const fillers: unknown[] = [
        { nested: { deeper: true } },
        [1, 'two'],
        12345.678,
        -1,
        true,
        false,
        '',
        '   ',
        'x'.repeat(5000),
        '9999-99-99',
        '<script>alert(1)</script>',
      ];
      let checked = 0;
      for (const route of bodyRoutes(ctx)) {
        const fields = bodyFields(route);
        if (fields.length === 0) continue;
        for (const filler of fillers) {
          const payload = Object.fromEntries(fields.map((f) => [f, filler]));
          const caller = await callerFor(ctx, route);
          if (!caller) continue;
          const res = await caller.client.request(route.method, caller.url, payload);
          const where = `${label(route)} with every field ${JSON.stringify(filler).slice(0, 40)}`;
          expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
          const accepted = await bodySchemaAccepts(route, payload);
          if (accepted === false) {
            expectValidationShape(res, where);
            // The errors name the body's own fields (or the body as a whole), not Fastify internals.
            for (const key of Object.keys(res.body.errors)) {
              const root = key.split('.')[0];
              expect([...fields, 'body', 'params', 'querystring'], `${where}: error key ${key}`).toContain(root);
            }
            checked++;
          } else if (res.status >= 400) {
            expectClientErrorShape(res, where);
          }
        }
      }
      expect(checked).toBeGreaterThan(0);
    },
    DERIVED_TIMEOUT,
  );

  it('rejects an oversize body with a clean 4xx', async () => {
    const res = await ctx.anonymous.post('/login', { username: 'admin', password: 'x'.repeat(2_000_000) });
    expect(res.status).toBe(413);
    expect(typeof res.body.message).toBe('string');
  });
});

const ODD_QUERIES = [
  'page=abc',
  'page=0',
  'page=-3',
  'page=1.5',
  'page=99999999999999999999',
  'page=1&page=2',
  'per_page=-1',
  'per_page=0',
  'per_page=100000',
  'per_page=',
  'filter[nope]=1',
  'filter[]=1',
  'filter=1',
  'sort=nope',
  'sort=-',
  'sort=--name',
  'sort=',
  'order=sideways',
  'sort_direction=up',
  'sort_by=nope',
  `filter[search]=${encodeURIComponent("%_\\'")}`,
  `search=${encodeURIComponent("'; drop table users; --")}`,
  `filter[search]=${'a'.repeat(3000)}`,
  'filter[search][]=x',
  '%zz=1',
];

/**
 * The rows and paging of a list answer, in the shapes docs/api.md#lists gives: {data|themes|promos, meta}
 * or the nested ticket shape {data: {data, total, current_page, per_page}}; null when it is no page.
 */
function pageOf(body: any): { rows: unknown[]; meta: Record<string, any> } | null {
  if (body && typeof body.meta?.current_page === 'number') {
    const rows = Object.values(body).find(Array.isArray);
    return rows ? { rows, meta: body.meta } : null;
  }
  if (body?.data && typeof body.data.current_page === 'number' && Array.isArray(body.data.data)) {
    return { rows: body.data.data, meta: body.data };
  }
  return null;
}

describeEachDatabase('bad input: list queries', (ctx) => {
  const getRoutes = () => apiRoutes(ctx).filter((r) => r.method === 'GET');

  it(
    'answers odd list queries on every GET route with 200 or a clean 4xx, never 500',
    async () => {
      for (const route of getRoutes()) {
        // GETs cannot sign the caller out, so one token serves every query on a route.
        const caller = await callerFor(ctx, route);
        if (!caller) continue;
        for (const query of ODD_QUERIES) {
          const res = await caller.client.get(`${caller.url}?${query}`);
          const where = `GET ${caller.url}?${query}`;
          if (res.status !== 200) expectClientErrorShape(res, `${where} (${res.status} ${JSON.stringify(res.body)?.slice(0, 200)})`);
        }
      }
    },
    DERIVED_TIMEOUT,
  );

  // A route answering a page (meta.current_page) claims the list conventions: hold it to them.
  it(
    'holds every paginated list to the conventions on bad paging, sorting and filters',
    async () => {
      let lists = 0;
      for (const route of getRoutes()) {
        const caller = await callerFor(ctx, route);
        if (!caller) continue;
        const baseline = await caller.client.get(caller.url);
        const first = baseline.status === 200 ? pageOf(baseline.body) : null;
        if (!first) continue;
        lists++;
        const get = (query: string) => caller.client.get(`${caller.url}?${query}`);
        const where = (query: string) => `GET ${caller.url}?${query}`;

        expect(first.meta.current_page, where('')).toBe(1);
        const keys = baseline.body.meta ? ['total', 'per_page', 'last_page'] : ['total', 'per_page'];
        for (const key of keys) expect(typeof first.meta[key], `${where('')}: meta.${key}`).toBe('number');

        for (const [query, field] of [
          ['page=abc', 'page'],
          ['page=0', 'page'],
          ['per_page=-1', 'per_page'],
          ['per_page=abc', 'per_page'],
        ]) {
          const res = await get(query);
          expectValidationShape(res, where(query));
          expect(Object.keys(res.body.errors), where(query)).toContain(field);
        }
        // Each list takes one sort style (docs/api.md#lists): a bad direction in its own parameter is a 422 under
        // that parameter, a parameter of another style a 400 naming the list's own.
        for (const key of ['order', 'sort_direction', 'sort_order']) {
          const res = await get(`${key}=sideways`);
          if (res.status === 422) expect(Object.keys(res.body.errors), where(`${key}=sideways`)).toEqual([key]);
          else {
            expect(res.status, where(`${key}=sideways`)).toBe(400);
            expect(res.body.message, where(`${key}=sideways`)).toMatch(/This list sorts with `[a-z_, ]+`\.$/);
          }
        }
        const capped = await get('per_page=100000');
        expect(capped.status, where('per_page=100000')).toBe(200);
        expect(pageOf(capped.body)?.meta.per_page, where('per_page=100000')).toBe(MAX_PAGE_SIZE);

        for (const query of ['filter[nope]=1', 'sort=nope', 'sort=-', 'sort_by=nope']) {
          const res = await get(query);
          expect(res.status, `${where(query)}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body.message, where(query)).toMatch(/not allowed|This list sorts with/);
        }
        const beyond = await get('page=100000');
        expect(beyond.status, where('page=100000')).toBe(200);
        expect(pageOf(beyond.body)?.rows, where('page=100000')).toEqual([]);
        expect(pageOf(beyond.body)?.meta.total, where('page=100000')).toBe(first.meta.total);
      }
      expect(lists).toBeGreaterThan(0);
    },
    DERIVED_TIMEOUT,
  );
});
