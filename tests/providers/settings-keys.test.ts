import axios, { type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it } from 'vitest';
import { SETTINGS, SETTING_KEYS, SYSTEM_SETTING_DEFAULTS } from '../../src/contract';
import { fetchSystemSettings, settingEndpoint, updateSystemSetting } from '../../src/providers/systemSettings';

/** An axios instance that records each request and answers the settings object. */
function fakeHttp() {
  const calls: Array<{ method: string; url: string; body: unknown }> = [];
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    calls.push({ method: config.method ?? '', url: config.url ?? '', body: config.data ? JSON.parse(config.data as string) : undefined });
    return { data: { ...SYSTEM_SETTING_DEFAULTS, trial_days: 30 }, status: 200, statusText: 'OK', headers: {}, config };
  };
  return { http: axios.create({ baseURL: '/api/v1', adapter }), calls };
}

// Spec section 7, written out here so a change to the contract table cannot pass unnoticed.
const SPEC_KEYS: Record<string, string> = {
  'trial-days': 'trial_days',
  'default-credits': 'default_credits',
  'minimum-credit-limit': 'minimum_credit_limit',
  'minimum-credits-reseller-creation': 'minimum_credits_reseller_creation',
  'minimum-credits-dealer-creation': 'minimum_credits_dealer_creation',
  'minimum-credits-trial-user-creation': 'minimum_credits_trial_user_creation',
  'trials-enabled': 'enable_trials',
  'promos-enabled': 'enable_promos',
  'reseller-dealer-promos-enabled': 'enable_reseller_dealer_promos',
  'global-discounts-enabled': 'global_discounts_enabled',
  'maintenance-mode': 'maintenance_mode',
};

describe('system settings key mapping', () => {
  it('covers exactly the eleven keys of spec section 7', () => {
    expect(Object.keys(SETTING_KEYS).sort()).toEqual(Object.keys(SPEC_KEYS).sort());
    expect(Object.values(SPEC_KEYS).sort()).toEqual(Object.keys(SYSTEM_SETTING_DEFAULTS).sort());
  });

  for (const [key, field] of Object.entries(SPEC_KEYS)) {
    it(`${key} maps to the field ${field} and PUT /system-settings/${key}, by key or by field`, () => {
      for (const name of [key, field]) {
        const endpoint = settingEndpoint(name);
        expect(endpoint.key).toBe(key);
        expect(endpoint.field).toBe(field);
        expect(endpoint.path).toBe(`system-settings/${key}`);
      }
    });

    it(`updating ${field} sends one PUT with only that body field`, async () => {
      const { http, calls } = fakeHttp();
      const value = typeof SYSTEM_SETTING_DEFAULTS[field as keyof typeof SYSTEM_SETTING_DEFAULTS] === 'boolean' ? false : 5;
      const answer = await updateSystemSetting(field, value, http);
      expect(calls).toEqual([{ method: 'put', url: `system-settings/${key}`, body: { [field]: value } }]);
      expect(answer.trial_days).toBe(30);
    });
  }

  it('raises Unknown setting key for anything else, without calling the API', async () => {
    for (const name of ['', 'trial', 'trial-day', 'TRIAL_DAYS', 'system', 'toString', '__proto__', 'enable-trials']) {
      expect(() => settingEndpoint(name)).toThrow(SETTINGS.unknownKey);
    }
    const { http, calls } = fakeHttp();
    await expect(updateSystemSetting('no-such-setting', 1, http)).rejects.toThrow(SETTINGS.unknownKey);
    expect(calls).toHaveLength(0);
  });

  it('reads the settings object from GET /system-settings', async () => {
    const { http, calls } = fakeHttp();
    const settings = await fetchSystemSettings(http);
    expect(calls).toEqual([{ method: 'get', url: 'system-settings', body: undefined }]);
    expect(settings).toEqual({ ...SYSTEM_SETTING_DEFAULTS, trial_days: 30 });
  });
});
