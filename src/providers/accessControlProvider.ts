/** The access-control provider: the contract's role matrix, for the role of the signed-in user. */
import type { AccessControlProvider } from '@refinedev/core';
import { ACCESS, can } from '../contract';
import { session } from './session';

export const accessControlProvider: AccessControlProvider = {
  async can({ resource, action }) {
    const allowed = can(session.role(), resource ?? '', action);
    return allowed ? { can: true } : { can: false, reason: ACCESS.forbidden };
  },
  options: {
    buttons: { enableAccessControl: true, hideIfUnauthorized: true },
    // The role is read from storage, so answers must not outlive a change of user.
    queryOptions: { staleTime: 0, gcTime: 0 },
  },
};
