import { SlidersOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const creditOptionsSettings: PanelResource = {
  name: 'credit-options-settings',
  icon: <SlidersOutlined />,
  list: { path: '/credit-options-settings', page: lazyPage(() => import('./list'), 'CreditOptionsSettingsPage') },
};
