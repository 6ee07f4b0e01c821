import { Refine } from '@refinedev/core';
import { renderHook } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { SETTINGS, SETTING_KEYS, SYSTEM_SETTING_DEFAULTS } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { settingEndpoint, useSaveSystemSetting, useSystemSettings } from '../../src/providers/systemSettings';
import { waitFor } from './dom';
import { fakeHttp as fakeHttpLayer } from './fakeHttp';

/** The settings hooks over Refine's data provider on a fake HTTP layer that answers the settings object. */
function fakeHttp() {
  const fake = fakeHttpLayer().otherwise({ status: 200, body: { ...SYSTEM_SETTING_DEFAULTS, trial_days: 30 } });
  const wrapper = ({ children }: { children: ReactNode }) =>
    createElement(Refine, { dataProvider: createDataProvider(fake.http), options: { disableTelemetry: true } }, children);
  const calls = () => fake.requests.map((r) => ({ method: r.method.toLowerCase(), url: r.path, body: r.body }));
  const save = () => renderHook(() => useSaveSystemSetting(), { wrapper }).result.current.save;
  return { calls, save, wrapper };
}

// The settings keys and the trial limits, written out here so a change to the contract table cannot pass unnoticed.
const SPEC_KEYS: Record<string, string> = {
  'trial-days': 'trial_days',
  'default-credits': 'default_credits',
  'minimum-credit-limit': 'minimum_credit_limit',
  'minimum-credits-reseller-creation': 'minimum_credits_reseller_creation',
  'minimum-credits-dealer-creation': 'minimum_credits_dealer_creation',
  'minimum-credits-trial-user-creation': 'minimum_credits_trial_user_creation',
  // The trial limits (docs/domain.md#trials: one trial per device per period, trials per user per day).
  'trial-period-days': 'trial_period_days',
  'trials-per-day': 'trials_per_day',
  'trials-enabled': 'enable_trials',
  'promos-enabled': 'enable_promos',
  'reseller-dealer-promos-enabled': 'enable_reseller_dealer_promos',
  'global-discounts-enabled': 'global_discounts_enabled',
  'maintenance-mode': 'maintenance_mode',
  'two-factor-admin': 'two_factor_admin',
  'two-factor-manager': 'two_factor_manager',
  'two-factor-reseller': 'two_factor_reseller',
  'two-factor-dealer': 'two_factor_dealer',
  'view-as-can-act': 'view_as_can_act',
};

describe('system settings key mapping', () => {
  it('covers exactly the settings keys, the two trial limits, the two-factor rules and view-as', () => {
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
      const { calls, save } = fakeHttp();
      const value = typeof SYSTEM_SETTING_DEFAULTS[field as keyof typeof SYSTEM_SETTING_DEFAULTS] === 'boolean' ? false : 5;
      const answer = await save()(field, value);
      expect(calls()).toEqual([{ method: 'put', url: `system-settings/${key}`, body: { [field]: value } }]);
      expect(answer.trial_days).toBe(30);
    });
  }

  it('raises Unknown setting key for anything else, without calling the API', async () => {
    for (const name of ['', 'trial', 'trial-day', 'TRIAL_DAYS', 'system', 'toString', '__proto__', 'enable-trials']) {
      expect(() => settingEndpoint(name)).toThrow(SETTINGS.unknownKey);
    }
    const { calls, save } = fakeHttp();
    await expect(save()('no-such-setting', 1)).rejects.toThrow(SETTINGS.unknownKey);
    expect(calls()).toHaveLength(0);
  });

  it('reads the settings object from GET /system-settings', async () => {
    const { calls, wrapper } = fakeHttp();
    const { result } = renderHook(() => useSystemSettings(), { wrapper });
    await waitFor(() => expect(result.current.settings).toEqual({ ...SYSTEM_SETTING_DEFAULTS, trial_days: 30 }));
    expect(calls()).toEqual([{ method: 'get', url: 'system-settings', body: undefined }]);
  });
});
