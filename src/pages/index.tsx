/** The pages that are not entities, declared like resources so that routes and menus derive from them. */
import { DashboardOutlined, UserOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../components/routing';

const DashboardPage = lazyPage(() => import('./Dashboard'), 'DashboardPage');

export const dashboard: PanelResource = {
  name: 'dashboard',
  icon: <DashboardOutlined />,
  list: { path: '/', page: DashboardPage },
  routes: [{ path: '/dashboard', page: DashboardPage }],
};

export const profile: PanelResource = {
  name: 'profile',
  icon: <UserOutlined />,
  list: { path: '/profile', page: lazyPage(() => import('./Profile'), 'ProfilePage') },
};

/** Pages outside the signed-in frame. */
export const LoginPage = lazyPage(() => import('./Login'), 'LoginPage');
export const UnauthorizedPage = lazyPage(() => import('./Unauthorized'), 'UnauthorizedPage');
export const NotFoundPage = lazyPage(() => import('./NotFound'), 'NotFoundPage');
export const TwoFactorEnrolPage = lazyPage(() => import('./TwoFactorEnrol'), 'TwoFactorEnrolPage');
