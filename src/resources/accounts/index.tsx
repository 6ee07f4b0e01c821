import { UserOutlined } from '@ant-design/icons';
import { ACCOUNT_SCREEN } from '../../contract';
import type { PanelResource } from '../types';
import { AccountsPage } from './AccountsPage';

/** End-user accounts: /users and /accounts are the same screen (spec 2). */
export const accounts: PanelResource = {
  resource: { name: 'accounts', list: '/users', meta: { label: ACCOUNT_SCREEN.title, icon: <UserOutlined /> } },
  routes: [
    { path: '/users', element: <AccountsPage />, access: ['accounts', 'list'] },
    { path: '/accounts', element: <AccountsPage />, access: ['accounts', 'list'] },
  ],
};
