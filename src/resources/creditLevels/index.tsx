import { RiseOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const creditLevels: PanelResource = {
  name: 'credit-levels',
  icon: <RiseOutlined />,
  list: { path: '/credit-levels', page: lazyPage(() => import('./list'), 'CreditLevelsPage') },
};
