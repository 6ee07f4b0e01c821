import { useLogout } from '@refinedev/core';
import { Button, Result } from 'antd';
import { ACCESS } from '../../contract';

/** Shown to non-admins while maintenance mode is on (the API answers them 503). */
export function MaintenanceNotice() {
  const { mutate: logout } = useLogout();
  return (
    <Result
      status="warning"
      title="Maintenance"
      subTitle={ACCESS.maintenance}
      extra={<Button onClick={() => logout()}>Logout</Button>}
    />
  );
}
