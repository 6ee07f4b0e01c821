/**
 * What the sign-in page says beside the form: that the panel is in maintenance (from /config, or the
 * API's answer to a non-admin's sign-in, never a 'Login successful' first), and that the session
 * ended when a 401 sent the user there (not on a normal visit).
 */
import { waitFor } from './dom';
import { type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCESS, AUTH } from '../../src/contract';
import { LoginPage } from '../../src/pages/Login';
import { AppConfigProvider } from '../../src/providers/appConfig';
import { createAuthProvider } from '../../src/providers/authProvider';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { session } from '../../src/providers/session';
import { type FakeHttp, fakeHttp } from './fakeHttp';

const config = (maintenance_mode: boolean) => ({ demo_mode: false, demo_users: [], maintenance_mode, enable_trials: true, trial_days: 7, theme: null });

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
});

function renderLogin({ withConfig = false } = {}) {
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const page = (
    <App>
      <MemoryRouter initialEntries={['/login']}>
        <Refine
          dataProvider={createDataProvider(fake.http)}
          authProvider={createAuthProvider(fake.http)}
          notificationProvider={notificationProvider}
          options={{ disableTelemetry: true }}
        >
          <LoginPage />
        </Refine>
      </MemoryRouter>
    </App>
  );
  const view = render(withConfig ? <AppConfigProvider>{page}</AppConfigProvider> : page);
  const input = (id: string) => view.baseElement.querySelector<HTMLInputElement>(`#${id}`)!;
  const type = (id: string, value: string) => fireEvent.change(input(id), { target: { value } });
  const signIn = (username: string) => {
    type('login_username', username);
    type('login_password', 'secret');
    fireEvent.click([...view.baseElement.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Sign In')!);
  };
  const text = () => view.baseElement.textContent ?? '';
  const byTestId = (id: string) => view.baseElement.querySelector(`[data-testid="${id}"]`);
  return { view, input, signIn, text, byTestId };
}

const toastTexts = () => notify.mock.calls.map(([n]) => JSON.stringify(n));

describe('sign-in page: maintenance', { timeout: 30_000 }, () => {
  it('says the panel is in maintenance before anyone signs in, when /config says so', async () => {
    fake.on('GET', 'config', { status: 200, body: config(true) });
    const ui = renderLogin({ withConfig: true });
    await waitFor(() => expect(ui.byTestId('maintenance-notice')?.textContent).toContain(ACCESS.maintenance));
    expect(ui.byTestId('maintenance-notice')?.textContent).toContain(AUTH.maintenanceSignIn);
  });

  it("a non-admin signing in meanwhile reads the maintenance notice, once, and never 'Login successful'", async () => {
    fake.on('POST', 'login', { status: 503, body: { message: ACCESS.maintenance } });
    const ui = renderLogin();
    await waitFor(() => expect(ui.input('login_username')).toBeTruthy());
    expect(ui.byTestId('maintenance-notice')).toBeNull();
    ui.signIn('reseller');
    await waitFor(() => expect(ui.byTestId('maintenance-notice')?.textContent).toContain(ACCESS.maintenance));
    expect(ui.text().split(ACCESS.maintenance)).toHaveLength(2);
    expect(ui.view.baseElement.querySelector('[role=alert]')).toBeNull();
    expect(ui.text()).not.toContain('Login successful');
    expect(toastTexts().join()).not.toContain('Login successful');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('a normal failed sign-in shows its error, and no maintenance notice', async () => {
    fake.on('POST', 'login', { status: 422, body: { message: 'The given data was invalid.', errors: { username: [AUTH.invalidCredentials] } } });
    const ui = renderLogin();
    await waitFor(() => expect(ui.input('login_username')).toBeTruthy());
    ui.signIn('reseller');
    await waitFor(() => expect(ui.view.baseElement.querySelector('[role=alert]')?.textContent).toContain(AUTH.invalidCredentials));
    expect(ui.byTestId('maintenance-notice')).toBeNull();
  });
});

describe('sign-in page: an ended session', { timeout: 30_000 }, () => {
  it('says the session ended when a 401 sent the user here', async () => {
    localStorage.setItem('token', 'old');
    session.end();
    const ui = renderLogin();
    await waitFor(() => expect(ui.byTestId('session-ended')?.textContent).toBe(AUTH.sessionEnded));
  });

  it('says nothing of the kind on a normal visit', async () => {
    const ui = renderLogin();
    await waitFor(() => expect(ui.input('login_username')).toBeTruthy());
    expect(ui.byTestId('session-ended')).toBeNull();
    expect(ui.text()).not.toContain(AUTH.sessionEnded);
  });
});
