import { SlidersOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';
import { CONFIG_SCREENS } from '../../contract';

export const creditOptionsSettings: PanelResource = {
  name: 'credit-options-settings',
  label: CONFIG_SCREENS.creditOptionsTitle,
  icon: <SlidersOutlined />,
  list: { path: '/credit-options-settings', page: lazyPage(() => import('./list'), 'CreditOptionsSettingsPage') },
};
