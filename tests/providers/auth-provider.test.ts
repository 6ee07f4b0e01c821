/**
 * The auth provider against a fake HTTP layer (docs/domain.md#session): sign-in, the session in
 * localStorage under STORAGE_KEYS, the 401 path, and which failures end the session.
 */
import type { AuthProvider, HttpError } from '@refinedev/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ACCESS, AUTH, type CurrentUser } from '../../src/contract';
import { createAuthProvider, loginErrorMessage } from '../../src/providers/authProvider';
import { colorScheme } from '../../src/providers/colorScheme';
import { identity } from '../../src/providers/identity';
import { session } from '../../src/providers/session';
import { createQueryClient } from '../../src/providers/queryClient';
import { type FakeHttp, fakeHttp } from './fakeHttp';

const user = (role: CurrentUser['role']): CurrentUser => ({
  id: 7,
  name: 'Demo',
  username: role,
  phone: null,
  role,
  credits: role === 'admin' ? null : 100,
  bonus_credits: role === 'admin' ? null : 0,
  server_id: 1,
  is_active: true,
  created_at: '2025-01-01T00:00:00.000Z',
  two_factor: false,
  two_factor_enrol: false,
});

let fake: FakeHttp;
let auth: AuthProvider;

beforeEach(() => {
  localStorage.clear();
  identity.clear();
  fake = fakeHttp();
  auth = createAuthProvider(fake.http);
});

const signedIn = (token = 'tok', role = 'manager') => {
  localStorage.setItem('token', token);
  localStorage.setItem('userRole', role);
};
const stored = () => ({ token: localStorage.getItem('token'), userRole: localStorage.getItem('userRole') });

describe('login', () => {
  it("stores token and userRole and redirects to / with the 'Login successful' toast", async () => {
    fake.on('POST', 'login', { status: 200, body: { token: 'abc123', user: user('reseller') } });
    const result = await auth.login({ username: ' reseller ', password: 'secret' });
    expect(result).toEqual({ success: true, redirectTo: '/', successNotification: { message: AUTH.loginSuccess } });
    expect(stored()).toEqual({ token: 'abc123', userRole: 'reseller' });
    expect(fake.calls('POST', 'login')[0]).toMatchObject({ method: 'POST', url: '/api/v1/login', body: { username: 'reseller', password: 'secret' } });
  });

  it("takes the user's colour scheme from the server before the first screen, and signs in even when that fails", async () => {
    localStorage.setItem('colorScheme', 'light');
    colorScheme.reset();
    fake.on('POST', 'login', { status: 200, body: { token: 'abc123', user: user('reseller') } });
    fake.on('GET', 'profile/preferences', { status: 200, body: { data: { colorScheme: 'dark' } } });
    await auth.login({ username: 'reseller', password: 'secret' });
    expect(fake.last()).toMatchObject({ method: 'GET', url: '/api/v1/profile/preferences', headers: { Authorization: 'Bearer abc123' } });
    expect(colorScheme.choice()).toBe('dark');
    expect(localStorage.getItem('colorScheme')).toBe('dark');

    fake.on('GET', 'profile/preferences', { status: 503, body: { message: ACCESS.maintenance } });
    expect((await auth.login({ username: 'reseller', password: 'secret' })).success).toBe(true);
    expect(colorScheme.choice()).toBe('dark');
  });

  it.each([{ username: '', password: 'x' }, { username: 'admin', password: '' }, { username: '   ', password: 'x' }, {}])(
    "refuses empty fields with 'Please fill in all fields' without calling the API (%o)",
    async (values) => {
      const result = await auth.login(values);
      expect(result).toEqual({ success: false, error: { name: 'Error', message: 'Please fill in all fields' } });
      expect(fake.requests).toHaveLength(0);
      expect(stored()).toEqual({ token: null, userRole: null });
    },
  );

  it('shows the first field message of a 422', async () => {
    fake.on('POST', 'login', {
      status: 422,
      body: { message: 'The given data was invalid.', errors: { username: ['The selected username is invalid.', 'Other.'], password: ['P.'] } },
    });
    const result = await auth.login({ username: 'nobody', password: 'x' });
    expect(result).toEqual({ success: false, error: { name: 'Error', message: 'The selected username is invalid.' } });
    expect(stored().token).toBeNull();
  });

  it('takes a field message given as a plain string too', () => {
    expect(loginErrorMessage({ statusCode: 422, message: 'x', errors: { username: 'Plain message.' } })).toBe('Plain message.');
  });

  it.each([
    ['a 422 without errors', { status: 422, body: { message: 'The given data was invalid.' } }],
    ['a 422 with an empty errors object', { status: 422, body: { message: 'Invalid.', errors: {} } }],
    ['a 401', { status: 401, body: { message: 'These credentials do not match our records.' } }],
    ['a 403 (disabled account)', { status: 403, body: { message: 'This account is disabled.' } }],
    ['a 500', { status: 500, body: { message: 'Server Error' } }],
    ['a network failure', { networkError: 'Network Error' }],
  ] as const)("answers 'Invalid credentials. Please try again.' for %s", async (_name, reply) => {
    fake.on('POST', 'login', reply);
    const result = await auth.login({ username: 'admin', password: 'x' });
    expect(result).toEqual({ success: false, error: { name: 'Error', message: 'Invalid credentials. Please try again.' } });
    expect(stored().token).toBeNull();
  });

  // A decision of ours: the sign-in rate limit (docs/security.md) shows the server's message, so the user
  // learns to wait instead of retyping a correct password.
  it("shows the server's message for a 429", async () => {
    fake.on('POST', 'login', { status: 429, body: { message: 'Too Many Attempts.' } });
    const result = await auth.login({ username: 'admin', password: 'x' });
    expect(result).toEqual({ success: false, error: { name: 'Error', message: 'Too Many Attempts.' } });
  });
});

