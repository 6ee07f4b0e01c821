import { NotificationOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** Announcement management (admin). */
export const announcements: PanelResource = {
  name: 'announcements',
  icon: <NotificationOutlined />,
  list: { path: '/announcements', page: lazyPage(() => import('./list'), 'AnnouncementsPage') },
};
