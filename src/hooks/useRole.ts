import { useGetIdentity } from '@refinedev/core';
import { type CurrentUser, can } from '../contract';
import { session } from '../providers/session';

/** The signed-in user (from the auth provider's identity) and its role. */
export function useCurrentUser() {
  const { data: user, refetch, isLoading } = useGetIdentity<CurrentUser>();
  const role = user?.role ?? session.role();
  return { user, role, refetch, isLoading };
}

/** Whether the signed-in role may do `action` on `resource` (the contract's role matrix). */
export function useCan(resource: string, action: string): boolean {
  const { role } = useCurrentUser();
  return can(role, resource, action);
}
