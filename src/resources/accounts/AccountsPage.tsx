/**
 * End-user accounts (/users and /accounts, every role): the shared table with expiry, status and
 * server filters; row actions Quick Renew, Edit, Activate/Deactivate, Reset Device, STB Info,
 * Transactions, Auto-renew, Delete; bulk Renew, Suspend, Activate and Send Message.
 */
import { PlusOutlined } from '@ant-design/icons';
import { type CrudFilter, useCan, useInvalidate } from '@refinedev/core';
import { Button } from 'antd';
import { useState } from 'react';
import { type Account, ACCOUNTS, ACCOUNT_MOVES, BULK_ACTION_LABELS, ACCOUNT_SCREEN, DATA_TABLE, RENEWAL, STATUS } from '../../contract';
import { accountColumns, accountListProps, useAccountActions, useAccountServers } from '../../features/accounts';
import { useBranchFilter } from '../../features/hierarchy';
import { BulkFilterDialog, BulkMessageDialog, BulkMoveDialog, BulkRenewDialog } from '../../features/accounts/lazyDialogs';
import type { BulkFilterRequest } from '../../features/accounts/BulkFilterDialog';
import { DataTable } from '../../components/DataTable';
import { MountWhenOpened, useConfirm } from '../../components/feedback';

export function AccountsPage() {
  const { rowActions, dialogs, preloadDialogs, openCreate, call, post, can } = useAccountActions();
  const { confirm } = useConfirm();
  const invalidate = useInvalidate();
  const { options: servers } = useAccountServers();
  const canCreate = useCan({ resource: 'accounts', action: 'create' }).data?.can === true;
  const canMessage = useCan({ resource: 'accounts', action: 'message' }).data?.can === true;
  const canMove = useCan({ resource: 'accounts', action: 'move' }).data?.can === true;
  const [bulkRenew, setBulkRenew] = useState<Account[] | null>(null);
  const [messageIds, setMessageIds] = useState<Array<string | number> | null>(null);
  const [moveIds, setMoveIds] = useState<Array<string | number> | null>(null);
  const [clearSelection, setClearSelection] = useState<() => void>(() => () => undefined);
  const branch = useBranchFilter();
  const [matching, setMatching] = useState<BulkFilterRequest | null>(null);
  const matchingAction = (action: BulkFilterRequest['action']) => ({
    key: action,
    label: BULK_ACTION_LABELS[action],
    onClick: (filters: CrudFilter[], total: number) => setMatching({ action, filters, total }),
  });

  const bulkStatus = (path: 'bulk-suspend' | 'bulk-activate', ids: Array<string | number>, clear: () => void) =>
    confirm(
      path === 'bulk-suspend' ? 'Suspend' : STATUS.activate,
      path === 'bulk-suspend' ? ACCOUNT_SCREEN.suspendConfirm(ids.length) : ACCOUNT_SCREEN.activateConfirm(ids.length),
      () =>
        call(
          () => post(`accounts/${path}`, { account_ids: ids.map(Number) }).then((answer) => (clear(), answer)),
          ACCOUNTS.bulkDone(ids.length, path === 'bulk-suspend' ? 'suspended' : 'activated'),
          STATUS.updateFailed.title,
          STATUS.updateFailed.description,
        ),
      path === 'bulk-suspend' ? 'Suspend' : STATUS.activate,
    );

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
          ...(can.credits
            ? [
                {
                  key: 'renew',
                  label: RENEWAL.bulkRenew,
                  onClick: (ids: Array<string | number>, rows: Account[], clear: () => void) => {
                    setClearSelection(() => clear);
                    // Rows selected on another page are not loaded: the API prices them on the branch's server.
                    setBulkRenew(ids.map((id) => rows.find((r) => r.id === id) ?? ({ id: Number(id), login: `#${id}`, server_id: null, expiry_date: null } as Account)));
                  },
                },
              ]
            : []),
          ...(can.status
            ? [
                {
                  key: 'suspend',
                  label: 'Suspend',
                  danger: true,
                  onClick: (ids: Array<string | number>, _rows: Account[], clear: () => void) => bulkStatus('bulk-suspend', ids, clear),
                },
                {
                  key: 'activate',
                  label: STATUS.activate,
                  onClick: (ids: Array<string | number>, _rows: Account[], clear: () => void) => bulkStatus('bulk-activate', ids, clear),
                },
              ]
            : []),
          ...(canMessage
            ? [
                {
                  key: 'message',
                  label: ACCOUNT_SCREEN.sendMessage,
                  onClick: (ids: Array<string | number>, _rows: Account[], clear: () => void) => {
                    setClearSelection(() => clear);
                    setMessageIds(ids);
                  },
                },
              ]
            : []),
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
      <MountWhenOpened open={bulkRenew !== null}>
        <BulkRenewDialog accounts={bulkRenew} onClose={() => setBulkRenew(null)} onRenewed={() => clearSelection()} />
      </MountWhenOpened>
      <MountWhenOpened open={moveIds !== null}>
        <BulkMoveDialog ids={moveIds} onClose={() => setMoveIds(null)} onMoved={() => clearSelection()} />
      </MountWhenOpened>
      <MountWhenOpened open={matching !== null}>
        <BulkFilterDialog request={matching} onClose={() => setMatching(null)} onDone={() => invalidate({ resource: 'accounts', invalidates: ['list'] })} />
      </MountWhenOpened>
      <MountWhenOpened open={messageIds !== null}>
        <BulkMessageDialog ids={messageIds} onClose={() => setMessageIds(null)} onSent={() => clearSelection()} />
      </MountWhenOpened>
    </>
  );
}
