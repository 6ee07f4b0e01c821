import { expect, it } from 'vitest';
import { ENTITY_FORM, FIELD_RULES, PROMOS, SERVER_FORM } from '../../src/contract';
import { type TestContext, describeEachDatabase } from './harness';

const serverId = async (ctx: TestContext, name: string) => (await ctx.db.kysely.selectFrom('servers').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

describeEachDatabase('user promos', (ctx) => {
  it('validates with the contract messages', async () => {
    const admin = await ctx.as('admin');
    const empty = await admin.post('/user-promos', {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({
      name: [ENTITY_FORM.nameRequired],
      server_id: [PROMOS.serverRequired],
      credits_required: [PROMOS.creditsRequiredMin],
      bonus_credits: [PROMOS.bonusCreditsMin],
    });
    const main = await serverId(ctx, 'Main Server');
    for (const [field, value, message] of [
      ['credits_required', 0, PROMOS.creditsRequiredMin],
      ['credits_required', 1.5, PROMOS.creditsRequiredMin],
      ['credits_required', 'ten', PROMOS.creditsRequiredMin],
      ['bonus_credits', -3, PROMOS.bonusCreditsMin],
      ['bonus_credits', '', PROMOS.bonusCreditsMin],
      ['credits_required', 1_000_001, FIELD_RULES.between('Credits required', 1, 1_000_000)],
      ['server_id', null, PROMOS.serverRequired],
    ] as const) {
      const res = await admin.post('/user-promos', { name: 'P', server_id: main, credits_required: 10, bonus_credits: 2, [field]: value });
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(res.body.errors, `${field}=${value}`).toEqual({ [field]: [message] });
    }
    const unknownServer = await admin.post('/user-promos', { name: 'P', server_id: 999999, credits_required: 10, bonus_credits: 2 });
    expect(unknownServer.status).toBe(422);
    expect(unknownServer.body.errors).toEqual({ server_id: [SERVER_FORM.selectedInvalid] });
  });

  it('creates a promo with its server and total credits; numbers may arrive as text', async () => {
    const admin = await ctx.as('admin');
    const main = await serverId(ctx, 'Main Server');
    const res = await admin.post('/user-promos', { name: 'Buy 100 get 20', description: 'Spring', server_id: String(main), credits_required: '100', bonus_credits: 20 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Buy 100 get 20',
      description: 'Spring',
      server_id: main,
      server: { id: main, name: 'Main Server' },
      credits_required: 100,
      bonus_credits: 20,
      total_credits: 120,
      is_active: true,
    });
    expect((await admin.get(`/user-promos/${res.body.data.id}`)).body.data).toEqual(res.body.data);
    const audit = await ctx.db.kysely.selectFrom('audit_logs').select('action').where('module', '=', 'user_promos').where('entity_id', '=', res.body.data.id).execute();
    expect(audit.map((a) => a.action)).toEqual(['create']);
  });

  it('lists promos under `promos` with meta, filtered by server and status', async () => {
    const admin = await ctx.as('admin');
    const main = await serverId(ctx, 'Main Server');
    const backup = await serverId(ctx, 'Backup Server');
    await admin.post('/user-promos', { name: 'Backup 50+5', server_id: backup, credits_required: 50, bonus_credits: 5, is_active: false });
    await admin.post('/user-promos', { name: 'Main 500+150', server_id: main, credits_required: 500, bonus_credits: 150 });

    const all = await admin.get('/user-promos?per_page=50');
    expect(all.status).toBe(200);
    expect(all.body).not.toHaveProperty('data');
    expect(all.body.meta.total).toBe(all.body.promos.length);
    const byBackup = await admin.get(`/user-promos?filter[server_id]=${backup}`);
    expect(byBackup.body.promos.map((p: { name: string }) => p.name)).toEqual(['Backup 50+5']);
    expect(byBackup.body.promos[0]).toMatchObject({ server: { id: backup, name: 'Backup Server' }, total_credits: 55, is_active: false });
    const active = await admin.get('/user-promos?filter[is_active]=1&sort=credits_required&order=desc');
    expect(active.body.promos.every((p: { is_active: boolean }) => p.is_active)).toBe(true);
    expect(active.body.promos[0].credits_required).toBe(500);
    expect((await admin.get('/user-promos?filter[server_id]=abc')).status).toBe(422);

    for (const username of ['manager', 'reseller', 'dealer']) {
      expect((await (await ctx.as(username)).get('/user-promos')).status).toBe(403);
      expect((await (await ctx.as(username)).post('/user-promos', {})).status).toBe(403);
    }
  });

  it('updates and deletes a promo', async () => {
    const admin = await ctx.as('admin');
    const main = await serverId(ctx, 'Main Server');
    const backup = await serverId(ctx, 'Backup Server');
    const { id } = (await admin.post('/user-promos', { name: 'Temp', server_id: main, credits_required: 10, bonus_credits: 1 })).body.data;
    const updated = await admin.put(`/user-promos/${id}`, { name: 'Temp 2', server_id: backup, credits_required: 30, bonus_credits: 7, is_active: false });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Temp 2', server: { id: backup, name: 'Backup Server' }, total_credits: 37, is_active: false });
    const invalid = await admin.put(`/user-promos/${id}`, { name: 'Temp 2', server_id: backup, credits_required: 0, bonus_credits: 7 });
    expect(invalid.body.errors).toEqual({ credits_required: [PROMOS.creditsRequiredMin] });

    expect((await admin.delete(`/user-promos/${id}`)).status).toBe(204);
    expect((await admin.get(`/user-promos/${id}`)).status).toBe(404);
    expect((await admin.delete(`/user-promos/${id}`)).status).toBe(404);
    const audit = await ctx.db.kysely.selectFrom('audit_logs').select('action').where('module', '=', 'user_promos').where('entity_id', '=', id).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });
});
