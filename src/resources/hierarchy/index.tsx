import { ApartmentOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

/** The caller's subtree as a tree, with each branch's balance and accounts (admin, manager, reseller). */
export const hierarchy: PanelResource = {
  name: 'hierarchy',
  icon: <ApartmentOutlined />,
  list: { path: '/hierarchy', page: lazyPage(() => import('./list'), 'HierarchyPage') },
};
