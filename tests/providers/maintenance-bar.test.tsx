/**
 * While maintenance mode is on, every admin screen carries a bar that says so (the admin keeps working
 * while everyone else is locked out); a non-admin sees the maintenance page instead of the screen.
 */
import { waitFor } from './dom';
import { Refine } from '@refinedev/core';
import { act, render } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppLayout } from '../../src/components/layout/AppLayout';
import { ACCESS, CONFIG_REFRESH_MS, MAINTENANCE_BAR } from '../../src/contract';
import { AppConfigProvider } from '../../src/providers/appConfig';
import { createDataProvider } from '../../src/providers/dataProvider';
import { MAINTENANCE_EVENT, http } from '../../src/providers/http';
import { identity } from '../../src/providers/identity';
import { signedInAs } from './fakeAuth';
import { type FakeHttp, fakeHttp } from './fakeHttp';

const config = (maintenance_mode: boolean) => ({ demo_mode: false, demo_users: [], maintenance_mode, enable_trials: true, trial_days: 7, theme: null });

let fake: FakeHttp;
beforeEach(() => {
  localStorage.clear();
  identity.clear();
  fake = fakeHttp(http);
  // The first answer is loaded once per page (preloadAppConfig): maintenance is on from the start.
  fake.on('GET', 'config', { status: 200, body: config(true) });
});
afterEach(() => localStorage.clear());

function renderAs(role: string) {
  localStorage.setItem('token', `token-${role}`);
  return render(
    <AppConfigProvider>
      <App>
        <MemoryRouter initialEntries={['/managers']}>
          <Refine
            authProvider={signedInAs({ id: 1, name: 'Test', username: 'test', role, credits: 0 })}
            dataProvider={createDataProvider(fake.http)}
            options={{ disableTelemetry: true }}
          >
            <Routes>
              <Route element={<AppLayout menuFor={() => []} resources={[]} />}>
                <Route path="/managers" element={<div>managers screen</div>} />
              </Route>
            </Routes>
          </Refine>
        </MemoryRouter>
      </App>
    </AppConfigProvider>,
  );
}

const bar = (view: ReturnType<typeof render>) => view.baseElement.querySelector('[data-testid="maintenance-bar"]');

describe('maintenance bar', { timeout: 30_000 }, () => {
  it('shows above an admin screen while maintenance is on, with the way to turn it off, and goes when it is off', async () => {
    const view = renderAs('admin');
    await waitFor(() => expect(view.baseElement.textContent).toContain('managers screen'));
    expect(bar(view)?.textContent).toContain(MAINTENANCE_BAR.text);
    expect(bar(view)?.querySelector('a')?.getAttribute('href')).toBe('/settings');

    // The config is read again (as after a save in System Settings): maintenance is off now.
    fake.on('GET', 'config', { status: 200, body: config(false) });
    act(() => void window.dispatchEvent(new Event(MAINTENANCE_EVENT)));
    await waitFor(() => expect(bar(view)).toBeNull());
    expect(view.baseElement.textContent).toContain('managers screen');
  });

  it("follows another admin's switch without a reload: when the window gets the focus back, and about once a minute", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const view = renderAs('admin');
      await waitFor(() => expect(bar(view)).not.toBeNull());

      fake.on('GET', 'config', { status: 200, body: config(false) });
      act(() => void window.dispatchEvent(new Event('focus')));
      await waitFor(() => expect(bar(view)).toBeNull());

      // Turned on again elsewhere: the next periodic read brings the bar back, with no event at all.
      fake.on('GET', 'config', { status: 200, body: config(true) });
      const reads = fake.calls('GET', 'config').length;
      act(() => void vi.advanceTimersByTime(CONFIG_REFRESH_MS - 1000));
      expect(fake.calls('GET', 'config')).toHaveLength(reads);
      act(() => void vi.advanceTimersByTime(1000));
      await waitFor(() => expect(bar(view)).not.toBeNull());
      expect(view.baseElement.textContent).toContain('managers screen');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a non-admin gets the maintenance page, not the screen and not the bar', async () => {
    const view = renderAs('reseller');
    await waitFor(() => expect(view.baseElement.textContent).toContain(ACCESS.maintenance));
    expect(view.baseElement.textContent).not.toContain('managers screen');
    expect(bar(view)).toBeNull();
  });
});
