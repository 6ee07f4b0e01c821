import { NotificationOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** Announcements as the roles below admin read them. */
export const userAnnouncements: PanelResource = {
  name: 'user-announcements',
  icon: <NotificationOutlined />,
  list: { path: '/user-announcements', page: lazyPage(() => import('./list'), 'UserAnnouncementsPage') },
};
