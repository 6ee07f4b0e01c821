import { TeamOutlined } from '@ant-design/icons';
import { type PanelResource, lazyPage } from '../../components/routing';

const ManagerFormPage = lazyPage(() => import('./form'), 'ManagerFormPage');

export const managers: PanelResource = {
  name: 'managers',
  icon: <TeamOutlined />,
  list: { path: '/managers', page: lazyPage(() => import('./list'), 'ManagersList') },
  create: { path: '/managers/create', page: ManagerFormPage, props: { mode: 'create' }, title: 'Create Manager' },
  edit: { path: '/managers/edit/:id', page: ManagerFormPage, props: { mode: 'edit' }, title: 'Edit Manager' },
  routes: [
    {
      path: '/managers/:id/transactions',
      page: lazyPage(() => import('../../features/transactions'), 'EntityTransactionsPage'),
      props: { entity: 'managers', label: 'Manager' },
      title: 'Manager Transactions',
      access: ['managers', 'transactions'],
    },
  ],
};