describe('logout', () => {
  it('posts /logout with the token and clears token and userRole', async () => {
    signedIn('tok-1', 'dealer');
    fake.on('POST', 'logout', { status: 204 });
    expect(await auth.logout({})).toEqual({ success: true, redirectTo: '/login' });
    expect(fake.last()).toMatchObject({ method: 'POST', url: '/api/v1/logout' });
    expect(fake.last().headers.Authorization).toBe('Bearer tok-1');
    expect(stored()).toEqual({ token: null, userRole: null });
  });

  it('clears the session even when /logout fails', async () => {
    signedIn();
    fake.on('POST', 'logout', { status: 500 });
    expect(await auth.logout({})).toEqual({ success: true, redirectTo: '/login' });
    expect(stored()).toEqual({ token: null, userRole: null });
  });

  it('makes no call without a token', async () => {
    await auth.logout({});
    expect(fake.requests).toHaveLength(0);
  });
});

describe('check', () => {
  it('without a token redirects to /login without calling the API', async () => {
    expect(await auth.check()).toEqual({ authenticated: false, logout: true, redirectTo: '/login' });
    expect(fake.requests).toHaveLength(0);
  });

  it('with a valid token loads /user, refreshes the stored role and stays signed in', async () => {
    signedIn('tok', 'dealer');
    fake.on('GET', 'user', { status: 200, body: user('reseller') });
    expect(await auth.check()).toEqual({ authenticated: true });
    expect(fake.last()).toMatchObject({ method: 'GET', url: '/api/v1/user' });
    expect(stored()).toEqual({ token: 'tok', userRole: 'reseller' });
  });

  it.each(['Unauthenticated.', 'Token has expired.'])('with a token whose /user answers 401 (%s) clears the session and logs out to /login', async (message) => {
    signedIn();
    fake.on('GET', 'user', { status: 401, body: { message } });
    const result = await auth.check();
    expect(result).toMatchObject({ authenticated: false, logout: true, redirectTo: '/login' });
    expect(stored()).toEqual({ token: null, userRole: null });
  });

  it.each([
    ['Unauthenticated', { status: 419, body: { message: 'Session Unauthenticated here' } }],
    ['401', { status: 500, body: { message: 'Upstream said 401' } }],
    ['Unauthorized', { status: 400, raw: 'Unauthorized' }],
    ['Unauthorized (transport message)', { networkError: 'Request Unauthorized by proxy' }],
  ] as const)('a session-load failure whose message contains %s clears the session', async (_word, reply) => {
    signedIn();
    fake.on('GET', 'user', reply);
    const result = await auth.check();
    expect(result).toMatchObject({ authenticated: false, logout: true, redirectTo: '/login' });
    expect(stored()).toEqual({ token: null, userRole: null });
  });

  it.each([
    ['a network failure', { networkError: 'Network Error' }],
    ['a 500', { status: 500, body: { message: 'Server Error' } }],
    ['a 503 (maintenance)', { status: 503, body: { message: 'The system is under maintenance. Please try again later.' } }],
  ] as const)('%s keeps the session', async (_name, reply) => {
    signedIn('tok', 'manager');
    fake.on('GET', 'user', reply);
    expect(await auth.check()).toEqual({ authenticated: true });
    expect(stored()).toEqual({ token: 'tok', userRole: 'manager' });
  });
});

