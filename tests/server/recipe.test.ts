/**
 * A throwaway resource added by the README's "Adding a resource" recipe (tests/recipe/tariffs): its
 * contract, migration and server declaration are enough for CRUD over HTTP, the contract's 422 per
 * field, and admin-only access by the role matrix.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { FIELD_RULES, PERMISSIONS } from '../../src/contract';
import { apiModules } from '../../server/routes';
import { tariffAccess } from '../recipe/tariffs/contract';
import { up } from '../recipe/tariffs/migration';
import tariffRoutes from '../recipe/tariffs/server';
import { describeEachDatabase } from './harness';

// The two registration lines of the recipe: the role matrix entry and the API module.
Object.assign(PERMISSIONS, { tariffs: tariffAccess });
apiModules.push(tariffRoutes);

it('takes at most 5 files and about 100 lines', () => {
  const dir = path.join(__dirname, '../recipe/tariffs');
  const files = fs.readdirSync(dir);
  expect(files.length).toBeLessThanOrEqual(5);
  const lines = files.reduce((n, f) => n + fs.readFileSync(path.join(dir, f), 'utf8').split('\n').length, 0);
  expect(lines).toBeLessThanOrEqual(110);
});

describeEachDatabase('a resource added by the recipe', (ctx) => {
  beforeAll(async () => {
    await up(ctx.db.kysely, ctx.db.dialect === 'postgres');
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
