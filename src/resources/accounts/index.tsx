import { UserOutlined } from '@ant-design/icons';
import { type FirstCall, type PanelResource, lazyPage } from '../../components/routing';

const AccountsPage = lazyPage(() => import('./AccountsPage'), 'AccountsPage');
/** The accounts, and the servers of the Server filter (the branch's own server waits for the account form). */
const firstCalls: FirstCall[] = [{ list: 'accounts' }, { list: 'servers', path: 'servers/public', unpaged: true }];

/** End-user accounts: /users and /accounts are the same screen. */
export const accounts: PanelResource = {
  name: 'accounts',
  icon: <UserOutlined />,
  list: { path: '/users', page: AccountsPage, firstCalls },
  routes: [{ path: '/accounts', page: AccountsPage, firstCalls }],
};
