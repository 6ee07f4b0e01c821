import { UserOutlined } from '@ant-design/icons';
import { type FirstCall, type PanelResource, lazyPage } from '../../components/routing';

const AccountsPage = lazyPage(() => import('./AccountsPage'), 'AccountsPage');
/** The accounts, and the servers of the Server filter and the caller's branch server (useAccountServers). */
const firstCalls: FirstCall[] = [{ list: 'accounts' }, { list: 'servers', path: 'servers/public', unpaged: true }, { get: 'user/manager-server' }];

/** End-user accounts: /users and /accounts are the same screen. */
export const accounts: PanelResource = {
  name: 'accounts',
  icon: <UserOutlined />,
  list: { path: '/users', page: AccountsPage, firstCalls },
  routes: [{ path: '/accounts', page: AccountsPage, firstCalls }],
};
