/** The access-control provider: the contract's role matrix, for the role of the signed-in identity. */
import type { AccessControlProvider } from '@refinedev/core';
import type { AxiosInstance } from 'axios';
import { ACCESS, can } from '../contract';
import { http as defaultHttp } from './http';
import { identity } from './identity';

/** The access-control answer for a role: the contract's matrix. */
export const accessAnswer = (role: string | null, resource: string, action: string) =>
  can(role, resource, action) ? { can: true } : { can: false, reason: ACCESS.forbidden };

export function createAccessControlProvider(http: AxiosInstance = defaultHttp): AccessControlProvider {
  return {
    async can({ resource, action }) {
      const user = await identity.load(http).catch(() => null);
      return accessAnswer(user?.role ?? null, resource ?? '', action);
    },
    options: {
      buttons: { enableAccessControl: true, hideIfUnauthorized: true },
      // Answers must not outlive a change of user; the identity behind them is kept per token.
      queryOptions: { staleTime: 0, gcTime: 0 },
    },
  };
}

export const accessControlProvider = createAccessControlProvider();
