import { SwapOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

export const transactions: PanelResource = {
  name: 'transactions',
  icon: <SwapOutlined />,
  list: { path: '/transactions', page: lazyPage(() => import('./list'), 'TransactionsPage') },
  routes: [
    { path: '/user/transactions', page: lazyPage(() => import('./list'), 'UserTransactionsPage'), title: 'User Transactions' },
    { path: '/statements/:id', page: lazyPage(() => import('../../features/transactions'), 'StatementPage'), title: 'Statement' },
  ],
};
