/**
 * The signed-in user as the API describes it (GET /user): the one place the panel reads the role from.
 * The access-control provider asks it on every check, so the answer is kept per token and refreshed
 * whenever the auth provider loads the identity again.
 */
import { useGetIdentity } from '@refinedev/core';
import type { AxiosInstance } from 'axios';
import type { CurrentUser } from '../contract';
import { session } from './session';

let cached: { token: string; user: Promise<CurrentUser>; settled: boolean } | null = null;

export const identity = {
  /**
   * GET /user for the current token; `fresh` skips a kept answer (but shares a request still under
   * way, so the session check, the identity and the access checks of one page load make one call).
   * Rejects like the request.
   */
  load(http: AxiosInstance, fresh = false): Promise<CurrentUser | null> {
    const token = session.token();
    if (!token) return Promise.resolve(null);
    if (cached?.token === token && (!fresh || !cached.settled)) return cached.user;
    const user = http.get<CurrentUser>('user').then(({ data }) => {
      session.setRole(data.role);
      return data;
    });
    const entry = { token, user, settled: false };
    cached = entry;
    user.then(
      () => {
        entry.settled = true;
      },
      // A failed load is not kept: the next check asks again.
      () => {
        if (cached === entry) cached = null;
      },
    );
    return user;
  },
  clear() {
    cached = null;
  },
};

/** The signed-in user and its role, from the auth provider's identity. */
export function useCurrentUser() {
  const { data: user, refetch, isLoading } = useGetIdentity<CurrentUser>();
  return { user: user ?? null, role: user?.role ?? null, refetch, isLoading };
}
