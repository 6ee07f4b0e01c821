import { CloudServerOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const servers: PanelResource = {
  name: 'servers',
  icon: <CloudServerOutlined />,
  list: { path: '/servers', page: lazyPage(() => import('./list'), 'ServersPage') },
};
