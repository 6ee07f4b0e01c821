/**
 * Inputs an attacker picks on purpose (issue 11): object-prototype names in list queries, NUL and other
 * control bytes, lone surrogates and numbers in odd notations. Each is a clean 4xx JSON answer on
 * SQLite and PostgreSQL, never a 500.
 */
import { expect, it } from 'vitest';
import { DERIVED_TIMEOUT, USER_OF, apiRoutes, expectClientErrorShape, fillPath, firstAllowedRole, freshClient, isPublic, label } from './apiSurface';
import { describeEachDatabase } from './harness';

/** Names every plain object answers through its prototype. */
export const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__'];

describeEachDatabase('hostile input: prototype names', (ctx) => {
  it('answers list queries naming prototype properties with 400/422 on every GET route, never 500', async () => {
    let lists = 0;
    for (const route of apiRoutes(ctx).filter((r) => r.method === 'GET')) {
      const role = isPublic(route) ? null : firstAllowedRole(route);
      if (!isPublic(route) && !role) continue;
      const client = role ? await freshClient(ctx, USER_OF[role]) : ctx.anonymous;
      const url = fillPath(route.url, 'userId' in client ? (client as { userId: number }).userId : 1);
      const baseline = await client.get(url);
      const isList = baseline.status === 200 && typeof baseline.body?.meta?.current_page === 'number';
      if (isList) lists++;
      for (const name of PROTOTYPE_NAMES) {
        for (const query of [`sort=${name}`, `sort=-${name}`, `sort_by=${name}`, `filter[${name}]=1`, `${name}=1`, `order=${name}`, `filter[search]=${name}`]) {
          const res = await client.get(`${url}?${query}`);
          const where = `${label(route)} ?${query}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`;
          expect(res.status, where).toBeLessThan(500);
          if (res.status !== 200) expectClientErrorShape(res, where);
          if (isList && (query.startsWith('sort') || query.startsWith('filter[') && !query.startsWith('filter[search]'))) {
            expect(res.status, where).toBe(400);
            expect(res.body.message, where).toMatch(/not allowed/);
          }
        }
      }
    }
    expect(lists).toBeGreaterThan(5);
  }, DERIVED_TIMEOUT);
});
