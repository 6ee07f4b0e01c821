import { SearchOutlined, WifiOutlined } from '@ant-design/icons';
import { ACCOUNT_SCREEN } from '../contract';
import { MacSearchPage } from '../pages/MacSearch';
import { UserSearchPage } from '../pages/UserSearch';
import type { PanelResource } from './types';

/** MAC Check (every role) and User Search (reseller): lookups over the caller's accounts. */
export const macSearch: PanelResource = {
  resource: { name: 'mac-search', list: '/mac-search', meta: { label: ACCOUNT_SCREEN.macCheck, icon: <WifiOutlined /> } },
  routes: [{ path: '/mac-search', element: <MacSearchPage />, access: ['mac-search', 'list'] }],
};

export const userSearch: PanelResource = {
  resource: { name: 'user-search', list: '/user-search', meta: { label: ACCOUNT_SCREEN.userSearch, icon: <SearchOutlined /> } },
  routes: [{ path: '/user-search', element: <UserSearchPage />, access: ['user-search', 'list'] }],
};
