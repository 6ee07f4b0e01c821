/**
 * The signed-in user as the API describes it (GET /user): the one place the panel reads the role from.
 * The access-control provider asks it on every check, so the answer is kept per token.
 */
import { useGetIdentity, useInvalidateAuthStore } from '@refinedev/core';
import type { AxiosInstance } from 'axios';
import { useCallback } from 'react';
import type { CurrentUser } from '../contract';
import { session } from './session';

let cached: { token: string; user: Promise<CurrentUser>; value?: CurrentUser } | null = null;

export const identity = {
  /**
   * GET /user for the current token, kept until `clear` (sign-in, sign-out, or a change to the user
   * such as a credit move): the session check, the identity and the access checks of a page load share
   * one call instead of waiting on one another's. Rejects like the request; a failure is not kept.
   */
  load(http: AxiosInstance): Promise<CurrentUser | null> {
    const token = session.token();
    if (!token) return Promise.resolve(null);
    if (cached?.token === token) return cached.user;
    const user = http.get<CurrentUser>('user').then(({ data }) => {
      session.setRole(data.role);
      return data;
    });
    const entry: NonNullable<typeof cached> = { token, user };
    cached = entry;
    user.then(
      (value) => (entry.value = value),
      () => {
        if (cached === entry) cached = null;
      },
    );
    return user;
  },
  /** The user `load` has answered for the current token, if it has: what can be known without waiting. */
  known(): CurrentUser | undefined {
    return cached && cached.token === session.token() ? cached.value : undefined;
  },
  clear() {
    cached = null;
  },
};

/**
 * Reloads the signed-in user after something changed it (credits, profile): the kept answer is
 * dropped, then Refine's auth queries (session check, identity, permissions) ask again.
 */
export function useRefreshIdentity() {
  const invalidateAuthStore = useInvalidateAuthStore();
  return useCallback(() => {
    identity.clear();
    return invalidateAuthStore();
  }, [invalidateAuthStore]);
}

/** The signed-in user and its role, from the auth provider's identity. */
export function useCurrentUser() {
  const { data: user, refetch, isLoading } = useGetIdentity<CurrentUser>();
  return { user: user ?? null, role: user?.role ?? null, refetch, isLoading };
}