describe('onError: only a 401 logs out', () => {
  it('logs out to /login and clears the session on 401', async () => {
    signedIn();
    expect(await auth.onError({ statusCode: 401, message: 'Unauthenticated.' } satisfies HttpError)).toEqual({
      logout: true,
      redirectTo: '/login',
    });
    expect(stored()).toEqual({ token: null, userRole: null });
  });

  it.each([403, 404, 409, 422, 429, 500, 503, 0])('answers {} and keeps the session on %i', async (statusCode) => {
    signedIn();
    expect(await auth.onError({ statusCode, message: 'x', errors: { field: ['y'] } })).toEqual({});
    expect(stored()).toEqual({ token: 'tok', userRole: 'manager' });
  });

  it('answers {} for an error without a status', async () => {
    expect(await auth.onError(new Error('boom'))).toEqual({});
  });
});

describe('getIdentity', () => {
  it('is null without a token, without calling the API', async () => {
    expect(await auth.getIdentity!()).toBeNull();
    expect(fake.requests).toHaveLength(0);
  });

  it('returns the current user from /user and stores its role', async () => {
    signedIn('tok', 'dealer');
    fake.on('GET', 'user', { status: 200, body: user('manager') });
    expect(await auth.getIdentity!()).toEqual(user('manager'));
    expect(stored().userRole).toBe('manager');
  });

  it('clears the session when /user answers Unauthenticated', async () => {
    signedIn();
    fake.on('GET', 'user', { status: 401, body: { message: 'Unauthenticated.' } });
    expect(await auth.getIdentity!()).toBeNull();
    expect(stored()).toEqual({ token: null, userRole: null });
  });

  // A 401 answer to any call removes the token (docs/domain.md#session), whatever its message says.
  it('clears the session on any 401, whatever its message', async () => {
    signedIn();
    fake.on('GET', 'user', { status: 401, body: { message: 'Token has expired.' } });
    expect(await auth.getIdentity!()).toBeNull();
    expect(stored()).toEqual({ token: null, userRole: null });
  });

  it('keeps the session on a network failure', async () => {
    signedIn();
    fake.on('GET', 'user', { networkError: 'Network Error' });
    expect(await auth.getIdentity!()).toBeNull();
    expect(stored().token).toBe('tok');
  });
});

describe('getPermissions', () => {
  it("answers the identity's role, or null when signed out", async () => {
    expect(await auth.getPermissions!()).toBeNull();
    signedIn('tok', 'admin');
    fake.on('GET', 'user', { status: 200, body: user('reseller') });
    expect(await auth.getPermissions!()).toBe('reseller');
  });

  it('asks the API once per token, and again after signing in anew', async () => {
    signedIn('tok', 'manager');
    fake.on('GET', 'user', { status: 200, body: user('manager') });
    await auth.getPermissions!();
    await auth.getPermissions!();
    expect(fake.calls('GET', 'user')).toHaveLength(1);
    fake.on('POST', 'login', { status: 200, body: { token: 'tok2', user: user('manager') } });
    await auth.login({ username: 'manager', password: 'x' });
    await auth.getPermissions!();
    expect(fake.calls('GET', 'user')).toHaveLength(2);
  });

  it('shares one /user between the session check, the identity and the permissions until the identity is cleared', async () => {
    signedIn('tok', 'dealer');
    fake.on('GET', 'user', { status: 200, body: user('dealer') });
    await auth.check();
    await Promise.all([auth.getIdentity!(), auth.getPermissions!(), auth.check()]);
    expect(fake.calls('GET', 'user')).toHaveLength(1);
    // What a credit move's refresh does: the next load asks the API again, once.
    identity.clear();
    fake.on('GET', 'user', { status: 200, body: { ...user('dealer'), credits: 5 } });
    const [after] = await Promise.all([auth.getIdentity!(), auth.check()]);
    expect(after).toMatchObject({ credits: 5 });
    expect(fake.calls('GET', 'user')).toHaveLength(2);
  });
});

