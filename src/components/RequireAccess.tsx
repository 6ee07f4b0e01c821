import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { can } from '../contract';
import { useCurrentUser } from '../hooks/useRole';

/** Renders the page when the role may open it, else sends the user to /unauthorized (spec 6). */
export function RequireAccess({ access, children }: { access: readonly [string, string] | null; children: ReactNode }) {
  const { role } = useCurrentUser();
  if (access && !can(role, access[0], access[1])) return <Navigate to="/unauthorized" replace />;
  return <>{children}</>;
}
