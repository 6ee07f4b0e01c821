/**
 * The in-page role check of the admin screens that the spec names (servers, audit logs, announcement
 * management; spec 6). The route guard already sends other roles to /unauthorized; this is the second
 * line for whatever reaches the page anyway (a role that changed after sign-in, a stale session).
 */
import { Result, Typography } from 'antd';
import type { ReactNode } from 'react';
import { ACCESS } from '../contract';
import { useCurrentUser } from '../hooks/useRole';

export function AdminOnly({ children }: { children: ReactNode }) {
  const { role } = useCurrentUser();
  if (role === 'admin') return <>{children}</>;
  return (
    <Result
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
