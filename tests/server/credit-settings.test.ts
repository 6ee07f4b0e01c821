import { expect, it } from 'vitest';
import {
  CREDIT_LEVELS_DEFAULTS,
  CREDIT_OPTIONS_DEFAULTS,
  FIELD_RULES,
  creditLevels,
  defaultCreditOptionsSettings,
  fallbackCreditOptions,
  generateCreditOptions,
} from '../../src/contract';
import { getCreditLevels, getCreditOptionsSettings } from '../../server/settings';
import { describeEachDatabase } from './harness';

describeEachDatabase('credit levels', (ctx) => {
  it('answers the defaults with the preview of up to 21 levels', async () => {
    const res = await (await ctx.as('admin')).get('/credit-levels');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(CREDIT_LEVELS_DEFAULTS);
    expect(res.body.preview).toEqual(creditLevels({ ...CREDIT_LEVELS_DEFAULTS }));
    expect(res.body.preview).toHaveLength(21);
    expect(res.body.preview[0]).toEqual({ value: 1, display_text: '1 credit', bonus_credits: 0, total_credits: 1 });
    for (const username of ['manager', 'reseller', 'dealer']) {
      const client = await ctx.as(username);
      expect((await client.get('/credit-levels')).status).toBe(403);
      expect((await client.put('/credit-levels', { step: 5 })).status).toBe(403);
    }
  });

  it('saves the configuration (fields left out keep their value) and previews bonus = round(base x ratio)', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.put('/credit-levels', { minimum: 100, step: '50', promo_ratio: 0.15 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...CREDIT_LEVELS_DEFAULTS, minimum: 100, step: 50, promo_ratio: 0.15 });
    expect(res.body.preview).toHaveLength(21);
    expect(res.body.preview.slice(0, 3)).toEqual([
      { value: 100, display_text: '100 credits + 15 bonus', bonus_credits: 15, total_credits: 115 },
      { value: 150, display_text: '150 credits + 23 bonus', bonus_credits: 23, total_credits: 173 },
      { value: 200, display_text: '200 credits + 30 bonus', bonus_credits: 30, total_credits: 230 },
    ]);
    expect((await admin.get('/credit-levels')).body).toEqual(res.body);
    // The credits module reads the same configuration.
    expect(await getCreditLevels(ctx.db.kysely)).toEqual(res.body.data);

    const off = await admin.put('/credit-levels', { promo_enabled: false, maximum: 300 });
    expect(off.body.preview.map((l: { value: number; bonus_credits: number }) => [l.value, l.bonus_credits])).toEqual([
      [100, 0],
      [150, 0],
      [200, 0],
      [250, 0],
      [300, 0],
    ]);
    const audit = await ctx.db.kysely.selectFrom('audit_logs').select('new_values').where('module', '=', 'credit_levels').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.new_values!)).toMatchObject({ promo_enabled: false, maximum: 300 });
  });

  it('refuses out-of-bounds values and a maximum below the minimum, changing nothing', async () => {
    const admin = await ctx.as('admin');
    const before = (await admin.get('/credit-levels')).body;
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ minimum: 0 }, { minimum: [FIELD_RULES.atLeast('Minimum', 1)] }],
      [{ step: 0 }, { step: [FIELD_RULES.atLeast('Step', 1)] }],
      [{ step: 2.5 }, { step: [FIELD_RULES.atLeast('Step', 1)] }],
      [{ maximum: 'many' }, { maximum: [FIELD_RULES.atLeast('Maximum', 1)] }],
      [{ promo_ratio: 1.01 }, { promo_ratio: [FIELD_RULES.between('Promo ratio', 0, 1)] }],
      [{ promo_ratio: -0.1 }, { promo_ratio: [FIELD_RULES.between('Promo ratio', 0, 1)] }],
      [{ promo_enabled: 'sometimes' }, { promo_enabled: [FIELD_RULES.boolean('Promo enabled')] }],
      [{ minimum: 500, maximum: 499 }, { maximum: [FIELD_RULES.notBelow('Maximum', 'minimum')] }],
    ];
    for (const [body, errors] of cases) {
      const res = await admin.put('/credit-levels', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors, JSON.stringify(body)).toEqual(errors);
    }
    expect((await admin.get('/credit-levels')).body).toEqual(before);
    expect((await admin.put('/credit-levels', [])).status).toBe(422);
  });
});

