/**
 * The admin configuration forms over a fake HTTP layer: System Settings, Credit Levels and Credit
 * Options Settings check with the contract's zod rules before any request, and put a server 422's
 * messages under the fields it names.
 */
import { waitFor } from './dom';
import { type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CREDIT_LEVELS, CREDIT_OPTIONS, FIELD_RULES, SETTINGS, SETTING_SWITCHES, SYSTEM_SETTING_DEFAULTS } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { CreditLevelsPage } from '../../src/resources/creditLevels/list';
import { CreditOptionsSettingsPage } from '../../src/resources/creditOptionsSettings/list';
import { SystemSettingsPage } from '../../src/resources/systemSettings/list';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
});

function renderPage(page: ReactNode) {
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const view = render(
    <App>
      <Refine dataProvider={createDataProvider(fake.http)} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
        {page}
      </Refine>
    </App>,
  );
  const input = (id: string) => view.baseElement.querySelector<HTMLInputElement>(`#${id}`)!;
  /** The text of the form item around a field: its label, input and the message under it. */
  const item = (id: string) => input(id).closest('.ant-form-item')?.textContent ?? '';
  const type = (id: string, value: string) => fireEvent.change(input(id), { target: { value } });
  const click = (name: string | RegExp) =>
    fireEvent.click(
      [...view.baseElement.querySelectorAll('button')].find((b) =>
        typeof name === 'string' ? (b.getAttribute('aria-label') ?? b.textContent) === name : name.test(b.textContent ?? ''),
      )!,
    );
  return { view, input, item, type, click };
}

/** The toasts as the user reads them (Refine's antd provider shows `description` as the title: see titled()). */
const toasts = () =>
  notify.mock.calls.map(([n]) => {
    const { type, message, description } = n as { type: string; message: string; description?: string };
    return description ? { type, title: description, body: message } : { type, title: message };
  });

