/** /dealers (admin, manager, reseller): dealers of the caller's subtree. */
import { useCan } from '@refinedev/core';
import { PlusOutlined, RiseOutlined, RollbackOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DATA_TABLE, HIERARCHY, HIERARCHY_PANEL, type HierarchyUser, dealerCreateBody, dealerUpdateBody, plural } from '../../contract';
import { DataTable, type ListColumn } from '../../components/DataTable';
import { activeOptions, dateTime } from '../../components/display';
import { MountWhenOpened, useConfirm } from '../../components/feedback';
import {
  type UserLevelConfig,
  UserFormDialog,
  lastLoginColumn,
  lowCreditsFilter,
  statusColumn,
  useDeleteUsers,
  useStatusToggle,
  useUserRowActions,
} from '../../features/hierarchy';
import { useCurrentUser } from '../../providers/identity';
import { PromoteDialog } from './PromoteDialog';
import { RecoveryHistoryDialog } from './RecoveryHistoryDialog';

export const dealerLevel: UserLevelConfig = {
  entity: 'dealers',
  label: 'Dealer',
  schemas: { create: dealerCreateBody, update: dealerUpdateBody },
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
  const { confirmDelete } = useConfirm();
  const canCreate = useCan({ resource: 'dealers', action: 'create' }).data?.can === true;
  const canPromote = useCan({ resource: 'dealers', action: 'promote' }).data?.can === true;
  const toggle = useStatusToggle('dealers', 'dealer');
  const [creating, setCreating] = useState(false);
  const [promoting, setPromoting] = useState<HierarchyUser | null>(null);
  const [history, setHistory] = useState<HierarchyUser | null>(null);

  const remove = useDeleteUsers('dealers', {
    failed: HIERARCHY_PANEL.dealerDeleteFailed,
    deletedOne: HIERARCHY.deleted('Dealer'),
    deletedMany: HIERARCHY_PANEL.dealersDeleted,
  });

  const columns: Array<ListColumn<HierarchyUser, 'dealers'>> = [
    { dataIndex: 'name', title: 'Dealer Name', sortable: true, priority: 'key' },
    { dataIndex: 'username', title: 'Username', sortable: true, priority: 'key' },
    ...(role === 'reseller' ? [] : [{ dataIndex: 'reseller.name', title: 'Reseller', render: (v: string | undefined) => v ?? '—' }]),
    ...(role === 'admin' ? [{ dataIndex: 'manager.name', title: 'Manager', render: (v: string | undefined) => v ?? '—', responsive: ['lg' as const] }] : []),
    { dataIndex: 'credits', title: 'Credits', sortable: true, width: 110, priority: 'key' },
    { dataIndex: 'total_accounts', title: 'Total Users', sortable: true, width: 120 },
    statusColumn(toggle),
    lastLoginColumn,
    { dataIndex: 'created_at', title: 'Created', sortable: true, render: dateTime, responsive: ['lg'] },
  ];

  const addButton = canCreate && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
      Add Dealer
    </Button>
  );

  const { rowActions, dialogs } = useUserRowActions('dealers', {
    onEdit: (r) => navigate(`/dealers/edit/${r.id}`),
    onDelete: (r) => confirmDelete(`dealer "${r.name}"`, () => remove([r.id])),
    afterCredits: [{ key: 'recovery-history', label: HIERARCHY_PANEL.recoveryHistory, icon: <RollbackOutlined />, onClick: setHistory }],
    afterTransactions: [{ key: 'promote', label: HIERARCHY_PANEL.promoteToReseller, icon: <RiseOutlined />, hidden: !canPromote, onClick: setPromoting }],
  });

  return (
    <>
      <DataTable<HierarchyUser, 'dealers'>
        resource="dealers"
        title="Dealers"
        rowNumbers
        columns={columns}
        columnChooser
        searchPlaceholder="Search dealers..."
        selectFilters={[{ field: 'is_active', label: 'Status', options: activeOptions }, lowCreditsFilter]}
        loadErrorMessage={HIERARCHY_PANEL.dealersLoadFailed}
        rowActions={rowActions}
        bulkActions={[
          { key: 'delete', label: 'Delete', danger: true, onClick: (ids, _rows, clear) => confirmDelete(plural(ids.length, 'dealer'), () => remove(ids, clear)) },
        ]}
        extra={addButton}
        empty={addButton ? { hint: DATA_TABLE.addFirst('dealer'), action: addButton } : undefined}
      />
      <MountWhenOpened open={creating}>
        <UserFormDialog config={dealerLevel} mode="create" open={creating} onClose={() => setCreating(false)} />
      </MountWhenOpened>
      <MountWhenOpened open={promoting !== null}>
        <PromoteDialog dealer={promoting} onClose={() => setPromoting(null)} />
      </MountWhenOpened>
      <MountWhenOpened open={history !== null}>
        <RecoveryHistoryDialog dealer={history} onClose={() => setHistory(null)} />
      </MountWhenOpened>
      {dialogs}
    </>
  );
}
