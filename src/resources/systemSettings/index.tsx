import { SettingOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const systemSettings: PanelResource = {
  name: 'settings',
  icon: <SettingOutlined />,
  list: { path: '/settings', page: lazyPage(() => import('./list'), 'SystemSettingsPage') },
};
