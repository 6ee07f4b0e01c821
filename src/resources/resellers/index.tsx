import { TeamOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const resellers: PanelResource = {
  name: 'resellers',
  icon: <TeamOutlined />,
  list: { path: '/resellers', page: lazyPage(() => import('./list'), 'ResellersList') },
  routes: [
    {
      path: '/resellers/:id/transactions',
      page: lazyPage(() => import('../../features/transactions'), 'EntityTransactionsPage'),
      props: { entity: 'resellers', label: 'Reseller' },
      title: 'Reseller Transactions',
      access: ['resellers', 'transactions'],
    },
  ],
};
