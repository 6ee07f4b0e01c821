import { BellOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** The caller's own notifications (opened from the Notifications button, not a menu). */
export const notifications: PanelResource = {
  name: 'notifications',
  icon: <BellOutlined />,
  list: { path: '/notifications', page: lazyPage(() => import('./list'), 'NotificationsPage') },
};
