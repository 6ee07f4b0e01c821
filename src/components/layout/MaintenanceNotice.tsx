import { useLogout } from '@refinedev/core';
import { Button } from 'antd';
import { ACCESS } from '../../contract';
import { PageResult } from './PageResult';

/** Shown to non-admins while maintenance mode is on (the API answers them 503). */
export function MaintenanceNotice() {
  const { mutate: logout } = useLogout();
  return <PageResult status="warning" title="Maintenance" subTitle={ACCESS.maintenance} extra={<Button onClick={() => logout()}>Logout</Button>} />;
}
