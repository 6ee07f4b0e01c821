import { WifiOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** MAC Check: every role, and a signed-in user of an unknown role too (docs/domain.md#roles). */
export const macSearch: PanelResource = {
  name: 'mac-search',
  icon: <WifiOutlined />,
  list: { path: '/mac-search', page: lazyPage(() => import('./list'), 'MacSearchPage') },
};
