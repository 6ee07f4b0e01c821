import { TeamOutlined } from '@ant-design/icons';
import { EntityTransactionsPage } from '../../components/transactions';
import type { PanelResource } from '../types';
import { ResellersList } from './list';

export const resellers: PanelResource = {
  resource: { name: 'resellers', list: '/resellers', meta: { label: 'Resellers', icon: <TeamOutlined /> } },
  routes: [
    { path: '/resellers', element: <ResellersList />, access: ['resellers', 'list'] },
    { path: '/resellers/:id/transactions', element: <EntityTransactionsPage entity="resellers" label="Reseller" />, access: ['resellers', 'transactions'] },
  ],
};
