/**
 * The signed-in frame's gate. Like Refine's <Authenticated>, but a re-check of a known session (every
 * credit operation refreshes the auth store so that the header's credits follow) keeps the frame on
 * screen: the page is not unmounted and mounted again, so its search, selection, scroll and focus
 * survive, and a dialog closing after a renewal returns the focus to the row it was opened from.
 */
import { useIsAuthenticated } from '@refinedev/core';
import type { ReactNode } from 'react';

export function SignedIn({ children, fallback, loading = null }: { children: ReactNode; fallback: ReactNode; loading?: ReactNode }) {
  const { data, isLoading } = useIsAuthenticated();
  if (!data) return isLoading ? <>{loading}</> : <>{fallback}</>;
  return <>{data.authenticated ? children : fallback}</>;
}