describe('System Settings', { timeout: 30_000 }, () => {
  beforeEach(() => {
    fake.on('GET', 'system-settings', { status: 200, body: { ...SYSTEM_SETTING_DEFAULTS } });
  });

  it('checks a number against its bounds before any request, then saves only that setting', async () => {
    fake.on('PUT', /^system-settings\//, (r) => ({ status: 200, body: { ...SYSTEM_SETTING_DEFAULTS, ...(r.body as object) } }));
    const { input, item, type, click } = renderPage(<SystemSettingsPage />);
    await waitFor(() => expect(input('system-settings_trial_days').value).toBe('7'));

    type('system-settings_trial_days', '400');
    click('Save Trial Days');
    await waitFor(() => expect(item('system-settings_trial_days')).toContain(FIELD_RULES.between('Trial days', 1, 365)));
    expect(fake.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);

    type('system-settings_trial_days', '14');
    click('Save Trial Days');
    await waitFor(() => expect(fake.calls('PUT', 'system-settings/trial-days')).toHaveLength(1));
    expect(fake.calls('PUT', 'system-settings/trial-days')[0].body).toEqual({ trial_days: 14 });
    await waitFor(() => expect(toasts()).toContainEqual({ type: 'success', title: SETTINGS.updated }));
    await waitFor(() => expect(item('system-settings_trial_days')).not.toContain(FIELD_RULES.between('Trial days', 1, 365)));
    expect(fake.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('shows the trial limits (one trial per device per period, trials per day), checked and saved like the others', async () => {
    fake.on('PUT', /^system-settings\//, (r) => ({ status: 200, body: { ...SYSTEM_SETTING_DEFAULTS, ...(r.body as object) } }));
    const { view, input, item, type, click } = renderPage(<SystemSettingsPage />);
    await waitFor(() => expect(input('system-settings_trial_period_days').value).toBe('30'));
    expect(input('system-settings_trials_per_day').value).toBe('20');
    expect(view.baseElement.querySelector('[data-testid="summary-trial_period_days"]')?.textContent).toBe('30');
    expect(view.baseElement.querySelector('[data-testid="summary-trials_per_day"]')?.textContent).toBe('20');

    type('system-settings_trial_period_days', '4000');
    click('Save Trial Period (days)');
    await waitFor(() => expect(item('system-settings_trial_period_days')).toContain(FIELD_RULES.between('Trial period days', 1, 3650)));
    type('system-settings_trials_per_day', '1001');
    click('Save Trials per User per Day');
    await waitFor(() => expect(item('system-settings_trials_per_day')).toContain(FIELD_RULES.between('Trials per day', 0, 1000)));
    expect(fake.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);

    type('system-settings_trials_per_day', '0');
    click('Save Trials per User per Day');
    await waitFor(() => expect(fake.calls('PUT', 'system-settings/trials-per-day')).toHaveLength(1));
    expect(fake.calls('PUT', 'system-settings/trials-per-day')[0].body).toEqual({ trials_per_day: 0 });
    await waitFor(() => expect(view.baseElement.querySelector('[data-testid="summary-trials_per_day"]')?.textContent).toBe('0'));
  });

  it("refuses an empty number, 'abc' or a fraction with the field's own message and sends nothing; a valid one still saves", async () => {
    fake.on('PUT', /^system-settings\//, (r) => ({ status: 200, body: { ...SYSTEM_SETTING_DEFAULTS, ...(r.body as object) } }));
    fake.on('GET', 'system-settings', { status: 200, body: { ...SYSTEM_SETTING_DEFAULTS, trial_days: 30 } });
    const { input, item, type, click } = renderPage(<SystemSettingsPage />);
    await waitFor(() => expect(input('system-settings_trial_days').value).toBe('30'));
    const rule = FIELD_RULES.between('Trial days', 1, 365);
    for (const typed of ['', 'abc', '1.5', '12abc']) {
      type('system-settings_trial_days', typed);
      click('Save Trial Days');
      await waitFor(() => expect(item('system-settings_trial_days')).toContain(rule));
      // What was typed stays in the box, for the person to correct.
      expect(input('system-settings_trial_days').value).toBe(typed);
    }
    // Enter in the box is the same Save.
    fireEvent.keyDown(input('system-settings_trial_days'), { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    expect(toasts()).not.toContainEqual({ type: 'success', title: SETTINGS.updated });

    type('system-settings_trial_days', ' 21 ');
    click('Save Trial Days');
    await waitFor(() => expect(fake.calls('PUT', 'system-settings/trial-days')).toHaveLength(1));
    expect(fake.calls('PUT', 'system-settings/trial-days')[0].body).toEqual({ trial_days: 21 });
    await waitFor(() => expect(item('system-settings_trial_days')).not.toContain(rule));
    expect(input('system-settings_trial_days').value).toBe('21');
  });

  it("puts a 422's message under the number it names and toasts the failure", async () => {
    fake.on('PUT', 'system-settings/default-credits', {
      status: 422,
      body: { message: 'The given data was invalid.', errors: { default_credits: ['Default credits is locked by the server'] } },
    });
    const { input, item, type, click } = renderPage(<SystemSettingsPage />);
    await waitFor(() => expect(input('system-settings_default_credits').value).toBe('1'));
    type('system-settings_default_credits', '5');
    click('Save Default Credits');
    await waitFor(() => expect(item('system-settings_default_credits')).toContain('Default credits is locked by the server'));
    expect(item('system-settings_trial_days')).not.toContain('locked');
    expect(toasts()).toContainEqual({ type: 'error', title: 'Error', body: SETTINGS.updateFailed });
  });

  it('saves a switch once confirmed, with its one body field, and shows the stored value when refused', async () => {
    fake.on('PUT', 'system-settings/trials-enabled', { status: 200, body: { ...SYSTEM_SETTING_DEFAULTS, enable_trials: false } });
    fake.on('PUT', 'system-settings/promos-enabled', { status: 500, body: { message: 'Server Error' } });
    const { view } = renderPage(<SystemSettingsPage />);
    const toggle = (name: string) => view.baseElement.querySelector<HTMLButtonElement>(`button[role=switch][aria-label="${name}"]`)!;
    // Each switch asks first (settings-switches.test.tsx): accept the open confirmation.
    const accept = async () => {
      await waitFor(() => expect(view.baseElement.querySelector('.ant-modal-confirm:not(.ant-zoom-leave)')).not.toBeNull());
      const buttons = [...view.baseElement.querySelectorAll<HTMLButtonElement>('.ant-modal-confirm:not(.ant-zoom-leave) button')];
      fireEvent.click(buttons.find((b) => b.textContent?.trim() === SETTING_SWITCHES.turnOff)!);
    };
    await waitFor(() => expect(toggle('Enable Trials')).toBeTruthy());
    fireEvent.click(toggle('Enable Trials'));
    await accept();
    await waitFor(() => expect(toggle('Enable Trials').getAttribute('aria-checked')).toBe('false'));
    expect(fake.calls('PUT', 'system-settings/trials-enabled')[0].body).toEqual({ enable_trials: false });

    fireEvent.click(toggle('Enable Promos'));
    await accept();
    await waitFor(() => expect(toasts()).toContainEqual({ type: 'error', title: 'Error', body: SETTINGS.updateFailed }));
    expect(toggle('Enable Promos').getAttribute('aria-checked')).toBe('true');
  });
});

const LEVELS = { minimum: 10, maximum: 100, step: 10, promo_enabled: true, promo_ratio: 0.2 };

describe('Credit Levels', { timeout: 30_000 }, () => {
  it('shows the zod messages (the maximum not below the minimum too) before any request', async () => {
    fake.on('GET', 'credit-levels', { status: 200, body: { data: LEVELS } });
    const { input, item, type, click } = renderPage(<CreditLevelsPage />);
    await waitFor(() => expect(input('credit-levels_maximum').value).toBe('100'));

    type('credit-levels_minimum', '50');
    type('credit-levels_maximum', '20');
    type('credit-levels_step', '');
    click(/Save/);
    await waitFor(() => expect(item('credit-levels_maximum')).toContain(FIELD_RULES.notBelow('Maximum', 'minimum')));
    expect(item('credit-levels_step')).toContain(FIELD_RULES.atLeast('Step', 1));
    expect(item('credit-levels_minimum')).not.toContain('must');
    expect(fake.calls('PUT', 'credit-levels')).toHaveLength(0);
  });

  it("saves the configuration, and puts a 422's messages under the fields", async () => {
    fake.on('GET', 'credit-levels', { status: 200, body: { data: LEVELS } });
    fake.on('PUT', 'credit-levels', { status: 422, body: { message: 'The given data was invalid.', errors: { promo_ratio: ['Promo ratio refused by the server'] } } });
    const { input, item, type, click } = renderPage(<CreditLevelsPage />);
    await waitFor(() => expect(input('credit-levels_step').value).toBe('10'));
    type('credit-levels_step', '5');
    click(/Save/);
    await waitFor(() => expect(item('credit-levels_promo_ratio')).toContain('Promo ratio refused by the server'));
    expect(fake.calls('PUT', 'credit-levels')[0].body).toEqual({ ...LEVELS, step: 5 });
    expect(toasts()).toContainEqual({ type: 'error', title: 'Error', body: CREDIT_LEVELS.updateFailed });
  });

  it('shows a failed load with Retry', async () => {
    fake.on('GET', 'credit-levels', { status: 500, body: { message: 'Server Error' } });
    const { view, click } = renderPage(<CreditLevelsPage />);
    await waitFor(() => expect(view.baseElement.textContent).toContain('Retry'));
    expect(toasts()).toContainEqual({ type: 'error', title: 'Error', body: CREDIT_LEVELS.loadFailed });
    fake.on('GET', 'credit-levels', { status: 200, body: { data: LEVELS } });
    click(/Retry/);
    await waitFor(() => expect(view.baseElement.querySelector<HTMLInputElement>('#credit-levels_maximum')?.value).toBe('100'));
  });
});

const OPTIONS = {
  min_credits: 10,
  max_credits: 10000,
  increment_step: 1,
  preset_amounts: [10, 25, 50],
  enable_percentage_options: true,
  percentage_options: [25, 50],
  enable_all_available_option: true,
  is_active: true,
};

describe('Credit Options Settings', { timeout: 30_000 }, () => {
  beforeEach(() => {
    fake.on('GET', 'credit-options-settings', { status: 200, body: { data: OPTIONS } });
  });

  it('holds the lists as text, checks them with the contract rules before any request, and sends lists', async () => {
    fake.on('PUT', 'credit-options-settings', (r) => ({ status: 200, body: { data: { ...OPTIONS, ...(r.body as object) } } }));
    const { input, item, type, click } = renderPage(<CreditOptionsSettingsPage />);
    await waitFor(() => expect(input('credit-options-settings_preset_amounts').value).toBe('10, 25, 50'));

    type('credit-options-settings_preset_amounts', '10, abc');
    type('credit-options-settings_percentage_options', '50, 101');
    type('credit-options-settings_max_credits', '5');
    click(/^Save$/);
    await waitFor(() => expect(item('credit-options-settings_preset_amounts')).toContain(FIELD_RULES.positiveIntegers('Preset amounts')));
    expect(item('credit-options-settings_percentage_options')).toContain(FIELD_RULES.between('Percentages', 1, 100));
    expect(item('credit-options-settings_max_credits')).toContain(FIELD_RULES.notBelow('Max credits', 'min credits'));
    expect(fake.calls('PUT', 'credit-options-settings')).toHaveLength(0);

    type('credit-options-settings_preset_amounts', '100, 20 ,30');
    type('credit-options-settings_percentage_options', '');
    type('credit-options-settings_max_credits', '500');
    click(/^Save$/);
    await waitFor(() => expect(fake.calls('PUT', 'credit-options-settings')).toHaveLength(1));
    expect(fake.calls('PUT', 'credit-options-settings')[0].body).toEqual({ ...OPTIONS, max_credits: 500, preset_amounts: [20, 30, 100], percentage_options: [] });
    await waitFor(() => expect(input('credit-options-settings_preset_amounts').value).toBe('20, 30, 100'));
  });

  it("puts a 422's messages under the fields", async () => {
    fake.on('PUT', 'credit-options-settings', {
      status: 422,
      body: { message: 'The given data was invalid.', errors: { increment_step: ['Increment step refused by the server'] } },
    });
    const { input, item, click } = renderPage(<CreditOptionsSettingsPage />);
    await waitFor(() => expect(input('credit-options-settings_min_credits').value).toBe('10'));
    click(/^Save$/);
    await waitFor(() => expect(item('credit-options-settings_increment_step')).toContain('Increment step refused by the server'));
    expect(item('credit-options-settings_min_credits')).not.toContain('refused');
    expect(toasts()).toContainEqual({ type: 'error', title: 'Error', body: CREDIT_OPTIONS.saveFailed });
  });

  it('tests an amount: the bounds before any request, the default for an empty amount, a 422 under the amount', async () => {
    let answer: unknown = { status: 200, body: { data: { options_count: 2, user_credits: 1000, generated_options: [10, 25] } } };
    fake.on('POST', 'credit-options-settings/test', () => answer as never);
    const { view, input, item, type, click } = renderPage(<CreditOptionsSettingsPage />);
    await waitFor(() => expect(input('credit-options-test_user_credits').value).toBe('1000'));

    type('credit-options-test_user_credits', '0');
    click(/Test/);
    await waitFor(() => expect(item('credit-options-test_user_credits')).toContain(FIELD_RULES.between('Test credits', 1, 1_000_000)));
    expect(fake.calls('POST', 'credit-options-settings/test')).toHaveLength(0);

    type('credit-options-test_user_credits', '');
    click(/Test/);
    await waitFor(() => expect(view.baseElement.querySelector('[data-testid=test-options-count]')?.textContent).toBe('2'));
    expect(fake.calls('POST', 'credit-options-settings/test')[0].body).toEqual({ user_credits: 1000 });

    answer = { status: 422, body: { message: 'The given data was invalid.', errors: { user_credits: ['Test credits refused by the server'] } } };
    type('credit-options-test_user_credits', '300');
    click(/Test/);
    await waitFor(() => expect(item('credit-options-test_user_credits')).toContain('Test credits refused by the server'));
    expect(fake.calls('POST', 'credit-options-settings/test')[1].body).toEqual({ user_credits: 300 });
  });
});
