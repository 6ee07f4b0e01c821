/** /managers (admin): the shared table with the manager row actions. */
import { PlusOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useNavigate } from 'react-router';
import { DATA_TABLE, DIALOGS, GENERAL, HIERARCHY, HIERARCHY_PANEL, type HierarchyUser, MANAGERS, plural } from '../../contract';
import { DataTable, type ListColumn } from '../../components/DataTable';
import { activeOptions, dateTime } from '../../components/display';
import { useConfirm } from '../../components/feedback';
import { TOAST_KEY } from '../../providers/notificationProvider';
import { lastLoginColumn, lowCreditsFilter, statusColumn, useDeleteUsers, useStatusToggle, useUserRowActions } from '../../features/hierarchy';

export function ManagersList() {
  const navigate = useNavigate();
  const { notification } = App.useApp();
  const { confirmDelete } = useConfirm();
  const toggle = useStatusToggle('managers', 'manager');

  const remove = useDeleteUsers('managers', {
    failed: MANAGERS.deleteFailed,
    deletedOne: HIERARCHY.deleted('Manager'),
    deletedMany: HIERARCHY_PANEL.managersDeleted,
  });

  const comingSoon = (title: string) => () => notification.info({ key: TOAST_KEY, message: title, description: GENERAL.comingSoon });

  const columns: Array<ListColumn<HierarchyUser, 'managers'>> = [
    { dataIndex: 'name', title: 'Name', sortable: true, priority: 'key' },
    { dataIndex: 'username', title: 'Username', sortable: true, priority: 'key' },
    { dataIndex: 'server.name', title: 'Server', render: (v: string | undefined) => v ?? '—', responsive: ['md'] },
    { dataIndex: 'credits', title: 'Credits', sortable: true, width: 110, priority: 'key' },
    { dataIndex: 'total_children', title: 'Total Resellers', sortable: true, width: 130, responsive: ['lg'] },
    { dataIndex: 'total_accounts', title: 'Total Users', sortable: true, width: 120, responsive: ['lg'] },
    statusColumn(toggle),
    lastLoginColumn,
    { dataIndex: 'created_at', title: 'Created', sortable: true, render: dateTime, responsive: ['lg'] },
  ];

  const addButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/managers/create')}>
      Add Manager
    </Button>
  );

  const { rowActions, dialogs } = useUserRowActions('managers', {
    onEdit: (r) => navigate(`/managers/edit/${r.id}`),
    onDelete: (r) => confirmDelete(`manager "${r.name}"`, () => remove([r.id])),
    transactionsLabel: 'View Transactions',
  });

  return (
    <>
      <DataTable<HierarchyUser, 'managers'>
        resource="managers"
        title="Managers"
        columns={columns}
        columnChooser
        searchPlaceholder="Search managers..."
        selectFilters={[{ field: 'is_active', label: 'Status', options: activeOptions }, lowCreditsFilter]}
        loadErrorMessage={MANAGERS.loadFailed.description}
        loadErrorTitle={MANAGERS.loadFailed.title}
        notifyLoadError
        rowActions={rowActions}
        bulkActions={[
          { key: 'add-credits', label: DIALOGS.addCredits, onClick: comingSoon(DIALOGS.addCredits) },
          { key: 'recover-credits', label: DIALOGS.recoverCredits, onClick: comingSoon(DIALOGS.recoverCredits) },
          { key: 'delete', label: 'Delete', danger: true, onClick: (ids, _rows, clear) => confirmDelete(plural(ids.length, 'manager'), () => remove(ids, clear)) },
        ]}
        extra={addButton}
        empty={{ hint: DATA_TABLE.addFirst('manager'), action: addButton }}
      />
      {dialogs}
    </>
  );
}