describeEachDatabase('credit options settings', (ctx) => {
  it('answers the defaults under data, to admin only', async () => {
    const res = await (await ctx.as('admin')).get('/credit-options-settings');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(CREDIT_OPTIONS_DEFAULTS);
    for (const username of ['manager', 'reseller', 'dealer']) {
      const client = await ctx.as(username);
      expect((await client.get('/credit-options-settings')).status).toBe(403);
      expect((await client.post('/credit-options-settings/test', { user_credits: 10 })).status).toBe(403);
      expect((await client.post('/credit-options-settings/reset')).status).toBe(403);
    }
  });

  it('saves lists sent as arrays or comma-separated text, deduplicated and ascending', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.put('/credit-options-settings', {
      min_credits: '5',
      max_credits: 5000,
      increment_step: 5,
      preset_amounts: '100, 5, 20,20 ,50',
      percentage_options: [50, '10'],
      enable_all_available_option: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...CREDIT_OPTIONS_DEFAULTS,
      min_credits: 5,
      max_credits: 5000,
      increment_step: 5,
      preset_amounts: [5, 20, 50, 100],
      percentage_options: [10, 50],
      enable_all_available_option: false,
    });
    expect((await admin.get('/credit-options-settings')).body.data).toEqual(res.body.data);
    // The credits module reads the same settings.
    expect(await getCreditOptionsSettings(ctx.db.kysely)).toEqual(res.body.data);
    const partial = await admin.put('/credit-options-settings', { enable_percentage_options: '0' });
    expect(partial.body.data).toEqual({ ...res.body.data, enable_percentage_options: false });
  });

  it('refuses out-of-bounds values with the field named, changing nothing', async () => {
    const admin = await ctx.as('admin');
    const before = (await admin.get('/credit-options-settings')).body.data;
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ min_credits: 0 }, { min_credits: [FIELD_RULES.between('Min credits', 1, 100_000)] }],
      [{ min_credits: 100_001, max_credits: 1_000_000 }, { min_credits: [FIELD_RULES.between('Min credits', 1, 100_000)] }],
      [{ max_credits: 1_000_001 }, { max_credits: [FIELD_RULES.between('Max credits', 1, 1_000_000)] }],
      [{ increment_step: 0 }, { increment_step: [FIELD_RULES.between('Increment step', 1, 10_000)] }],
      [{ increment_step: 10_001 }, { increment_step: [FIELD_RULES.between('Increment step', 1, 10_000)] }],
      [{ preset_amounts: '10, abc' }, { preset_amounts: [FIELD_RULES.positiveIntegers('Preset amounts')] }],
      [{ preset_amounts: [10, 0] }, { preset_amounts: [FIELD_RULES.positiveIntegers('Preset amounts')] }],
      [{ preset_amounts: '10,,20' }, { preset_amounts: [FIELD_RULES.positiveIntegers('Preset amounts')] }],
      [{ percentage_options: '50, 150' }, { percentage_options: [FIELD_RULES.between('Percentages', 1, 100)] }],
      [{ percentage_options: 25 }, { percentage_options: [FIELD_RULES.between('Percentages', 1, 100)] }],
      [{ is_active: 'on' }, { is_active: [FIELD_RULES.boolean('Active')] }],
      [{ min_credits: 500, max_credits: 100 }, { max_credits: [FIELD_RULES.notBelow('Max credits', 'min credits')] }],
    ];
    for (const [body, errors] of cases) {
      const res = await admin.put('/credit-options-settings', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors, JSON.stringify(body)).toEqual(errors);
    }
    expect((await admin.get('/credit-options-settings')).body.data).toEqual(before);
  });

  it('tests what a giver would be offered with the stored settings', async () => {
    const admin = await ctx.as('admin');
    await admin.post('/credit-options-settings/reset');
    const res = await admin.post('/credit-options-settings/test', { user_credits: 1000 });
    expect(res.status).toBe(200);
    const expected = generateCreditOptions(defaultCreditOptionsSettings(), 1000);
    expect(res.body.data).toEqual({ options_count: expected.length, user_credits: 1000, generated_options: expected });
    expect(res.body.data.generated_options).toEqual([10, 25, 50, 100, 200, 250, 500, 750, 1000]);

    // Defaults to 1000 credits (CREDIT_OPTIONS_TEST_DEFAULT) when none is sent.
    expect((await admin.post('/credit-options-settings/test', {})).body.data.user_credits).toBe(1000);
    for (const user_credits of [0, 1_000_001, 'lots', 2.5]) {
      const bad = await admin.post('/credit-options-settings/test', { user_credits });
      expect(bad.status, String(user_credits)).toBe(422);
      expect(bad.body.errors).toEqual({ user_credits: [FIELD_RULES.between('Test credits', 1, 1_000_000)] });
    }

    // The settings drive the result: a new step and presets, then the inactive fallback.
    await admin.put('/credit-options-settings', { preset_amounts: '30, 60', percentage_options: '50', increment_step: 25 });
    expect((await admin.post('/credit-options-settings/test', { user_credits: 130 })).body.data.generated_options).toEqual([30, 50, 60, 130]);
    await admin.put('/credit-options-settings', { is_active: false });
    const fallback = await admin.post('/credit-options-settings/test', { user_credits: 40 });
    expect(fallback.body.data).toEqual({ options_count: 7, user_credits: 40, generated_options: fallbackCreditOptions(40) });
  });

  it('resets to the contract defaults', async () => {
    const admin = await ctx.as('admin');
    await admin.put('/credit-options-settings', { min_credits: 77, is_active: false, preset_amounts: [77] });
    const res = await admin.post('/credit-options-settings/reset');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(CREDIT_OPTIONS_DEFAULTS);
    expect((await admin.get('/credit-options-settings')).body.data).toEqual(CREDIT_OPTIONS_DEFAULTS);
    const audit = await ctx.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'old_values'])
      .where('module', '=', 'credit_options_settings')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('reset');
    expect(JSON.parse(audit.old_values!)).toMatchObject({ min_credits: 77, is_active: false });
  });
});
