import { SearchOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';
import { ACCOUNT_SCREEN } from '../../contract';

/** User Search (reseller): the accounts of the caller's subtree by login, name or MAC. */
export const userSearch: PanelResource = {
  name: 'user-search',
  label: ACCOUNT_SCREEN.userSearch,
  icon: <SearchOutlined />,
  list: { path: '/user-search', page: lazyPage(() => import('./list'), 'UserSearchPage') },
};
