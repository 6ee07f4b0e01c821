/**
 * The System Settings switches reach other users (who may sign in, what credits and renewals give):
 * each asks first, saying what will happen; cancelling sends nothing and leaves the switch as it was.
 */
import { waitFor } from './dom';
import { type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTING_SWITCHES, SYSTEM_SETTING_DEFAULTS } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { SystemSettingsPage } from '../../src/resources/systemSettings/list';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;
beforeEach(() => {
  fake = fakeHttp(http);
  fake.on('GET', 'system-settings', { status: 200, body: { ...SYSTEM_SETTING_DEFAULTS } });
  fake.on('PUT', /^system-settings\//, (r) => ({ status: 200, body: { ...SYSTEM_SETTING_DEFAULTS, ...(r.body as object) } }));
  fake.on('GET', 'config', { status: 200, body: { demo_mode: false, demo_users: [], maintenance_mode: false, enable_trials: true, trial_days: 7, theme: null } });
});

function renderPage() {
  const notificationProvider: NotificationProvider = { open: vi.fn(), close: () => undefined };
  const view = render(
    <App>
      <Refine dataProvider={createDataProvider(fake.http)} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
        <SystemSettingsPage />
      </Refine>
    </App>,
  );
  const toggle = (label: string) => view.baseElement.querySelector<HTMLButtonElement>(`button[role="switch"][aria-label="${label}"]`)!;
  const dialog = () => view.baseElement.querySelector('.ant-modal-confirm:not(.ant-zoom-leave)');
  const press = (text: string) =>
    fireEvent.click([...view.baseElement.querySelectorAll<HTMLButtonElement>('.ant-modal-confirm button')].find((b) => b.textContent?.trim() === text)!);
  return { view, toggle, dialog, press };
}

const PUTS = () => fake.requests.filter((r) => r.method === 'PUT');

describe('System Settings switches', { timeout: 30_000 }, () => {
  it('maintenance mode: the dialog names the effect; cancel sends nothing and leaves it off', async () => {
    const ui = renderPage();
    await waitFor(() => expect(ui.toggle('Maintenance Mode')).toBeTruthy());
    fireEvent.click(ui.toggle('Maintenance Mode'));
    await waitFor(() => expect(ui.dialog()?.textContent).toContain(SETTING_SWITCHES.effects.maintenance_mode.on));
    expect(ui.dialog()?.textContent).toContain(SETTING_SWITCHES.confirmTitle('Maintenance Mode', true));
    ui.press('Cancel');
    await waitFor(() => expect(ui.dialog()).toBeNull());
    expect(PUTS()).toHaveLength(0);
    expect(ui.toggle('Maintenance Mode').getAttribute('aria-checked')).toBe('false');
  });

  it('maintenance mode: confirming sends the change', async () => {
    const ui = renderPage();
    await waitFor(() => expect(ui.toggle('Maintenance Mode')).toBeTruthy());
    fireEvent.click(ui.toggle('Maintenance Mode'));
    await waitFor(() => expect(ui.dialog()).not.toBeNull());
    ui.press(SETTING_SWITCHES.turnOn);
    await waitFor(() => expect(fake.calls('PUT', 'system-settings/maintenance-mode')).toHaveLength(1));
    expect(fake.calls('PUT', 'system-settings/maintenance-mode')[0].body).toEqual({ maintenance_mode: true });
    await waitFor(() => expect(ui.toggle('Maintenance Mode').getAttribute('aria-checked')).toBe('true'));
  });

  it.each([
    ['Enable Trials', 'enable_trials', 'trials-enabled'],
    ['Enable Promos', 'enable_promos', 'promos-enabled'],
    ['Enable Reseller/Dealer Promos', 'enable_reseller_dealer_promos', 'reseller-dealer-promos-enabled'],
    ['Enable Global Discounts', 'global_discounts_enabled', 'global-discounts-enabled'],
  ] as const)('%s: turning it off asks first, saying what stops', async (label, field, key) => {
    const ui = renderPage();
    await waitFor(() => expect(ui.toggle(label).getAttribute('aria-checked')).toBe('true'));
    fireEvent.click(ui.toggle(label));
    await waitFor(() => expect(ui.dialog()?.textContent).toContain(SETTING_SWITCHES.effects[field].off));
    ui.press('Cancel');
    await waitFor(() => expect(ui.dialog()).toBeNull());
    expect(PUTS()).toHaveLength(0);
    expect(ui.toggle(label).getAttribute('aria-checked')).toBe('true');

    fireEvent.click(ui.toggle(label));
    await waitFor(() => expect(ui.dialog()).not.toBeNull());
    ui.press(SETTING_SWITCHES.turnOff);
    await waitFor(() => expect(fake.calls('PUT', `system-settings/${key}`)).toHaveLength(1));
    expect(fake.calls('PUT', `system-settings/${key}`)[0].body).toEqual({ [field]: false });
  });
});
