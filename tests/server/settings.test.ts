import { describe, expect, it } from 'vitest';
import {
  ACCESS,
  FIELD_RULES,
  SETTING_KEYS,
  SETTINGS,
  SYSTEM_SETTING_DEFAULTS,
  type SettingDef,
  type SettingKey,
  isSettingKey,
  settingKeyOf,
  settingNumberOrFallback,
} from '../../src/contract';
import { getSystemSettings } from '../../server/settings';
import { describeEachDatabase } from './harness';

const KEYS = Object.keys(SETTING_KEYS) as SettingKey[];
const def = (key: SettingKey): SettingDef => SETTING_KEYS[key];

describe('settings key table (contract)', () => {
  it('maps the settings keys, the two trial limits and the two-factor rules one to one onto the settings fields', () => {
    expect(KEYS).toEqual([
      'trial-days',
      'default-credits',
      'minimum-credit-limit',
      'minimum-credits-reseller-creation',
      'minimum-credits-dealer-creation',
      'minimum-credits-trial-user-creation',
      'trial-period-days',
      'trials-per-day',
      'trials-enabled',
      'promos-enabled',
      'reseller-dealer-promos-enabled',
      'global-discounts-enabled',
      'maintenance-mode',
      'two-factor-admin',
      'two-factor-manager',
      'two-factor-reseller',
      'two-factor-dealer',
      'view-as-can-act',
    ]);
    expect(KEYS.map((k) => def(k).field).sort()).toEqual(Object.keys(SYSTEM_SETTING_DEFAULTS).sort());
    for (const key of KEYS) expect(settingKeyOf(def(key).field)).toBe(key);
    expect(isSettingKey('trial-days')).toBe(true);
    expect(isSettingKey('trial_days')).toBe(false);
    expect(isSettingKey('toString')).toBe(false);
  });

  it('carries the settings bounds and the number fallbacks', () => {
    expect(SETTING_KEYS['trial-days']).toMatchObject({ min: 1, max: 365, fallback: 7 });
    expect(SETTING_KEYS['default-credits']).toMatchObject({ min: 1, max: 1000, fallback: 1 });
    for (const key of ['minimum-credit-limit', 'minimum-credits-reseller-creation', 'minimum-credits-dealer-creation', 'minimum-credits-trial-user-creation'] as const) {
      expect(SETTING_KEYS[key]).toMatchObject({ type: 'int', min: 0, max: 1000 });
    }
    expect(settingNumberOrFallback('trial-days', 'abc')).toBe(7);
    expect(settingNumberOrFallback('trial-days', '')).toBe(7);
    expect(settingNumberOrFallback('trial-days', '30')).toBe(30);
    expect(settingNumberOrFallback('default-credits', undefined)).toBe(1);
    expect(settingNumberOrFallback('default-credits', 3)).toBe(3);
  });

  it('bounds the trial limits: a period of 1-3650 days (default 30), 0-1000 trials per day (default 20)', () => {
    expect(SETTING_KEYS['trial-period-days']).toMatchObject({ field: 'trial_period_days', type: 'int', min: 1, max: 3650, fallback: 30 });
    expect(SETTING_KEYS['trials-per-day']).toMatchObject({ field: 'trials_per_day', type: 'int', min: 0, max: 1000, fallback: 20 });
    expect(SYSTEM_SETTING_DEFAULTS).toMatchObject({ trial_period_days: 30, trials_per_day: 20 });
  });
});

