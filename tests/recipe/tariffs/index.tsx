/** The panel's declaration of a plain resource: its icon and its page, loaded when the route first opens. */
import { DollarOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../../src/components/routing';
import tariffs from './contract';

export const tariffsResource: PanelResource = {
  name: tariffs.name,
  icon: <DollarOutlined />,
  list: { path: tariffs.path, page: lazyPage(() => import('./list'), 'TariffsPage') },
};
