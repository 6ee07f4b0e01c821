/**
 * The sign-in and profile forms over a fake HTTP layer: the contract's zod messages before any
 * request, and the server's answers: a 422 under the fields of the profile forms, the auth provider's
 * message above the sign-in form, and the profile toasts.
 */
import { waitFor } from './dom';
import type { AuthProvider } from '@refinedev/core';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH, type CurrentUser, PROFILE } from '../../src/contract';
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
  phone: '555-0100',
  role: 'reseller',
  credits: 100,
  bonus_credits: 0,
  server_id: 1,
  is_active: true,
  created_at: '2025-01-01T00:00:00.000Z',
  two_factor: false,
  two_factor_enrol: false,
};

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  localStorage.clear();
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
});

const renderWith = (page: ReactNode, authProvider: AuthProvider) => renderFormPage(page, { authProvider, fake, notify });

const toasts = () =>
  notify.mock.calls.map(([n]) => {
    const { type, message, description } = n as { type: string; message: string; description?: string };
    return description ? { type, title: description, body: message } : { type, title: message };
  });

describe('Login form', { timeout: 30_000 }, () => {
  it("refuses empty fields with 'Please fill in all fields' before any request", async () => {
    const { input, item, type, click } = renderWith(<LoginPage />, createAuthProvider(fake.http));
    await waitFor(() => expect(input('login_username')).toBeTruthy());
    click('Sign In');
    await waitFor(() => expect(item('login_username')).toContain(AUTH.fillAllFields));
    expect(item('login_password')).toContain(AUTH.fillAllFields);

    type('login_username', '   ');
    type('login_password', 'secret');
    click('Sign In');
    await waitFor(() => expect(item('login_password')).not.toContain(AUTH.fillAllFields));
    expect(item('login_username')).toContain(AUTH.fillAllFields);
    expect(fake.requests).toHaveLength(0);
  });

  it("signs in through the auth provider and shows its message for a 422's first field", async () => {
    fake.on('POST', 'login', { status: 422, body: { message: 'The given data was invalid.', errors: { username: ['This account is disabled.'] } } });
    const { view, input, type, click } = renderWith(<LoginPage />, createAuthProvider(fake.http));
    await waitFor(() => expect(input('login_username')).toBeTruthy());
    type('login_username', ' reseller ');
    type('login_password', 'secret');
    click('Sign In');
    await waitFor(() => expect(view.baseElement.querySelector('[role=alert]')?.textContent).toContain('This account is disabled.'));
    expect(fake.calls('POST', 'login')[0].body).toEqual({ username: 'reseller', password: 'secret' });
  });
});

const signedIn: AuthProvider = {
  login: async () => ({ success: true }),
  logout: async () => ({ success: true }),
  check: async () => ({ authenticated: true }),
  onError: async () => ({}),
  getIdentity: async () => USER,
};

describe('Profile forms', { timeout: 30_000 }, () => {
  beforeEach(() => localStorage.setItem('token', 'tok'));

  it('requires the name before any request, then sends name, the locked username and phone; a 422 goes under its field', async () => {
    let answer: unknown = { status: 422, body: { message: 'The given data was invalid.', errors: { phone: ['The phone may not be greater than 32 characters.'] } } };
    fake.on('PUT', 'update-profile', () => answer as never);
    const { input, item, type, click } = renderWith(<ProfilePage />, signedIn);
    await waitFor(() => expect(input('profile_name').value).toBe('Rita Reseller'));

    type('profile_name', '  ');
    click('Save Changes');
    await waitFor(() => expect(item('profile_name')).toContain(PROFILE.nameRequired));
    expect(fake.calls('PUT', 'update-profile')).toHaveLength(0);

    type('profile_name', 'Rita R.');
    type('profile_phone', '');
    click('Save Changes');
    await waitFor(() => expect(item('profile_phone')).toContain('The phone may not be greater than 32 characters.'));
    expect(fake.calls('PUT', 'update-profile')[0].body).toEqual({ name: 'Rita R.', username: 'reseller', phone: null });
    expect(toasts()).toContainEqual({ type: 'error', title: PROFILE.updateFailed.title, body: 'The given data was invalid.' });

    answer = { status: 200, body: { data: { ...USER, name: 'Rita R.' } } };
    click('Save Changes');
    await waitFor(() => expect(toasts()).toContainEqual({ type: 'success', title: PROFILE.updated }));
  });

  it('checks the password fields with the contract messages before any request', async () => {
    const { input, item, type, click } = renderWith(<ProfilePage />, signedIn);
    await waitFor(() => expect(input('change-password_current_password')).toBeTruthy());

    click('Change Password');
    await waitFor(() => expect(item('change-password_current_password')).toContain(PROFILE.allPasswordFields));
    expect(item('change-password_new_password')).toContain(PROFILE.allPasswordFields);
    expect(item('change-password_new_password_confirmation')).toContain(PROFILE.allPasswordFields);

    type('change-password_current_password', 'old-secret');
    type('change-password_new_password', 'short');
    type('change-password_new_password_confirmation', 'short');
    click('Change Password');
    await waitFor(() => expect(item('change-password_new_password')).toContain(PROFILE.passwordTooShort));

    type('change-password_new_password', 'long-enough-1');
    type('change-password_new_password_confirmation', 'long-enough-2');
    click('Change Password');
    await waitFor(() => expect(item('change-password_new_password_confirmation')).toContain(PROFILE.passwordsMismatch));
    expect(fake.calls('POST', 'change-password')).toHaveLength(0);
  });

  it("puts a 422 under the current password with the 'Password Change Failed' toast, and clears the form once changed", async () => {
    let answer: unknown = { status: 422, body: { message: 'The given data was invalid.', errors: { current_password: [PROFILE.currentPasswordWrong] } } };
    fake.on('POST', 'change-password', () => answer as never);
    const { input, item, type, click } = renderWith(<ProfilePage />, signedIn);
    await waitFor(() => expect(input('change-password_current_password')).toBeTruthy());
    type('change-password_current_password', 'wrong-secret');
    type('change-password_new_password', 'long-enough-1');
    type('change-password_new_password_confirmation', 'long-enough-1');
    click('Change Password');
    await waitFor(() => expect(item('change-password_current_password')).toContain(PROFILE.currentPasswordWrong));
    expect(item('change-password_new_password')).not.toContain(PROFILE.currentPasswordWrong);
    expect(toasts()).toContainEqual({ type: 'error', title: PROFILE.passwordFailed.title, body: PROFILE.passwordFailed.description });
    expect(fake.calls('POST', 'change-password')[0].body).toEqual({
      current_password: 'wrong-secret',
      new_password: 'long-enough-1',
      new_password_confirmation: 'long-enough-1',
    });

    answer = { status: 200, body: { message: PROFILE.passwordChanged } };
    type('change-password_current_password', 'right-secret');
    click('Change Password');
    await waitFor(() => expect(toasts()).toContainEqual({ type: 'success', title: PROFILE.passwordChanged }));
    await waitFor(() => expect(input('change-password_current_password').value).toBe(''));
  });

  it('refuses to save without a session, without calling the API', async () => {
    const { input, click } = renderWith(<ProfilePage />, signedIn);
    await waitFor(() => expect(input('profile_name').value).toBe('Rita Reseller'));
    localStorage.removeItem('token');
    click('Save Changes');
    await waitFor(() => expect(toasts()).toContainEqual({ type: 'error', title: PROFILE.updateFailed.title, body: PROFILE.loginToUpdate }));
    expect(fake.calls('PUT', 'update-profile')).toHaveLength(0);
  });
});
