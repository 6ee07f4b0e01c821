/** /managers (admin): the shared table with the manager row actions (spec 2, Managers list). */
import { DeleteOutlined, EditOutlined, HistoryOutlined, MinusCircleOutlined, PlusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Switch } from 'antd';
import { useNavigate } from 'react-router';
import { DIALOGS, GENERAL, HIERARCHY, HIERARCHY_PANEL, type HierarchyUser, MANAGERS } from '../../contract';
import { type DataColumn, DataTable, type RowAction } from '../../components/DataTable';
import { useCreditDialogs } from '../../components/credits';
import { activeOptions, dateTime } from '../../components/display';
import { useConfirm, useNotify } from '../../components/feedback';
import { useBulkRunner, useStatusToggle } from '../../components/hierarchy';

export function ManagersList() {
  const navigate = useNavigate();
  const notify = useNotify();
  const { notification } = App.useApp();
  const { confirmDelete } = useConfirm();
  const credits = useCreditDialogs('managers');
  const toggle = useStatusToggle('managers', 'manager');
  const bulk = useBulkRunner('managers');

  const remove = (ids: Array<string | number>, clear?: () => void) =>
    bulk.remove(ids).then(({ done, failed, firstError }) => {
      if (failed > 0) notify.httpError(firstError, MANAGERS.deleteFailed);
      else notify.success(ids.length > 1 ? HIERARCHY_PANEL.managersDeleted(done) : HIERARCHY.deleted('Manager'));
      if (done > 0) clear?.();
    });

  const comingSoon = (title: string) => () => notification.info({ message: title, description: GENERAL.comingSoon });

  const columns: Array<DataColumn<HierarchyUser>> = [
    { dataIndex: 'name', title: 'Name', sortable: true },
    { dataIndex: 'username', title: 'Username', sortable: true },
    { dataIndex: 'server.name', title: 'Server', render: (v: string | undefined) => v ?? '—', responsive: ['md'] },
    { dataIndex: 'credits', title: 'Credits', sortable: true, width: 110 },
    { dataIndex: 'total_children', title: 'Total Resellers', sortable: true, width: 130, responsive: ['lg'] },
    { dataIndex: 'total_accounts', title: 'Total Users', sortable: true, width: 120, responsive: ['lg'] },
    {
      dataIndex: 'is_active',
      title: 'Status',
      width: 110,
      render: (active: boolean, record) => (
        <Switch
          size="small"
          checked={active}
          checkedChildren="Active"
          unCheckedChildren="Inactive"
          aria-label={`Status of ${record.username}`}
          onClick={(_, e) => {
            e.stopPropagation();
            toggle(record);
          }}
        />
      ),
    },
    { dataIndex: 'created_at', title: 'Created', sortable: true, render: dateTime, responsive: ['lg'] },
  ];

  const rowActions = (record: HierarchyUser): Array<RowAction<HierarchyUser>> => [
    { key: 'edit', label: 'Edit', icon: <EditOutlined />, onClick: (r) => navigate(`/managers/edit/${r.id}`) },
    { key: 'add-credits', label: DIALOGS.addCredits, icon: <PlusCircleOutlined />, disabled: !record.is_active, onClick: credits.openAdd },
    { key: 'recover-credits', label: DIALOGS.recoverCredits, icon: <MinusCircleOutlined />, onClick: credits.openRecover },
    { key: 'transactions', label: 'View Transactions', icon: <HistoryOutlined />, onClick: (r) => navigate(`/managers/${r.id}/transactions`) },
    { key: 'delete', label: 'Delete', icon: <DeleteOutlined />, danger: true, onClick: (r) => confirmDelete(`manager "${r.name}"`, () => remove([r.id])) },
  ];

  return (
    <>
      <DataTable<HierarchyUser>
        resource="managers"
        title="Managers"
        columns={columns}
        searchPlaceholder="Search managers..."
        selectFilters={[{ field: 'is_active', label: 'Status', options: activeOptions }]}
        loadErrorMessage={MANAGERS.loadFailed.description}
        loadErrorTitle={MANAGERS.loadFailed.title}
        notifyLoadError
        rowActions={rowActions}
        bulkActions={[
          { key: 'add-credits', label: DIALOGS.addCredits, onClick: comingSoon(DIALOGS.addCredits) },
          { key: 'recover-credits', label: DIALOGS.recoverCredits, onClick: comingSoon(DIALOGS.recoverCredits) },
          { key: 'delete', label: 'Delete', danger: true, onClick: (ids, _rows, clear) => confirmDelete(`${ids.length} manager(s)`, () => remove(ids, clear)) },
        ]}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/managers/create')}>
            Add Manager
          </Button>
        }
      />
      {credits.dialogs}
    </>
  );
}
