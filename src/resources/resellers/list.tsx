/** /resellers: Resellers Management. */
import { useCan } from '@refinedev/core';
import { EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { DATA_TABLE, HIERARCHY, HIERARCHY_PANEL, type HierarchyUser, RESELLERS, resellerCreateBody, resellerUpdateBody, plural } from '../../contract';
import { DataTable, type ListColumn } from '../../components/DataTable';
import { StatusTag, activeOptions, dateTime } from '../../components/display';
import { MountWhenOpened, useConfirm, useNotify, useStatusPopup } from '../../components/feedback';
import { BlockedTag, type UserLevelConfig, UserDetailsDrawer, UserFormDialog, lowCreditsFilter, useBulkRunner, useUserRowActions } from '../../features/hierarchy';
import { useCurrentUser } from '../../providers/identity';

export const resellerLevel: UserLevelConfig = {
  entity: 'resellers',
  label: 'Reseller',
  schemas: { create: resellerCreateBody, update: resellerUpdateBody },
  parent: { resource: 'managers', field: 'manager', label: 'Manager', pickers: ['admin'], required: HIERARCHY.managerRequired, onEdit: true },
  messages: { created: RESELLERS.created, updated: RESELLERS.updated, createFailed: RESELLERS.createFailed, updateFailed: RESELLERS.updateFailed },
};

/** Panel passwords are stored as hashes only and never returned: the column is always masked. */
const MaskedPassword = () => (
  <Tooltip title={HIERARCHY_PANEL.passwordHidden}>
    <span aria-label="Password hidden">••••••</span>
  </Tooltip>
);

/** What suspending the selected resellers stops: their dealers, from the rows (unknown for rows not shown). */
function suspendImpact(ids: Array<string | number>, rows: HierarchyUser[]): string {
  const known = rows.length >= ids.length;
  const sum = (pick: (r: HierarchyUser) => number) => (known ? rows.reduce((n, r) => n + pick(r), 0) : null);
  return HIERARCHY_PANEL.stopImpact({ resellers: 0, dealers: sum((r) => r.total_children), accounts: sum((r) => r.total_accounts) }, true);
}

export function ResellersList() {
  const { role } = useCurrentUser();
  const notify = useNotify();
  const popup = useStatusPopup();
  const { confirmDelete, confirm } = useConfirm();
  const canCreate = useCan({ resource: 'resellers', action: 'create' }).data?.can === true;
  const bulk = useBulkRunner('resellers');
  const [editing, setEditing] = useState<{ mode: 'create' | 'edit'; record: HierarchyUser | null } | null>(null);
  const [details, setDetails] = useState<HierarchyUser | null>(null);

  const removeOne = (record: HierarchyUser) =>
    bulk.remove([record.id]).then(({ failed, firstError }) => {
      if (failed > 0) notify.httpError(firstError, RESELLERS.deleteFailed);
      else popup({ type: 'success', title: RESELLERS.deleted });
    });

  const bulkRun = (run: () => ReturnType<typeof bulk.remove>, verb: 'deleted' | 'suspended' | 'activated', failedMessage: string, clear: () => void) =>
    run().then(({ done, failed, firstError }) => {
      if (failed > 0) notify.httpError(firstError, failedMessage);
      else notify.success(RESELLERS.bulkDone(done, verb));
      if (done > 0) clear();
    });

  const columns: Array<ListColumn<HierarchyUser, 'resellers'>> = [
    ...(role === 'manager' ? [] : [{ dataIndex: 'parent.name', title: 'Manager', width: 105, render: (v: string | undefined) => v ?? '—' }]),
    { dataIndex: 'name', title: 'Reseller Name', sortable: true, width: 115, priority: 'key' },
    { dataIndex: 'username', title: 'Username', sortable: true, width: 110, priority: 'key' },
    { dataIndex: 'password', title: 'Password', width: 90, render: () => <MaskedPassword /> },
    { dataIndex: 'credits', title: 'Credits', sortable: true, width: 85, priority: 'key' },
    { dataIndex: 'total_children', title: 'Total Dealers', sortable: true, width: 85 },
    { dataIndex: 'total_accounts', title: 'Total Users', sortable: true, width: 80 },
    {
      dataIndex: 'status',
      title: 'Status',
      sortable: true,
      width: 100,
      render: (s: string, record) => (
        <Space size={4} wrap>
          <StatusTag status={s} />
          <BlockedTag record={record} />
        </Space>
      ),
      priority: 'key',
    },
    { dataIndex: 'created_at', title: 'Created', sortable: true, width: 135, render: dateTime },
  ];

  const addButton = canCreate && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'create', record: null })}>
      {RESELLERS.add}
    </Button>
  );

  const { rowActions, dialogs } = useUserRowActions('resellers', {
    onEdit: (r) => setEditing({ mode: 'edit', record: r }),
    onDelete: (r) => confirmDelete(`reseller "${r.name}"`, () => removeOne(r)),
    first: [{ key: 'view', label: 'View Details', icon: <EyeOutlined />, onClick: setDetails }],
  });

  return (
    <>
      <DataTable<HierarchyUser, 'resellers'>
        resource="resellers"
        title={RESELLERS.title}
        rowNumbers
        columns={columns}
        columnChooser
        searchPlaceholder="Search resellers..."
        selectFilters={[{ field: 'is_active', label: 'Status', options: activeOptions }, lowCreditsFilter]}
        loadErrorMessage={HIERARCHY_PANEL.resellersLoadFailed}
        rowActions={rowActions}
        bulkActions={[
          {
            key: 'delete',
            label: 'Delete',
            danger: true,
            onClick: (ids, _rows, clear) =>
              confirmDelete(plural(ids.length, 'reseller'), () => bulkRun(() => bulk.remove(ids), 'deleted', RESELLERS.deleteFailed, clear)),
          },
          {
            key: 'suspend',
            label: 'Suspend',
            onClick: (ids, rows, clear) =>
              confirm(
                HIERARCHY_PANEL.suspendAllTitle,
                HIERARCHY_PANEL.suspendAllBody(ids.length),
                () => bulkRun(() => bulk.setActive(ids, false), 'suspended', RESELLERS.suspendFailed, clear),
                'Suspend',
                suspendImpact(ids, rows),
              ),
          },
          { key: 'activate', label: 'Activate', onClick: (ids, _rows, clear) => bulkRun(() => bulk.setActive(ids, true), 'activated', RESELLERS.activateFailed, clear) },
        ]}
        extra={addButton}
        empty={addButton ? { hint: DATA_TABLE.addFirst('reseller'), action: addButton } : undefined}
      />
      <MountWhenOpened open={editing !== null}>
        <UserFormDialog config={resellerLevel} mode={editing?.mode ?? 'create'} record={editing?.record} open={editing !== null} onClose={() => setEditing(null)} />
      </MountWhenOpened>
      <UserDetailsDrawer user={details} onClose={() => setDetails(null)} childrenLabel="Total Dealers" />
      {dialogs}
    </>
  );
}
