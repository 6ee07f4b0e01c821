/**
 * Two-factor sign-in in the panel over a fake HTTP layer: the profile's enrolment (QR code and secret,
 * confirmed by a code, the recovery codes shown once, a wrong code under its field) and the sign-in's
 * second step (the code sent with the challenge, no session before it, an expired challenge back to
 * the password).
 */
import { waitFor } from './dom';
import type { AuthProvider } from '@refinedev/core';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type CurrentUser, STORAGE_KEYS, TWO_FACTOR } from '../../src/contract';
import { LoginPage } from '../../src/pages/Login';
import { ProfilePage } from '../../src/pages/Profile';
import { createAuthProvider } from '../../src/providers/authProvider';
import { http } from '../../src/providers/http';
import { type FakeHttp, fakeHttp } from './fakeHttp';
import { renderFormPage } from './formPage';

const USER: CurrentUser = {
  id: 7,
  name: 'Rita Reseller',
  username: 'reseller',
  phone: null,
  role: 'reseller',
  credits: 100,
  bonus_credits: 0,
  server_id: 1,
  is_active: true,
  created_at: '2025-01-01T00:00:00.000Z',
  two_factor: false,
  two_factor_enrol: false,
};

const QR = 'data:image/png;base64,iVBORw0KGgo=';
const CODES = Array.from({ length: 10 }, (_, i) => `AAAA${i}-BBBB${i}`);

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  localStorage.clear();
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
});

const renderWith = (page: ReactNode, authProvider: AuthProvider) => renderFormPage(page, { authProvider, fake, notify });

const signedIn: AuthProvider = {
  login: async () => ({ success: true }),
  logout: async () => ({ success: true }),
  check: async () => ({ authenticated: true }),
  onError: async () => ({}),
  getIdentity: async () => USER,
};

