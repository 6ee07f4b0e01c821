/**
 * The in-page access check of the admin screens that ask for one (servers, audit logs, announcement
 * management; docs/domain.md#roles). The route guard already sends other roles to /unauthorized; this is the second
 * line for whatever reaches the page anyway (a role that changed after sign-in, a stale session).
 */
import { CanAccess } from '@refinedev/core';
import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { ACCESS } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { PageResult } from '../layout/PageResult';

function AccessDenied() {
  const { role } = useCurrentUser();
  return (
    <PageResult
      status="403"
      title={ACCESS.denied}
      subTitle={
        <>
          <Typography.Paragraph>{ACCESS.adminOnly}</Typography.Paragraph>
          <Typography.Text type="secondary">
            {ACCESS.currentRole} {role ?? 'unknown'}
          </Typography.Text>
        </>
      }
    />
  );
}

export function PageAccess({ resource, action = 'list', children }: { resource: string; action?: string; children: ReactNode }) {
  return (
    <CanAccess resource={resource} action={action} fallback={<AccessDenied />}>
      {children}
    </CanAccess>
  );
}