describeEachDatabase('system settings', (ctx) => {
  it('answers the defaults on a fresh database, to admin only', async () => {
    const res = await (await ctx.as('admin')).get('/system-settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SYSTEM_SETTING_DEFAULTS);
    for (const username of ['manager', 'reseller', 'dealer']) {
      const client = await ctx.as(username);
      expect((await client.get('/system-settings')).status).toBe(403);
      expect((await client.put('/system-settings/trial-days', { trial_days: 10 })).status).toBe(403);
    }
    expect((await ctx.anonymous.get('/system-settings')).status).toBe(401);
  });

  it('changes only the named setting on each per-key PUT, and audits it', async () => {
    const admin = await ctx.as('admin');
    for (const key of KEYS) {
      // Their effects have tests of their own (a two-factor rule would hold the admin to enrol).
      if (key === 'maintenance-mode' || key.startsWith('two-factor-')) continue;
      const d = def(key);
      const before = (await admin.get('/system-settings')).body;
      const value = d.type === 'int' ? (before[d.field] === d.max ? d.min : d.max) : !before[d.field];
      const res = await admin.put(`/system-settings/${key}`, { trial_days: 99, default_credits: 99, [d.field]: value });
      expect(res.status, key).toBe(200);
      expect(res.body, key).toEqual({ ...before, [d.field]: value });
      expect((await admin.get('/system-settings')).body, key).toEqual({ ...before, [d.field]: value });
      // Other modules read the same values through server/settings.ts.
      expect((await getSystemSettings(ctx.db.kysely))[d.field], key).toBe(value);
      const audit = await ctx.db.kysely
        .selectFrom('audit_logs')
        .select(['old_values', 'new_values', 'username'])
        .where('module', '=', 'system_settings')
        .where('description', '=', `Updated setting ${key}`)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(audit.username).toBe('admin');
      expect(JSON.parse(audit.old_values!)).toEqual({ [d.field]: before[d.field] });
      expect(JSON.parse(audit.new_values!)).toEqual({ [d.field]: value });
    }
  });

  it('refuses values outside the bounds with a 422 on the field, and changes nothing', async () => {
    const admin = await ctx.as('admin');
    const before = (await admin.get('/system-settings')).body;
    for (const key of KEYS) {
      const d = def(key);
      const message = d.type === 'int' ? FIELD_RULES.between(d.label, d.min, d.max) : FIELD_RULES.boolean(d.label);
      const bad = d.type === 'int' ? [d.min - 1, d.max + 1, 1.5, 'abc', '', null, true] : ['maybe', 2, null, 'yes'];
      for (const value of [...bad, undefined]) {
        const res = await admin.put(`/system-settings/${key}`, value === undefined ? {} : { [d.field]: value });
        expect(res.status, `${key}=${JSON.stringify(value)}`).toBe(422);
        expect(res.body.errors, `${key}=${JSON.stringify(value)}`).toEqual({ [d.field]: [message] });
      }
    }
    expect((await admin.get('/system-settings')).body).toEqual(before);
  });

  it('accepts the bounds themselves and form-typed values (numeric text, 1/0)', async () => {
    const admin = await ctx.as('admin');
    expect((await admin.put('/system-settings/trial-days', { trial_days: 1 })).body.trial_days).toBe(1);
    expect((await admin.put('/system-settings/trial-days', { trial_days: '365' })).body.trial_days).toBe(365);
    expect((await admin.put('/system-settings/minimum-credit-limit', { minimum_credit_limit: 0 })).body.minimum_credit_limit).toBe(0);
    expect((await admin.put('/system-settings/default-credits', { default_credits: 1000 })).body.default_credits).toBe(1000);
    expect((await admin.put('/system-settings/trials-enabled', { enable_trials: 0 })).body.enable_trials).toBe(false);
    expect((await admin.put('/system-settings/trials-enabled', { enable_trials: 'true' })).body.enable_trials).toBe(true);
  });

  it('refuses bad trial limits with a 422 on their own field, and keeps them', async () => {
    const admin = await ctx.as('admin');
    const before = (await admin.get('/system-settings')).body;
    const cases = [
      ['trial-period-days', 'trial_period_days', FIELD_RULES.between('Trial period days', 1, 3650), ['abc', '', ' ', -1, 0, 3651, 1e9, 2.5, '7 days', null, true, [30]]],
      ['trials-per-day', 'trials_per_day', FIELD_RULES.between('Trials per day', 0, 1000), ['abc', '', -1, 1001, 1e9, 0.5, '1e3', null, false, { n: 1 }]],
    ] as const;
    for (const [key, field, message, values] of cases) {
      for (const value of values) {
        const res = await admin.put(`/system-settings/${key}`, { [field]: value });
        expect(res.status, `${key}=${JSON.stringify(value)}`).toBe(422);
        expect(res.body.errors, `${key}=${JSON.stringify(value)}`).toEqual({ [field]: [message] });
      }
    }
    expect((await admin.get('/system-settings')).body).toEqual(before);
    expect((await admin.put('/system-settings/trial-period-days', { trial_period_days: '3650' })).body.trial_period_days).toBe(3650);
    expect((await admin.put('/system-settings/trials-per-day', { trials_per_day: 0 })).body.trials_per_day).toBe(0);
    expect((await getSystemSettings(ctx.db.kysely)).trials_per_day).toBe(0);
    await admin.put('/system-settings/trial-period-days', { trial_period_days: SYSTEM_SETTING_DEFAULTS.trial_period_days });
    await admin.put('/system-settings/trials-per-day', { trials_per_day: SYSTEM_SETTING_DEFAULTS.trials_per_day });
  });

  it("answers an unknown key with 422 'Unknown setting key'", async () => {
    const admin = await ctx.as('admin');
    for (const key of ['trial_days', 'colour', 'TRIAL-DAYS', '1']) {
      const res = await admin.put(`/system-settings/${key}`, { trial_days: 5 });
      expect(res.status, key).toBe(422);
      expect(res.body).toEqual({ message: SETTINGS.unknownKey, errors: { key: [SETTINGS.unknownKey] } });
    }
  });

  it('keeps concurrent saves of different settings', async () => {
    const admin = await ctx.as('admin');
    await Promise.all([
      admin.put('/system-settings/minimum-credits-reseller-creation', { minimum_credits_reseller_creation: 11 }),
      admin.put('/system-settings/minimum-credits-dealer-creation', { minimum_credits_dealer_creation: 22 }),
      admin.put('/system-settings/minimum-credits-trial-user-creation', { minimum_credits_trial_user_creation: 33 }),
      admin.put('/system-settings/minimum-credit-limit', { minimum_credit_limit: 44 }),
    ]);
    expect((await admin.get('/system-settings')).body).toMatchObject({
      minimum_credits_reseller_creation: 11,
      minimum_credits_dealer_creation: 22,
      minimum_credits_trial_user_creation: 33,
      minimum_credit_limit: 44,
    });
  });

  it('maintenance mode: non-admin calls answer 503, admin keeps working, /config reports it', async () => {
    const admin = await ctx.as('admin');
    // Signed in before: a session that was open when maintenance began.
    for (const username of ['manager', 'reseller', 'dealer']) await ctx.as(username);
    const on = await admin.put('/system-settings/maintenance-mode', { maintenance_mode: true });
    expect(on.body.maintenance_mode).toBe(true);
    try {
      expect((await ctx.anonymous.get('/config')).body.maintenance_mode).toBe(true);
      for (const username of ['manager', 'reseller', 'dealer']) {
        const client = await ctx.as(username);
        for (const url of ['/servers/public', '/ticket-categories-active']) {
          const res = await client.get(url);
          expect(res.status, `${username} ${url}`).toBe(503);
          expect(res.body).toEqual({ message: ACCESS.maintenance });
        }
        // Who am I still answers, so the panel can show its maintenance page to a signed-in user.
        expect((await client.get('/user')).status).toBe(200);
      }
      expect((await admin.get('/system-settings')).status).toBe(200);
      expect((await admin.get('/servers')).status).toBe(200);
      expect((await admin.put('/system-settings/trial-days', { trial_days: 14 })).status).toBe(200);
    } finally {
      const off = await admin.put('/system-settings/maintenance-mode', { maintenance_mode: false });
      expect(off.body.maintenance_mode).toBe(false);
    }
    expect((await ctx.anonymous.get('/config')).body.maintenance_mode).toBe(false);
    expect((await (await ctx.as('dealer')).get('/servers/public')).status).toBe(200);
  });

  it('maintenance mode: a non-admin sign-in gets the maintenance answer and no session; a wrong password still reads as one', async () => {
    const admin = await ctx.as('admin');
    await admin.put('/system-settings/maintenance-mode', { maintenance_mode: true });
    try {
      for (const username of ['manager2', 'reseller2', 'dealer2']) {
        const res = await ctx.anonymous.post('/login', { username, password: 'password123' });
        expect(res.status, username).toBe(503);
        // The message alone: no token, no user.
        expect(res.body).toEqual({ message: ACCESS.maintenance });
        // The seeded siblings are not demo users: a wrong password is refused as ever, before maintenance is said.
        const wrong = await ctx.anonymous.post('/login', { username, password: 'not-the-password' });
        expect(wrong.status, username).toBe(422);
        expect(wrong.body.message).not.toBe(ACCESS.maintenance);
      }
      const unknown = await ctx.anonymous.post('/login', { username: 'nobody-here', password: 'password123' });
      expect(unknown.status).toBe(422);
      // Administrators sign in as ever, to turn it off.
      const signIn = await ctx.anonymous.post('/login', { username: 'admin', password: 'password123' });
      expect(signIn.status).toBe(200);
      expect(signIn.body.token).toEqual(expect.any(String));
    } finally {
      await admin.put('/system-settings/maintenance-mode', { maintenance_mode: false });
    }
    expect((await ctx.anonymous.post('/login', { username: 'dealer2', password: 'password123' })).status).toBe(200);
  });

  it('maintenance mode: only an admin may switch it (a non-admin gets 403 and nothing changes)', async () => {
    for (const username of ['manager', 'reseller', 'dealer']) {
      const res = await (await ctx.as(username)).put('/system-settings/maintenance-mode', { maintenance_mode: true });
      expect(res.status, username).toBe(403);
    }
    expect((await ctx.anonymous.get('/config')).body.maintenance_mode).toBe(false);
  });
});
