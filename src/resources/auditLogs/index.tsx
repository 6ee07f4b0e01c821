import { AuditOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** Audit logs (admin): read only. */
export const auditLogs: PanelResource = {
  name: 'audit-logs',
  icon: <AuditOutlined />,
  list: { path: '/audit-logs', page: lazyPage(() => import('./list'), 'AuditLogsPage') },
};