describe('the query client: checks answered on their first render once the identity is known', () => {
  const initial = (client: ReturnType<typeof createQueryClient>, key: unknown[]) => {
    const initialData = client.getQueryDefaults(key).initialData;
    return typeof initialData === 'function' ? (initialData as () => unknown)() : initialData;
  };

  it('answers nothing before /user has answered, then the session, the identity, the role and the role matrix', async () => {
    const client = createQueryClient();
    signedIn('tok', 'dealer');
    fake.on('GET', 'user', { status: 200, body: user('dealer') });
    expect(initial(client, ['auth', 'check'])).toBeUndefined();
    expect(initial(client, ['access', 'accounts', 'create', { params: {} }])).toBeUndefined();
    await auth.check();
    expect(initial(client, ['auth', 'check'])).toEqual({ authenticated: true });
    expect(initial(client, ['auth', 'identity'])).toMatchObject({ role: 'dealer', credits: 100 });
    expect(initial(client, ['auth', 'permissions'])).toBe('dealer');
    expect(initial(client, ['access', 'accounts', 'create', { params: {} }])).toEqual({ can: true });
    expect(initial(client, ['access', 'managers', 'list', { params: {} }])).toEqual({ can: false, reason: ACCESS.forbidden });
  });

  it('forgets the answers with the identity (a credit move, a sign-out)', async () => {
    const client = createQueryClient();
    signedIn('tok', 'admin');
    fake.on('GET', 'user', { status: 200, body: user('admin') });
    await auth.check();
    expect(initial(client, ['access', 'managers', 'list'])).toEqual({ can: true });
    identity.clear();
    expect(initial(client, ['access', 'managers', 'list'])).toBeUndefined();
    await auth.check();
    localStorage.clear();
    expect(initial(client, ['auth', 'check'])).toBeUndefined();
  });
});

describe('maintenance and an ended session at sign-in', () => {
  beforeEach(() => sessionStorage.clear());

  it("a non-admin's sign-in during maintenance fails with the maintenance message: no session, no 'Login successful'", async () => {
    fake.on('POST', 'login', { status: 503, body: { message: ACCESS.maintenance } });
    const result = await auth.login({ username: 'reseller', password: 'secret' });
    expect(result).toEqual({ success: false, error: { name: 'Error', message: ACCESS.maintenance } });
    expect(stored()).toEqual({ token: null, userRole: null });
  });

  it('a 401 remembers that the session ended; the next sign-in forgets it; a session never opened is not "ended"', async () => {
    expect(session.ended()).toBe(false);
    await auth.check();
    expect(session.ended()).toBe(false);
    signedIn();
    await auth.onError({ statusCode: 401, message: 'Unauthenticated.' } satisfies HttpError);
    expect(session.ended()).toBe(true);
    // Refine signs out after the 401: that keeps the reason for the sign-in page.
    await auth.logout({});
    expect(session.ended()).toBe(true);
    fake.on('POST', 'login', { status: 200, body: { token: 'abc123', user: user('reseller') } });
    await auth.login({ username: 'reseller', password: 'secret' });
    expect(session.ended()).toBe(false);
  });

  it('a refused token on the session check ends the session too', async () => {
    signedIn();
    fake.on('GET', 'user', { status: 401, body: { message: 'Unauthenticated.' } });
    await auth.check();
    expect(session.ended()).toBe(true);
  });
});
