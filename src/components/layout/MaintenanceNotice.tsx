import { useLogout } from '@refinedev/core';
import { Alert, Button } from 'antd';
import { Link } from 'react-router';
import { ACCESS, MAINTENANCE_BAR } from '../../contract';
import { PageResult } from './PageResult';

/** Shown to non-admins while maintenance mode is on (the API answers them 503). */
export function MaintenanceNotice() {
  const { mutate: logout } = useLogout();
  return <PageResult status="warning" title="Maintenance" subTitle={ACCESS.maintenance} extra={<Button onClick={() => logout()}>Logout</Button>} />;
}

/**
 * Above every admin screen while maintenance mode is on: the admin keeps working while everyone else
 * is locked out, and must not forget to let them back in. Not closable, so it stays until it is off.
 */
export function MaintenanceBar() {
  return (
    <Alert
      banner
      type="warning"
      role="status"
      data-testid="maintenance-bar"
      message={MAINTENANCE_BAR.text}
      action={<Link to="/settings">{MAINTENANCE_BAR.manage}</Link>}
    />
  );
}
