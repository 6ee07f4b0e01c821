import { TeamOutlined } from '@ant-design/icons';
import { EntityTransactionsPage } from '../../components/transactions';
import type { PanelResource } from '../types';
import { ManagerFormPage } from './form';
import { ManagersList } from './list';

export const managers: PanelResource = {
  resource: {
    name: 'managers',
    list: '/managers',
    create: '/managers/create',
    edit: '/managers/edit/:id',
    meta: { label: 'Managers', icon: <TeamOutlined /> },
  },
  routes: [
    { path: '/managers', element: <ManagersList />, access: ['managers', 'list'] },
    { path: '/managers/create', element: <ManagerFormPage mode="create" />, access: ['managers', 'create'] },
    { path: '/managers/edit/:id', element: <ManagerFormPage mode="edit" />, access: ['managers', 'edit'] },
    { path: '/managers/:id/transactions', element: <EntityTransactionsPage entity="managers" label="Manager" />, access: ['managers', 'transactions'] },
  ],
};
