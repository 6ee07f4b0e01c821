/**
 * The role matrix (src/contract/roles.ts) on every endpoint the app registers: derived from the route
 * table, so an endpoint added later is covered without touching this file.
 */
import { expect, it } from 'vitest';
import { ACCESS, AUTH, PERMISSIONS, ROLES, type Role } from '../../src/contract';
import { DERIVED_TIMEOUT, USER_OF, allowed, apiRoutes, fillPath, freshClient, isPublic, label, readsFirst, takesBody } from './apiSurface';
import { describeEachDatabase } from './harness';

const ACTORS = ['anonymous', ...ROLES] as const;
type Actor = (typeof ACTORS)[number];

describeEachDatabase('role matrix', (ctx) => {
  it('finds the required endpoints in the route table', () => {
    const labels = apiRoutes(ctx).map(label);
    for (const expected of [
      'POST /api/v1/login',
      'POST /api/v1/logout',
      'GET /api/v1/user',
      'POST /api/v1/change-password',
      'PUT /api/v1/update-profile',
      'GET /api/v1/user/manager-server',
      'GET /api/v1/health',
      'GET /api/v1/config',
      'GET /api/v1/ticket-categories',
      'POST /api/v1/ticket-categories',
      'PUT /api/v1/ticket-categories/:id',
      'DELETE /api/v1/ticket-categories/:id',
      'GET /api/v1/ticket-categories-active',
      // Tickets, announcements, audit logs and analytics.
      'GET /api/v1/tickets',
      'POST /api/v1/tickets',
      'PUT /api/v1/tickets/:id',
      'DELETE /api/v1/tickets/:id',
      'POST /api/v1/tickets/:id/replies',
      'GET /api/v1/tickets-categories',
      'GET /api/v1/tickets-statistics',
      'GET /api/v1/announcements',
      'POST /api/v1/announcements',
      'GET /api/v1/announcements/:id',
      'PUT /api/v1/announcements/:id',
      'DELETE /api/v1/announcements/:id',
      'PATCH /api/v1/announcements/:id/toggle-status',
      'GET /api/v1/announcements/visible',
      'GET /api/v1/announcements/target-users',
      'GET /api/v1/announcements/stats',
      'GET /api/v1/user/announcements',
      'GET /api/v1/user/announcements/:id',
      'GET /api/v1/user/announcements/unread-count',
      'GET /api/v1/user/announcements/recent',
      'GET /api/v1/audit-logs',
      'GET /api/v1/audit-logs/modules',
      'GET /api/v1/audit-logs/actions',
      'GET /api/v1/audit-logs/stats',
      'GET /api/v1/analytics/credits-flow',
    ]) {
      expect(labels).toContain(expected);
    }
  });

  it('every /api route declares config.access from the matrix, or config.public', () => {
    const problems: string[] = [];
    const matrix = PERMISSIONS as Record<string, Record<string, readonly Role[]>>;
    for (const route of apiRoutes(ctx)) {
      const access = route.config?.access;
      if (isPublic(route)) {
        if (access) problems.push(`${label(route)} is public and also declares access`);
        continue;
      }
      if (!access) {
        problems.push(`${label(route)} declares neither access nor public`);
        continue;
      }
      const [resource, action] = access;
      // A pair the matrix does not list is allowed to nobody: almost certainly a typo.
      if (!matrix[resource]) problems.push(`${label(route)}: resource '${resource}' is not in PERMISSIONS`);
      else if (!matrix[resource][action]) problems.push(`${label(route)}: action '${resource}.${action}' is not in PERMISSIONS`);
    }
    expect(problems).toEqual([]);
  });

  // Anonymous and forbidden callers never reach a handler; allowed ones do, so reads go first and
  // each request carries a token of its own (a sign-out cannot spoil the next request).
  it.each(ACTORS)(
    '%s gets 401 / 403 / through exactly as the matrix says on every endpoint',
    async (actor: Actor) => {
      const failures: string[] = [];
      for (const route of readsFirst(apiRoutes(ctx))) {
        const client = actor === 'anonymous' ? { ...ctx.anonymous, userId: 1 } : await freshClient(ctx, USER_OF[actor]);
        const url = fillPath(route.url, client.userId);
        const res = await client.request(route.method, url, takesBody(route.method) ? {} : undefined);
        const where = `${route.method} ${url} as ${actor}`;
        const got = `${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`;
        if (res.status >= 500) {
          failures.push(`${where}: expected no server error, got ${got}`);
        } else if (isPublic(route)) {
          if (res.status === 401 || res.status === 403) failures.push(`${where}: public route refused: ${got}`);
        } else if (actor === 'anonymous') {
          if (res.status !== 401 || res.body?.message !== AUTH.unauthenticated) failures.push(`${where}: expected 401 Unauthenticated., got ${got}`);
        } else if (!allowed(route, actor)) {
          if (res.status !== 403 || res.body?.message !== ACCESS.forbidden) failures.push(`${where}: expected 403, got ${got}`);
        } else if (res.status === 401 || res.status === 403) {
          failures.push(`${where}: allowed by the matrix but refused: ${got}`);
        }
      }
      expect(failures).toEqual([]);
    },
    DERIVED_TIMEOUT,
  );
});
