/**
 * End-user accounts (/users and /accounts, every role): the shared table with expiry, status and
 * server filters; row actions Quick Renew, Edit, Activate/Deactivate, Reset Device, STB Info,
 * Transactions, Auto-renew, Delete; bulk Renew, Suspend, Activate and Send Message.
 */
import { PlusOutlined } from '@ant-design/icons';
import { type CrudFilter, useCan } from '@refinedev/core';
import { Button } from 'antd';
import { useState } from 'react';
import { type Account, ACCOUNT_MOVES, BULK_ACTION_LABELS, ACCOUNT_SCREEN, type BulkFilterAction, DATA_TABLE, RENEWAL, STATUS } from '../../contract';
import { accountColumns, accountListProps, useAccountActions } from '../../features/accounts';
import { useServerOptions } from '../../features/servers';
import { useBranchFilter } from '../../features/hierarchy';
import { BulkFilterDialog, BulkMoveDialog } from '../../features/accounts/lazyDialogs';
import type { BulkFilterRequest } from '../../features/accounts/BulkFilterDialog';
import { DataTable } from '../../components/DataTable';
import { MountWhenOpened } from '../../components/feedback';

export function AccountsPage() {
  const { rowActions, dialogs, preloadDialogs, openCreate, can } = useAccountActions();
  const { options: servers } = useServerOptions();
  const canCreate = useCan({ resource: 'accounts', action: 'create' }).data?.can === true;
  const canMessage = useCan({ resource: 'accounts', action: 'message' }).data?.can === true;
  const canMove = useCan({ resource: 'accounts', action: 'move' }).data?.can === true;
  const [moveIds, setMoveIds] = useState<Array<string | number> | null>(null);
  const [clearSelection, setClearSelection] = useState<() => void>(() => () => undefined);
  const branch = useBranchFilter();
  // Renew, suspend, activate and message: on the selection or on all the filters match, always through the preview.
  const [bulk, setBulk] = useState<BulkFilterRequest | null>(null);
  const matchingAction = (action: BulkFilterAction) => ({
    key: action,
    label: BULK_ACTION_LABELS[action],
    onClick: (filters: CrudFilter[], total: number) => setBulk({ action, filters, total }),
  });
  const selectionAction = (action: BulkFilterAction, label: string, danger = false) => ({
    key: action,
    label,
    danger,
    onClick: (ids: Array<string | number>, _rows: Account[], clear: () => void) => {
      setClearSelection(() => clear);
      setBulk({ action, account_ids: ids.map(Number) });
    },
  });

  return (
    <>
      <DataTable<Account, 'accounts'>
        resource="accounts"
        title={ACCOUNT_SCREEN.title}
        columnChooser
        {...accountListProps}
        columns={accountColumns}
        selectFilters={[...accountListProps.selectFilters, { field: 'server_id', label: 'Server', options: servers }, ...(branch ? [branch] : [])]}
        extra={
          canCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={openCreate}>
              {ACCOUNT_SCREEN.add}
            </Button>
          )
        }
        empty={
          canCreate
            ? {
                hint: DATA_TABLE.noAccounts,
                action: (
                  <Button type="primary" icon={<PlusOutlined />} onClick={openCreate}>
                    {ACCOUNT_SCREEN.add}
                  </Button>
                ),
              }
            : undefined
        }
        rowActions={rowActions}
        preload={preloadDialogs}
        matchingActions={[
          ...(can.credits ? [matchingAction('renew')] : []),
          ...(can.status ? [matchingAction('suspend'), matchingAction('activate')] : []),
          ...(canMessage ? [matchingAction('message')] : []),
        ]}
        bulkActions={[
          ...(can.credits ? [selectionAction('renew', RENEWAL.bulkRenew)] : []),
          ...(can.status ? [selectionAction('suspend', BULK_ACTION_LABELS.suspend, true), selectionAction('activate', STATUS.activate)] : []),
          ...(canMessage ? [selectionAction('message', ACCOUNT_SCREEN.sendMessage)] : []),
          ...(canMove
            ? [
                {
                  key: 'move',
                  label: ACCOUNT_MOVES.action,
                  onClick: (ids: Array<string | number>, _rows: Account[], clear: () => void) => {
                    setClearSelection(() => clear);
                    setMoveIds(ids);
                  },
                },
              ]
            : []),
        ]}
      />
      {dialogs}
      <MountWhenOpened open={moveIds !== null}>
        <BulkMoveDialog ids={moveIds} onClose={() => setMoveIds(null)} onMoved={() => clearSelection()} />
      </MountWhenOpened>
      <MountWhenOpened open={bulk !== null}>
        <BulkFilterDialog request={bulk} onClose={() => setBulk(null)} onDone={() => clearSelection()} />
      </MountWhenOpened>
    </>
  );
}
