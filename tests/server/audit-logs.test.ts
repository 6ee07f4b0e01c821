/**
 * The audit log: an entry for every kind of mutation (actor, module, action, target, old and new
 * values, address; secrets redacted), none for lookups and replays, entries that neither the API nor
 * SQL can change or delete, and the admin's viewer (filters, pagination, modules, actions, stats).
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_DEFAULT_PAGE_SIZE, FIELD_RULES } from '../../src/contract';
import { READ_ONLY_POSTS, fallbackAction } from '../../server/audit';
import { DERIVED_TIMEOUT, apiRoutes, fillPath, firstAllowedRole, freshClient, label, USER_OF } from './apiSurface';
import { type Client, describeEachDatabase, userId } from './harness';
import { uniqueMac } from './accountFixtures';

const MUTATIONS = ['POST', 'PUT', 'PATCH', 'DELETE'];

describe('the action of a mutation that records none itself', () => {
  it('is the operation the path names, else what the method does', () => {
    expect(fallbackAction('POST', '/api/v1/logout', 'profile')).toBe('logout');
    expect(fallbackAction('POST', '/api/v1/accounts/:id/reset-device', 'accounts')).toBe('reset_device');
    expect(fallbackAction('POST', '/api/v1/tickets', 'tickets')).toBe('create');
    expect(fallbackAction('PUT', '/api/v1/tickets/:id', 'tickets')).toBe('update');
    expect(fallbackAction('DELETE', '/api/v1/tickets/:id', 'tickets')).toBe('delete');
  });
});

describeEachDatabase('audit log', (ctx) => {
  let admin: Client;
  const lastId = async () =>
    Number(
      (
        await ctx.db.kysely
          .selectFrom('audit_logs')
          .select(sql<number>`coalesce(max(id), 0)`.as('id'))
          .executeTakeFirstOrThrow()
      ).id,
    );
  const since = (id: number) => ctx.db.kysely.selectFrom('audit_logs').selectAll().where('id', '>', id).orderBy('id').execute();

  beforeAll(async () => {
    admin = await ctx.as('admin');
  });

  /** Runs `call`, expects it to succeed, and answers the entries it wrote. */
  const entriesOf = async (call: () => Promise<{ status: number; body: unknown }>) => {
    const before = await lastId();
    const res = await call();
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return since(before);
  };

  it('records each kind of mutation with actor, module, action, target, values and address', async () => {
    const kinds: Array<{ name: string; call: () => Promise<{ status: number; body: any }>; expect: Record<string, unknown> }> = [
      {
        name: 'sign-in',
        call: () => ctx.anonymous.post('/login', { username: 'manager', password: 'x' }),
        expect: { module: 'auth', action: 'login', target_username: 'manager' },
      },
      {
        name: 'create',
        call: () => admin.post('/ticket-categories', { name: `Audit ${ctx.kind}`, description: 'x' }),
        expect: { module: 'ticket_categories', action: 'create', username: 'admin' },
      },
      {
        name: 'update',
        call: async () => {
          const id = (await admin.get(`/ticket-categories?search=Audit ${ctx.kind}`)).body.data[0].id;
          return admin.put(`/ticket-categories/${id}`, { name: `Audit ${ctx.kind} 2`, description: 'y' });
        },
        expect: { module: 'ticket_categories', action: 'update', username: 'admin' },
      },
      {
        name: 'delete',
        call: async () => admin.delete(`/ticket-categories/${(await admin.get(`/ticket-categories?search=Audit ${ctx.kind} 2`)).body.data[0].id}`),
        expect: { module: 'ticket_categories', action: 'delete', username: 'admin' },
      },
      {
        name: 'status',
        call: async () => admin.post(`/themes/${(await admin.get('/themes?search=midnight')).body.themes[0].id}/toggle-status`),
        expect: { module: 'themes', action: 'status' },
      },
      { name: 'setting', call: () => admin.put('/system-settings/trial-days', { trial_days: 9 }), expect: { username: 'admin' } },
      {
        name: 'credits',
        call: async () => admin.post(`/managers/${await userId(ctx, 'manager2')}/credits`, { action: 'renew', credits: 10 }, { 'idempotency-key': `audit-${ctx.kind}` }),
        expect: { username: 'admin', target_username: 'manager2' },
      },
      {
        name: 'account',
        call: async () =>
          (await ctx.as('dealer')).post('/accounts', { login: `audit${Date.now()}`, full_name: 'Audit Account', password: 'stbpass1', mac_address: uniqueMac() }),
        expect: { username: 'dealer' },
      },
      {
        name: 'ticket reply',
        call: async () => (await ctx.as('dealer')).post('/tickets', { subject: 'Audit', message: 'm', category_id: 1 }),
        expect: { module: 'tickets', action: 'create', username: 'dealer' },
      },
      {
        name: 'profile',
        call: async () => (await ctx.as('reseller')).put('/update-profile', { name: 'Rita Reseller', username: 'reseller', phone: '555' }),
        expect: { username: 'reseller' },
      },
    ];
    for (const kind of kinds) {
      const entries = await entriesOf(kind.call);
      expect(entries.length, kind.name).toBeGreaterThanOrEqual(1);
      const entry = entries[0];
      expect(entry, kind.name).toMatchObject(kind.expect);
      expect(entry.ip_address, kind.name).toBeTruthy();
      expect(entry.module, kind.name).toBeTruthy();
      expect(entry.action, kind.name).toBeTruthy();
      expect(Date.now() - Date.parse(entry.created_at), kind.name).toBeLessThan(60_000);
    }
  });

  it('keeps the values before and after, with secrets redacted', async () => {
    const created = await entriesOf(() =>
      admin.post('/managers', { name: 'Audit Manager', username: `audit_mgr_${ctx.kind}`, password: 'supersecret1', credits: 0, server_id: 1 }),
    );
    expect(created[0].new_values).toContain('Audit Manager');
    expect(created.map((e) => `${e.old_values} ${e.new_values}`).join(' ')).not.toContain('supersecret1');
    const id = (await admin.get(`/audit-logs/${created[0].id}`)).body.data;
    expect(id.new_values).toMatchObject({ name: 'Audit Manager' });
    expect([undefined, '[redacted]']).toContain(id.new_values.password);

    const category = (await admin.post('/ticket-categories', { name: `Values ${ctx.kind}`, description: 'before' })).body.data;
    const [update] = await entriesOf(() => admin.put(`/ticket-categories/${category.id}`, { name: `Values ${ctx.kind}`, description: 'after' }));
    const shown = (await admin.get(`/audit-logs/${update.id}`)).body.data;
    expect(shown).toMatchObject({ module: 'ticket_categories', action: 'update', entity_id: category.id, username: 'admin' });
    expect(shown.old_values).toMatchObject({ description: 'before' });
    expect(shown.new_values).toMatchObject({ description: 'after' });
  });

  it('records a successful mutation whose handler writes nothing itself (sign-out), and nothing for lookups or replays', async () => {
    const client = await freshClient(ctx, 'dealer');
    const [logout] = await entriesOf(() => client.post('/logout'));
    expect(logout).toMatchObject({ module: 'profile', action: 'logout', username: 'dealer', description: 'POST /api/v1/logout' });

    const quote = await entriesOf(() => admin.post('/global-discounts/calculate-credits', { server_id: 1, months: 3 }));
    expect(quote).toEqual([]);
    const key = { 'idempotency-key': `replay-${ctx.kind}` };
    const target = `/managers/${await userId(ctx, 'manager2')}/credits`;
    expect(await entriesOf(() => admin.post(target, { action: 'renew', credits: 5 }, key))).not.toEqual([]);
    expect(await entriesOf(() => admin.post(target, { action: 'renew', credits: 5 }, key))).toEqual([]);
    // A refused call changes nothing and leaves nothing.
    const before = await lastId();
    expect((await admin.post('/ticket-categories', {})).status).toBe(422);
    expect(await since(before)).toEqual([]);
  });

  it(
    'leaves an entry for every successful call of every mutating endpoint',
    async () => {
      const problems: string[] = [];
      let succeeded = 0;
      for (const route of apiRoutes(ctx).filter((r) => MUTATIONS.includes(r.method) && !READ_ONLY_POSTS.has(r.url))) {
        const role = firstAllowedRole(route);
        if (!role) continue;
        const client = route.config?.public ? { ...ctx.anonymous, userId: 1 } : await freshClient(ctx, USER_OF[role]);
        // Ids of things that exist (the caller itself, the first server, theme, category...), so some calls succeed.
        for (const id of [client.userId, 1]) {
          const before = await lastId();
          const res = await client.request(route.method, fillPath(route.url, id), ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined);
          if (res.status >= 500) problems.push(`${label(route)}: ${res.status}`);
          if (res.status >= 200 && res.status < 300) {
            succeeded++;
            if ((await since(before)).length === 0) problems.push(`${label(route)} with id ${id} answered ${res.status} and left no audit entry`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(succeeded).toBeGreaterThan(3);
    },
    DERIVED_TIMEOUT,
  );

  it('offers no way to change or delete an entry through the API', async () => {
    const writes = apiRoutes(ctx).filter((r) => r.url.startsWith('/api/v1/audit-logs') && r.method !== 'GET');
    expect(writes).toEqual([]);
    const id = await lastId();
    for (const method of ['PUT', 'PATCH', 'DELETE']) expect((await admin.request(method, `/audit-logs/${id}`, method === 'DELETE' ? undefined : {})).status).toBe(404);
    expect((await ctx.db.kysely.selectFrom('audit_logs').select('id').where('id', '=', id).executeTakeFirst())?.id).toBe(id);
  });

  it('refuses updates, deletes, replacements and truncation by SQL', async () => {
    const db = ctx.db.kysely;
    const id = await lastId();
    const before = await db.selectFrom('audit_logs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await expect(db.updateTable('audit_logs').set({ action: 'forged' }).where('id', '=', id).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_logs').where('id', '=', id).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_logs').execute()).rejects.toThrow(/append-only/);
    if (ctx.kind === 'postgres') {
      await expect(sql`truncate audit_logs`.execute(db)).rejects.toThrow(/append-only/);
    } else {
      await expect(
        sql`insert or replace into audit_logs (id, module, action, created_at) values (${id}, 'forged', 'forged', ${before.created_at})`.execute(db),
      ).rejects.toThrow(/cannot be replaced|UNIQUE/);
    }
    expect(await db.selectFrom('audit_logs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).toEqual(before);
  });

  describe('the viewer', () => {
    // The walk above ended every other admin session (POST /sessions/end-others): a session of its own.
    beforeAll(async () => {
      admin = await freshClient(ctx, 'admin');
    });

    it('is for admin only', async () => {
      for (const username of ['manager', 'reseller', 'dealer']) {
        const client = await ctx.as(username);
        for (const url of ['/audit-logs', '/audit-logs/modules', '/audit-logs/actions', '/audit-logs/stats', '/audit-logs/1'])
          expect((await client.get(url)).status, `${username} ${url}`).toBe(403);
      }
    });

    it('pages 15 by default in { data, pagination }, up to 100, newest first', async () => {
      const res = await admin.get('/audit-logs');
      expect(res.status).toBe(200);
      expect(res.body.pagination).toMatchObject({ current_page: 1, per_page: AUDIT_DEFAULT_PAGE_SIZE, from: 1 });
      expect(res.body.pagination.last_page).toBe(Math.ceil(res.body.pagination.total / AUDIT_DEFAULT_PAGE_SIZE));
      expect(res.body.data).toHaveLength(Math.min(AUDIT_DEFAULT_PAGE_SIZE, res.body.pagination.total));
      const ids = res.body.data.map((e: { id: number }) => e.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect((await admin.get('/audit-logs?per_page=100')).body.pagination.per_page).toBe(100);
      expect((await admin.get('/audit-logs?per_page=10&page=2')).body.pagination).toMatchObject({ current_page: 2, per_page: 10, from: 11 });
    });

    it('filters by module, action, username, target username and date range', async () => {
      const category = (await admin.post('/ticket-categories', { name: `Filter ${ctx.kind}` })).body.data;
      const rows = async (q: string) => (await admin.get(`/audit-logs?per_page=100&${q}`)).body.data as Array<Record<string, any>>;
      const created = await rows(`module=ticket_categories&action=create&entity_id=${category.id}`);
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ username: 'admin', entity_id: category.id });
      expect((await rows('username=dmi')).every((e) => e.username.includes('dmi'))).toBe(true);
      expect((await ctx.anonymous.post('/login', { username: 'reseller2', password: 'password123' })).status).toBe(200);
      const targeted = await rows('target_username=reseller2');
      expect(targeted.length).toBeGreaterThan(0);
      expect(targeted.every((e) => e.target_username === 'reseller2')).toBe(true);
      expect(targeted[0]).toMatchObject({ module: 'auth', action: 'login' });
      const today = new Date().toISOString().slice(0, 10);
      expect((await rows(`module=ticket_categories&date_from=${today}&date_to=${today}&entity_id=${category.id}`)).length).toBe(1);
      expect(await rows(`date_to=2000-01-01`)).toEqual([]);
      expect(await rows(`date_from=2999-01-01`)).toEqual([]);
      const bad = await admin.get('/audit-logs?date_from=yesterday');
      expect(bad.status).toBe(422);
      expect(bad.body.errors['filter.date_from']).toEqual([FIELD_RULES.validDate]);
    });

    it('lists the modules and actions that occur', async () => {
      const modules = (await admin.get('/audit-logs/modules')).body.data;
      const actions = (await admin.get('/audit-logs/actions')).body.data;
      expect(modules).toEqual(expect.arrayContaining(['auth', 'ticket_categories']));
      expect(actions).toEqual(expect.arrayContaining(['login', 'create', 'update']));
      expect(modules).toEqual([...new Set(modules)].sort());
    });

    it('counts by module, action and date, and today', async () => {
      const all = (await admin.get('/audit-logs/stats')).body.data;
      const total = (await admin.get('/audit-logs')).body.pagination.total;
      expect(all.total_logs).toBe(total);
      expect(all.today).toBe(total);
      expect(all.by_module.reduce((n: number, m: { count: number }) => n + m.count, 0)).toBe(total);
      expect(all.by_action.reduce((n: number, m: { count: number }) => n + m.count, 0)).toBe(total);
      expect(all.by_date).toEqual([{ date: new Date().toISOString().slice(0, 10), count: total }]);
      const logins = (await admin.get('/audit-logs/stats?module=auth&action=login')).body.data;
      expect(logins.by_module).toEqual([{ module: 'auth', count: logins.total_logs }]);
      expect(logins.total_logs).toBe((await admin.get('/audit-logs?module=auth&action=login')).body.pagination.total);
      expect((await admin.get('/audit-logs/stats?date_to=2000-01-01')).body.data).toMatchObject({ total_logs: 0, today: 0, by_module: [] });
      expect((await admin.get('/audit-logs/stats?date_from=2020-01-02&date_to=2020-01-01')).status).toBe(422);
    });
  });
});
