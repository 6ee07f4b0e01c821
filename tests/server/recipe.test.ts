/**
 * A throwaway resource added by the README's "Adding a resource" recipe (tests/recipe/tariffs): its
 * contract entry, migration and route module are enough for CRUD over HTTP, the contract's 422 per
 * field, and admin-only access by the role matrix. The registries are the ones scripts/registry.mjs
 * writes, each with the recipe's file added as the script would add it from its folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { expect, it, vi } from 'vitest';
import { FIELD_RULES, LISTS, PERMISSIONS, ROUTES } from '../../src/contract';
import { describeEachDatabase } from './harness';

vi.mock('../../src/contract/resources', async (actual) => ({
  RESOURCE_ENTRIES: [...(await actual<typeof import('../../src/contract/resources')>()).RESOURCE_ENTRIES, (await import('../recipe/tariffs/contract')).default],
}));
vi.mock('../../server/routes', async (actual) => ({
  apiModules: [...(await actual<typeof import('../../server/routes')>()).apiModules, (await import('../recipe/tariffs/server')).default],
}));
vi.mock('../../server/db/migrations', async (actual) => ({
  migrations: { ...(await actual<typeof import('../../server/db/migrations')>()).migrations, '0099_tariffs': await import('../recipe/tariffs/migration') },
}));

it('takes at most 5 files and about 100 lines', () => {
  const dir = path.join(__dirname, '../recipe/tariffs');
  const files = fs.readdirSync(dir);
  expect(files.length).toBeLessThanOrEqual(5);
  const lines = files.reduce((n, f) => n + fs.readFileSync(path.join(dir, f), 'utf8').split('\n').length, 0);
  expect(lines).toBeLessThanOrEqual(110);
});

it('is in the role matrix, the lists and the route table by its entry alone', () => {
  expect(PERMISSIONS).toHaveProperty('tariffs.create', ['admin']);
  expect(LISTS).toHaveProperty('tariffs.path', 'tariffs');
  expect(ROUTES).toContainEqual({ path: '/tariffs', example: '/tariffs', spec: ['admin'], access: ['tariffs', 'list'] });
});

describeEachDatabase('a resource added by the recipe', (ctx) => {
  it('has its table from its migration', async () => {
    const names = await (ctx.db.kysely as Kysely<any>).selectFrom('kysely_migration').select('name').execute();
    expect(names.map((n: { name: string }) => n.name)).toContain('0099_tariffs');
  });

  it('lists, creates, shows, edits and deletes, with the row mapped by the schema', async () => {
    const admin = await ctx.as('admin');
    const server = (await ctx.db.kysely.selectFrom('servers').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const created = await admin.post('/tariffs', { name: 'Yearly', months: '12', credits: 10, server_id: server });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({ name: 'Yearly', months: 12, credits: 10, server_id: server, active: true });

    expect((await admin.get(`/tariffs/${id}`)).body.data.name).toBe('Yearly');
    const edited = await admin.put(`/tariffs/${id}`, { name: 'Yearly', months: 12, credits: 9, server_id: server, active: false });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ credits: 9, active: false });

    const list = await admin.get('/tariffs?search=year');
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { id: number }) => t.id)).toEqual([id]);
    expect(list.body.meta.total).toBe(1);

    expect((await admin.delete(`/tariffs/${id}`)).status).toBe(204);
    expect((await admin.get(`/tariffs/${id}`)).status).toBe(404);
  });

  it('answers 422 under the field whose bound is violated, with the contract message', async () => {
    const admin = await ctx.as('admin');
    const server = (await ctx.db.kysely.selectFrom('servers').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const res = await admin.post('/tariffs', { name: 'Too long', months: 121, credits: 10, server_id: server });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ months: [FIELD_RULES.between('Months', 1, 120)] });
  });

  it('is for admin only', async () => {
    for (const role of ['manager', 'reseller', 'dealer']) {
      const client = await ctx.as(role);
      expect([403, 404], role).toContain((await client.get('/tariffs')).status);
      expect([403, 404], role).toContain((await client.post('/tariffs', { name: 'X' })).status);
    }
    expect((await ctx.anonymous.get('/tariffs')).status).toBe(401);
  });
});
