/**
 * Sign-in, session checks and sign-out (docs/domain.md#session): token and userRole in localStorage; a 401,
 * or a session-load failure mentioning Unauthenticated/401/Unauthorized, clears the session.
 */
import type { AuthProvider, HttpError } from '@refinedev/core';
import type { AxiosInstance } from 'axios';
import { AUTH, type LoginResponse, type SessionAnswer, TWO_FACTOR } from '../contract';
import { colorScheme } from './colorScheme';
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
    /**
     * The password step ({ username, password }) or the second step ({ challenge, code }). A password
     * that needs a code answers success with `twoFactor` (the challenge) and no session: the sign-in
     * page then asks for the code, and no toast or redirect happens.
     */
    async login(params: { username?: string; password?: string; challenge?: string; code?: string }) {
      const { username, password, challenge, code } = params;
      const secondStep = challenge !== undefined;
      if (secondStep ? !code?.trim() : !username?.trim() || !password) {
        return { success: false, error: { name: 'Error', message: secondStep ? TWO_FACTOR.codeRequired : AUTH.fillAllFields } };
      }
      try {
        const { data } = secondStep
          ? await http.post<SessionAnswer>('login/two-factor', { challenge, code: code!.trim() })
          : await http.post<LoginResponse>('login', { username: username!.trim(), password });
        if (!('token' in data)) {
          session.setChallenge(data.two_factor);
          return { success: true, twoFactor: data.two_factor };
        }
        const signedIn = data as SessionAnswer;
        session.setChallenge(null);
        identity.clear();
        session.save(signedIn.token, signedIn.user.role);
        // The user's colour scheme before the first screen, so it opens in it (a failure keeps the cached one).
        await colorScheme.load(http);
        return {
          success: true,
          redirectTo: '/',
          successNotification: { message: AUTH.loginSuccess },
        };
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
          // A view-as session ended (its time, the user out of reach): back to the parent's own.
          if (session.leaveViewAs()) {
            identity.clear();
            window.location.assign('/');
            return { authenticated: true };
          }
          session.end();
          return { authenticated: false, logout: true, redirectTo: '/login', error: { name: 'Error', message: e.message } };
        }
        // A passing network failure is not a reason to sign the user out.
        return { authenticated: true };
      }
    },

    async onError(error: HttpError) {
      if (error?.statusCode === 401 && session.leaveViewAs()) {
        identity.clear();
        window.location.assign('/');
        return {};
      }
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