describe('Two-factor enrolment in the profile', { timeout: 30_000 }, () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.token, 'tok'));

  it('shows the QR code and the secret, puts a wrong code under its field, then shows the recovery codes once', async () => {
    let enabled = false;
    fake.on('GET', 'profile/two-factor', () => ({ status: 200, body: { data: { enabled, required: false, recovery_codes_left: enabled ? 10 : 0 } } }));
    fake.on('POST', 'profile/two-factor/setup', { status: 200, body: { data: { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x', qr_code: QR } } });
    let answer: unknown = { status: 422, body: { message: TWO_FACTOR.codeInvalid, errors: { code: [TWO_FACTOR.codeInvalid] } } };
    fake.on('POST', 'profile/two-factor/enable', () => answer as never);
    const { view, input, item, type, click, button } = renderWith(<ProfilePage />, signedIn);

    await waitFor(() => expect(button(TWO_FACTOR.start)?.disabled).toBe(false));
    click(TWO_FACTOR.start);
    await waitFor(() => expect(view.baseElement.querySelector('[data-testid=two-factor-secret]')?.textContent).toContain('JBSWY3DPEHPK3PXP'));
    expect(view.baseElement.querySelector<HTMLImageElement>(`img[alt="${TWO_FACTOR.qrAlt}"]`)?.src).toBe(QR);

    // The code is checked before any request: six digits.
    click(TWO_FACTOR.confirm);
    await waitFor(() => expect(item('two-factor-enable_code')).toContain(TWO_FACTOR.codeRequired));
    expect(fake.calls('POST', 'profile/two-factor/enable')).toHaveLength(0);

    type('two-factor-enable_code', '123456');
    click(TWO_FACTOR.confirm);
    await waitFor(() => expect(item('two-factor-enable_code')).toContain(TWO_FACTOR.codeInvalid));
    expect(fake.calls('POST', 'profile/two-factor/enable')[0].body).toEqual({ code: '123456' });

    answer = { status: 200, body: { message: TWO_FACTOR.enabled, recovery_codes: CODES } };
    enabled = true;
    type('two-factor-enable_code', '654321');
    click(TWO_FACTOR.confirm);
    await waitFor(() => expect(view.baseElement.querySelectorAll('[data-testid=recovery-codes] li')).toHaveLength(10));
    expect(view.baseElement.querySelector('[data-testid=recovery-codes]')?.textContent).toContain(CODES[3]);
    expect(notify.mock.calls.map(([n]) => (n as { message: string }).message)).toContain(TWO_FACTOR.enabled);

    // Once saved, the codes are gone from the screen for good: the status and the way to turn it off remain.
    click(TWO_FACTOR.recoveryDone);
    await waitFor(() => expect(view.baseElement.textContent).toContain(TWO_FACTOR.recoveryLeft(10)));
    expect(view.baseElement.querySelector('[data-testid=recovery-codes]')).toBeNull();
    expect(input('two-factor-disable_password')).toBeTruthy();
  });

  it('turns off with the password; a wrong one shows under the password field', async () => {
    fake.on('GET', 'profile/two-factor', { status: 200, body: { data: { enabled: true, required: false, recovery_codes_left: 7 } } });
    fake.on('POST', 'profile/two-factor/disable', { status: 422, body: { message: 'x', errors: { password: ['The current password is incorrect.'] } } });
    const { input, item, type, click } = renderWith(<ProfilePage />, signedIn);
    await waitFor(() => expect(input('two-factor-disable_password')).toBeTruthy());
    click(TWO_FACTOR.turnOff);
    await waitFor(() => expect(item('two-factor-disable_password')).toContain(TWO_FACTOR.turnOffCredential));
    expect(fake.calls('POST', 'profile/two-factor/disable')).toHaveLength(0);
    type('two-factor-disable_password', 'wrong');
    click(TWO_FACTOR.turnOff);
    await waitFor(() => expect(item('two-factor-disable_password')).toContain('The current password is incorrect.'));
    expect(fake.calls('POST', 'profile/two-factor/disable')[0].body).toEqual({ password: 'wrong' });
  });
});

describe('Sign-in second step', { timeout: 30_000 }, () => {
  it('asks for the code after the password, sends it with the challenge, and saves the session only then', async () => {
    fake.on('POST', 'login', { status: 200, body: { two_factor: { challenge: 'chal-1', expires_at: '2099-01-01T00:00:00.000Z' } } });
    fake.on('POST', 'login/two-factor', { status: 200, body: { token: 'tok-2', user: { ...USER, two_factor: true } } });
    fake.on('GET', 'profile/preferences', { status: 200, body: { data: {} } });
    const { view, input, type, click } = renderWith(<LoginPage />, createAuthProvider(fake.http));
    await waitFor(() => expect(input('login_username')).toBeTruthy());
    type('login_username', 'reseller');
    type('login_password', 'secret');
    click('Sign In');

    await waitFor(() => expect(input('login-code_code')).toBeTruthy());
    expect(view.baseElement.textContent).toContain(TWO_FACTOR.codePrompt);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();

    type('login-code_code', ' 123456 ');
    click(TWO_FACTOR.verify);
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('tok-2'));
    expect(fake.calls('POST', 'login/two-factor')[0].body).toEqual({ challenge: 'chal-1', code: '123456' });
  });

  it('shows a wrong code above the form and returns to the password when the challenge expired', async () => {
    fake.on('POST', 'login', { status: 200, body: { two_factor: { challenge: 'chal-1', expires_at: '2099-01-01T00:00:00.000Z' } } });
    let answer: unknown = { status: 422, body: { message: 'x', errors: { code: [TWO_FACTOR.codeInvalid] } } };
    fake.on('POST', 'login/two-factor', () => answer as never);
    const { view, input, type, click } = renderWith(<LoginPage />, createAuthProvider(fake.http));
    await waitFor(() => expect(input('login_username')).toBeTruthy());
    type('login_username', 'reseller');
    type('login_password', 'secret');
    click('Sign In');
    await waitFor(() => expect(input('login-code_code')).toBeTruthy());

    type('login-code_code', '000000');
    click(TWO_FACTOR.verify);
    await waitFor(() => expect(view.baseElement.querySelector('[role=alert]')?.textContent).toContain(TWO_FACTOR.codeInvalid));

    answer = { status: 422, body: { message: 'x', errors: { challenge: [TWO_FACTOR.challengeExpired] } } };
    click(TWO_FACTOR.verify);
    await waitFor(() => expect(input('login_username')).toBeTruthy());
    expect(view.baseElement.querySelector('[role=alert]')?.textContent).toContain(TWO_FACTOR.challengeExpired);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});
