import { expect, it } from 'vitest';
import { DISCOUNT_FORM, ENTITY_FORM, FIELD_RULES, GLOBAL_DISCOUNTS, GLOBAL_DISCOUNT_DEFAULTS, PROMOS, SERVER_FORM } from '../../src/contract';
import { type TestContext, describeEachDatabase } from './harness';

const serverId = async (ctx: TestContext, name: string) => (await ctx.db.kysely.selectFrom('servers').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

describeEachDatabase('global discounts', (ctx) => {
  const valid = async (overrides: Record<string, unknown> = {}) => ({
    name: 'Yearly deal',
    server_id: await serverId(ctx, 'Main Server'),
    validity_months: GLOBAL_DISCOUNT_DEFAULTS.validity_months,
    credits_required: GLOBAL_DISCOUNT_DEFAULTS.credits_required,
    ...overrides,
  });

  it('creates a discount with the defaults, its server, uses and savings', async () => {
    const admin = await ctx.as('admin');
    const main = await serverId(ctx, 'Main Server');
    const res = await admin.post('/global-discounts', await valid());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Yearly deal',
      description: null,
      server_id: main,
      server: { id: main, name: 'Main Server' },
      validity_months: 12,
      credits_required: 9,
      discount_percentage: 0,
      is_active: true,
      valid_from: null,
      valid_until: null,
      max_uses: null,
      current_uses: 0,
      savings: 3,
      savings_percentage: 25,
    });
    expect((await admin.get(`/global-discounts/${res.body.data.id}`)).body.data).toEqual(res.body.data);
  });

  it('shows savings as validity_months - credits_required and its percentage to one decimal', async () => {
    const admin = await ctx.as('admin');
    for (const [validity_months, credits_required, savings, savings_percentage] of [
      [7, 5, 2, 28.6],
      [3, 2, 1, 33.3],
      [6, 6, 0, 0],
      [120, 1, 119, 99.2],
      [2, 3, -1, -50],
    ]) {
      const res = await admin.post('/global-discounts', await valid({ validity_months, credits_required }));
      expect(res.body.data, `${validity_months}/${credits_required}`).toMatchObject({ savings, savings_percentage });
    }
  });

  it('validates the form rules', async () => {
    const admin = await ctx.as('admin');
    const empty = await admin.post('/global-discounts', {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toMatchObject({
      name: [ENTITY_FORM.nameRequired],
      server_id: [GLOBAL_DISCOUNTS.selectServer],
      validity_months: [FIELD_RULES.between('Validity months', 1, 120)],
      credits_required: [PROMOS.creditsRequiredMin],
    });
    const cases: Array<[string, unknown, string]> = [
      ['validity_months', 0, FIELD_RULES.between('Validity months', 1, 120)],
      ['validity_months', 121, FIELD_RULES.between('Validity months', 1, 120)],
      ['validity_months', 2.5, FIELD_RULES.between('Validity months', 1, 120)],
      ['credits_required', 0, PROMOS.creditsRequiredMin],
      ['discount_percentage', 100.01, FIELD_RULES.between('Discount percentage', 0, 100)],
      ['discount_percentage', -1, FIELD_RULES.between('Discount percentage', 0, 100)],
      ['discount_percentage', 'lots', FIELD_RULES.between('Discount percentage', 0, 100)],
      ['max_uses', 0, FIELD_RULES.atLeast('Max uses', 1)],
      ['max_uses', 'x', FIELD_RULES.atLeast('Max uses', 1)],
      ['valid_from', 'not-a-date', FIELD_RULES.validDate],
      ['valid_until', '2025-13-45', FIELD_RULES.validDate],
      ['valid_from', '2030-02-30', FIELD_RULES.validDate],
      ['valid_until', 12, FIELD_RULES.validDate],
    ];
    for (const [field, value, message] of cases) {
      const res = await admin.post('/global-discounts', await valid({ [field]: value }));
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(res.body.errors, `${field}=${value}`).toEqual({ [field]: [message] });
    }
    const reversed = await admin.post('/global-discounts', await valid({ valid_from: '2030-06-01', valid_until: '2030-01-01' }));
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toEqual({ valid_until: [DISCOUNT_FORM.validUntilAfterFrom] });
    const unknownServer = await admin.post('/global-discounts', await valid({ server_id: 999999 }));
    expect(unknownServer.body.errors).toEqual({ server_id: [SERVER_FORM.selectedInvalid] });
  });

  it('keeps optional fields optional: empty max_uses is unlimited, dates bound whole days', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.post(
      '/global-discounts',
      await valid({ discount_percentage: 12.345, max_uses: '', valid_from: '2030-01-01', valid_until: '2030-01-31', description: 'Winter' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      discount_percentage: 12.35,
      max_uses: null,
      valid_from: '2030-01-01T00:00:00.000Z',
      valid_until: '2030-01-31T23:59:59.999Z',
      description: 'Winter',
    });
    const limited = await admin.post(
      '/global-discounts',
      await valid({ max_uses: '25', discount_percentage: null, valid_from: '2030-02-01T10:00:00+02:00', valid_until: null }),
    );
    expect(limited.body.data).toMatchObject({ max_uses: 25, discount_percentage: 0, valid_from: '2030-02-01T08:00:00.000Z', valid_until: null });
  });

  it('lists with the server, status and validity filters', async () => {
    const admin = await ctx.as('admin');
    const backup = await serverId(ctx, 'Backup Server');
    await admin.post('/global-discounts', await valid({ name: 'Backup six', server_id: backup, validity_months: 6, credits_required: 5, is_active: false }));
    const list = await admin.get('/global-discounts?per_page=50');
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(list.body.data.length);
    const byServer = await admin.get(`/global-discounts?filter[server_id]=${backup}`);
    expect(byServer.body.data.map((d: { name: string }) => d.name)).toEqual(['Backup six']);
    expect(byServer.body.data[0].server).toEqual({ id: backup, name: 'Backup Server' });
    const inactive = await admin.get('/global-discounts?filter[is_active]=false');
    expect(inactive.body.data.map((d: { name: string }) => d.name)).toEqual(['Backup six']);
    const six = await admin.get('/global-discounts?filter[validity_months]=6');
    expect(six.body.data.every((d: { validity_months: number }) => d.validity_months === 6)).toBe(true);
    expect((await admin.get('/global-discounts?filter[validity_months]=six')).status).toBe(422);
    expect((await admin.get('/global-discounts?filter[color]=red')).status).toBe(400);
    // These query parameters are also taken without the filter[...] wrapper (docs/api.md#lists).
    const plain = await admin.get(`/global-discounts?server_id=${backup}&is_active=false&validity_months=6`);
    expect(plain.body.data.map((d: { name: string }) => d.name)).toEqual(['Backup six']);
    expect((await admin.get('/global-discounts?server_id=abc')).status).toBe(422);
    for (const username of ['manager', 'reseller', 'dealer']) {
      expect((await (await ctx.as(username)).get('/global-discounts')).status).toBe(403);
      expect((await (await ctx.as(username)).post('/global-discounts', await valid())).status).toBe(403);
    }
  });

  it('updates without touching current_uses, and deletes', async () => {
    const admin = await ctx.as('admin');
    const { id } = (await admin.post('/global-discounts', await valid({ name: 'Counted', max_uses: 10 }))).body.data;
    await ctx.db.kysely.updateTable('global_discounts').set({ current_uses: 4 }).where('id', '=', id).execute();
    const updated = await admin.put(
      `/global-discounts/${id}`,
      await valid({ name: 'Counted 2', validity_months: 24, credits_required: 20, max_uses: null, current_uses: 0 }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: 'Counted 2',
      validity_months: 24,
      credits_required: 20,
      max_uses: null,
      current_uses: 4,
      savings: 4,
      savings_percentage: 16.7,
    });
    expect((await admin.delete(`/global-discounts/${id}`)).status).toBe(204);
    expect((await admin.get(`/global-discounts/${id}`)).status).toBe(404);
    const audit = await ctx.db.kysely
      .selectFrom('audit_logs')
      .select('action')
      .where('module', '=', 'global_discounts')
      .where('entity_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });
});
