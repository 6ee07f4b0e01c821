/**
 * Opens a route's page when the access-control provider allows it (otherwise /unauthorized),
 * loading the page's module on first use.
 */
import { CanAccess } from '@refinedev/core';
import { Spin } from 'antd';
import { Suspense } from 'react';
import { Navigate } from 'react-router';
import type { GuardedRoute } from './declarations';

export const PageLoading = () => (
  <div role="status" aria-label="Loading">
    <Spin size="large" style={{ display: 'block', margin: '64px auto' }} />
  </div>
);

export function RouteGuard({ route }: { route: GuardedRoute }) {
  const Page = route.page;
  return (
    <CanAccess resource={route.access[0]} action={route.access[1]} fallback={<Navigate to="/unauthorized" replace />}>
      <Suspense fallback={<PageLoading />}>
        <Page {...route.props} />
      </Suspense>
    </CanAccess>
  );
}
