import { UserOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';
import { ACCOUNT_SCREEN } from '../../contract';

const AccountsPage = lazyPage(() => import('./AccountsPage'), 'AccountsPage');

/** End-user accounts: /users and /accounts are the same screen (spec 2). */
export const accounts: PanelResource = {
  name: 'accounts',
  label: ACCOUNT_SCREEN.title,
  icon: <UserOutlined />,
  list: { path: '/users', page: AccountsPage, firstList: 'accounts' },
  routes: [{ path: '/accounts', page: AccountsPage, firstList: 'accounts' }],
};
