/** /dealers (admin, manager, reseller): dealers of the caller's subtree. */
import {
  DeleteOutlined,
  EditOutlined,
  HistoryOutlined,
  MinusCircleOutlined,
  PlusCircleOutlined,
  PlusOutlined,
  RiseOutlined,
  RollbackOutlined,
} from '@ant-design/icons';
import { Button, Switch } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DIALOGS, ENTITY_FORM, HIERARCHY, HIERARCHY_PANEL, type HierarchyUser } from '../../contract';
import { type DataColumn, DataTable, type RowAction } from '../../components/DataTable';
import { useCreditDialogs } from '../../components/credits';
import { activeOptions, dateTime } from '../../components/display';
import { useConfirm, useNotify } from '../../components/feedback';
import { type UserLevelConfig, UserFormDialog, useBulkRunner, useStatusToggle } from '../../components/hierarchy';
import { useCan, useCurrentUser } from '../../hooks/useRole';
import { PromoteDialog } from './PromoteDialog';
import { RecoveryHistoryDialog } from './RecoveryHistoryDialog';

export const dealerLevel: UserLevelConfig = {
  entity: 'dealers',
  label: 'Dealer',
  passwordRequired: ENTITY_FORM.passwordRequiredAccounts,
  parent: { resource: 'resellers', field: 'reseller', label: 'Reseller', pickers: ['admin', 'manager'], required: HIERARCHY.resellerRequired, onEdit: false },
  messages: {
    created: HIERARCHY.created('Dealer'),
    updated: HIERARCHY.updated('Dealer'),
    createFailed: HIERARCHY_PANEL.dealerCreateFailed,
    updateFailed: HIERARCHY_PANEL.dealerUpdateFailed,
  },
};

export function DealersList() {
  const { role } = useCurrentUser();
  const navigate = useNavigate();
  const notify = useNotify();
  const { confirmDelete } = useConfirm();
  const canCreate = useCan('dealers', 'create');
  const canPromote = useCan('dealers', 'promote');
  const credits = useCreditDialogs('dealers');
  const toggle = useStatusToggle('dealers', 'dealer');
  const bulk = useBulkRunner('dealers');
  const [creating, setCreating] = useState(false);
  const [promoting, setPromoting] = useState<HierarchyUser | null>(null);
  const [history, setHistory] = useState<HierarchyUser | null>(null);

  const remove = (ids: Array<string | number>, clear?: () => void) =>
    bulk.remove(ids).then(({ done, failed, firstError }) => {
      if (failed > 0) notify.httpError(firstError, HIERARCHY_PANEL.dealerDeleteFailed);
      else notify.success(ids.length > 1 ? HIERARCHY_PANEL.dealersDeleted(done) : HIERARCHY.deleted('Dealer'));
      if (done > 0) clear?.();
    });

  const columns: Array<DataColumn<HierarchyUser>> = [
    { dataIndex: 'name', title: 'Dealer Name', sortable: true },
    { dataIndex: 'username', title: 'Username', sortable: true },
    ...(role === 'reseller' ? [] : [{ dataIndex: 'reseller.name', title: 'Reseller', render: (v: string | undefined) => v ?? '—' }]),
    ...(role === 'admin' ? [{ dataIndex: 'manager.name', title: 'Manager', render: (v: string | undefined) => v ?? '—', responsive: ['lg' as const] }] : []),
    { dataIndex: 'credits', title: 'Credits', sortable: true, width: 110 },
    { dataIndex: 'total_accounts', title: 'Total Users', sortable: true, width: 120 },
    {
      dataIndex: 'is_active',
      title: 'Status',
      width: 110,
      render: (active: boolean, record) => (
        <Switch
          size="small"
          checked={active}
          checkedChildren="Active"
          unCheckedChildren={record.status === 'suspended' ? 'Suspended' : 'Inactive'}
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
    { key: 'edit', label: 'Edit', icon: <EditOutlined />, onClick: (r) => navigate(`/dealers/edit/${r.id}`) },
    { key: 'add-credits', label: DIALOGS.addCredits, icon: <PlusCircleOutlined />, disabled: !record.is_active, onClick: credits.openAdd },
    { key: 'recover-credits', label: DIALOGS.recoverCredits, icon: <MinusCircleOutlined />, onClick: credits.openRecover },
    { key: 'recovery-history', label: 'Recovery History', icon: <RollbackOutlined />, onClick: setHistory },
    { key: 'transactions', label: 'Transactions', icon: <HistoryOutlined />, onClick: (r) => navigate(`/dealers/${r.id}/transactions`) },
    { key: 'promote', label: 'Promote to Reseller', icon: <RiseOutlined />, hidden: !canPromote, onClick: setPromoting },
    { key: 'delete', label: 'Delete', icon: <DeleteOutlined />, danger: true, onClick: (r) => confirmDelete(`dealer "${r.name}"`, () => remove([r.id])) },
  ];

  return (
    <>
      <DataTable<HierarchyUser>
        resource="dealers"
        title="Dealers"
        rowNumbers
        columns={columns}
        searchPlaceholder="Search dealers..."
        selectFilters={[{ field: 'is_active', label: 'Status', options: activeOptions }]}
        loadErrorMessage={HIERARCHY_PANEL.dealersLoadFailed}
        rowActions={rowActions}
        bulkActions={[
          { key: 'delete', label: 'Delete', danger: true, onClick: (ids, _rows, clear) => confirmDelete(`${ids.length} dealer(s)`, () => remove(ids, clear)) },
        ]}
        extra={
          canCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              Add Dealer
            </Button>
          )
        }
      />
      <UserFormDialog config={dealerLevel} mode="create" open={creating} onClose={() => setCreating(false)} />
      <PromoteDialog dealer={promoting} onClose={() => setPromoting(null)} />
      <RecoveryHistoryDialog dealer={history} onClose={() => setHistory(null)} />
      {credits.dialogs}
    </>
  );
}
