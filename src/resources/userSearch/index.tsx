import { SearchOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** User Search (reseller): the accounts of the caller's subtree by login, name or MAC. */
export const userSearch: PanelResource = {
  name: 'user-search',
  icon: <SearchOutlined />,
  list: { path: '/user-search', page: lazyPage(() => import('./list'), 'UserSearchPage') },
};
