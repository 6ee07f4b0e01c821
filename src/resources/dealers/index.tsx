import { TeamOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const dealers: PanelResource = {
  name: 'dealers',
  icon: <TeamOutlined />,
  list: { path: '/dealers', page: lazyPage(() => import('./list'), 'DealersList') },
  edit: { path: '/dealers/edit/:id', page: lazyPage(() => import('./edit'), 'DealerEditPage'), title: 'Edit Dealer' },
  routes: [
    {
      path: '/dealers/:id/transactions',
      page: lazyPage(() => import('../../features/transactions'), 'EntityTransactionsPage'),
      props: { entity: 'dealers', label: 'Dealer' },
      title: 'Dealer Transactions',
      access: ['dealers', 'transactions'],
    },
  ],
};
