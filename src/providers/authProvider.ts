/**
 * Sign-in, session checks and sign-out (docs/domain.md#session): token and userRole in localStorage; a 401,
 * or a session-load failure mentioning Unauthenticated/401/Unauthorized, clears the session.
 */
import type { AuthProvider, HttpError } from '@refinedev/core';
import type { AxiosInstance } from 'axios';
import { AUTH, type LoginResponse } from '../contract';
import { http as defaultHttp } from './http';
import { identity } from './identity';
import { session } from './session';

const SESSION_ERROR = /Unauthenticated|401|Unauthorized/i;

/** The first per-field message of a 422, else the default failure text. */
export function loginErrorMessage(error: HttpError): string {
  if (error.statusCode === 422 && error.errors) {
    for (const value of Object.values(error.errors)) {
      const first = Array.isArray(value) ? value[0] : typeof value === 'string' ? value : undefined;
      if (first) return first;
    }
  }
  // Too many attempts, and maintenance (a non-admin during it): the API's own message says why.
  if (error.statusCode === 429 || error.statusCode === 503) return error.message;
  return AUTH.invalidCredentials;
}

export function createAuthProvider(http: AxiosInstance = defaultHttp): AuthProvider {
  return {
    async login({ username, password }: { username?: string; password?: string }) {
      if (!username?.trim() || !password) {
        return { success: false, error: { name: 'Error', message: AUTH.fillAllFields } };
      }
      try {
        const { data } = await http.post<LoginResponse>('login', { username: username.trim(), password });
        identity.clear();
        session.save(data.token, data.user.role);
        // No 'Login successful' toast: the dashboard opening says it, and a toast opened as the page
        // changes would stay over the dashboard (the bottom of a phone screen) for its 3 s.
        return { success: true, redirectTo: '/' };
      } catch (error) {
        return { success: false, error: { name: 'Error', message: loginErrorMessage(error as HttpError) } };
      }
    },

    async logout() {
      if (session.token()) await http.post('logout').catch(() => undefined);
      session.clear();
      identity.clear();
      return { success: true, redirectTo: '/login' };
    },

    async check() {
      if (!session.token()) return { authenticated: false, logout: true, redirectTo: '/login' };
      try {
        await identity.load(http);
        return { authenticated: true };
      } catch (error) {
        const e = error as HttpError;
        if (e.statusCode === 401 || SESSION_ERROR.test(e.message ?? '')) {
          session.end();
          return { authenticated: false, logout: true, redirectTo: '/login', error: { name: 'Error', message: e.message } };
        }
        // A passing network failure is not a reason to sign the user out.
        return { authenticated: true };
      }
    },

    async onError(error: HttpError) {
      if (error?.statusCode === 401) {
        session.end();
        return { logout: true, redirectTo: '/login' };
      }
      return {};
    },

    async getIdentity() {
      if (!session.token()) return null;
      try {
        return await identity.load(http);
      } catch (error) {
        const e = error as HttpError;
        if (e.statusCode === 401 || SESSION_ERROR.test(e.message ?? '')) session.end();
        return null;
      }
    },

    async getPermissions() {
      return (await identity.load(http).catch(() => null))?.role ?? null;
    },
  };
}

export const authProvider = createAuthProvider();
