import { SettingOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const systemSettings: PanelResource = {
  name: 'settings',
  label: 'System Settings',
  icon: <SettingOutlined />,
  list: { path: '/settings', page: lazyPage(() => import('./list'), 'SystemSettingsPage') },
};
