/**
 * The signed-in user as the API describes it (GET /user): the one place the panel reads the role from.
 * The access-control provider asks it on every check, so the answer is kept per token and refreshed
 * whenever the auth provider loads the identity again.
 */
import { useGetIdentity } from '@refinedev/core';
import type { AxiosInstance } from 'axios';
import type { CurrentUser } from '../contract';
import { session } from './session';

let cached: { token: string; user: Promise<CurrentUser> } | null = null;

export const identity = {
  /** GET /user for the current token; `fresh` skips the kept answer. Rejects like the request. */
  load(http: AxiosInstance, fresh = false): Promise<CurrentUser | null> {
    const token = session.token();
    if (!token) return Promise.resolve(null);
    if (!fresh && cached?.token === token) return cached.user;
    const user = http.get<CurrentUser>('user').then(({ data }) => {
      session.setRole(data.role);
      return data;
    });
    cached = { token, user };
    // A failed load is not kept: the next check asks again.
    user.catch(() => {
      if (cached?.user === user) cached = null;
    });
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
