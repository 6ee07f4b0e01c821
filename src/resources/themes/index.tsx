import { BgColorsOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const themes: PanelResource = {
  name: 'themes',
  icon: <BgColorsOutlined />,
  list: { path: '/themes', page: lazyPage(() => import('./list'), 'ThemesPage') },
};
