import { TeamOutlined } from '@ant-design/icons';
import { EntityTransactionsPage } from '../../components/transactions';
import type { PanelResource } from '../types';
import { DealerEditPage } from './edit';
import { DealersList } from './list';

export const dealers: PanelResource = {
  resource: { name: 'dealers', list: '/dealers', edit: '/dealers/edit/:id', meta: { label: 'Dealers', icon: <TeamOutlined /> } },
  routes: [
    { path: '/dealers', element: <DealersList />, access: ['dealers', 'list'] },
    { path: '/dealers/edit/:id', element: <DealerEditPage />, access: ['dealers', 'edit'] },
    { path: '/dealers/:id/transactions', element: <EntityTransactionsPage entity="dealers" label="Dealer" />, access: ['dealers', 'transactions'] },
  ],
};
