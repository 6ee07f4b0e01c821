/**
 * What every list of end-user accounts shares (the accounts screen and User Search): the list props,
 * the row actions and the dialogs they open.
 */
import {
  CheckCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  HistoryOutlined,
  InfoCircleOutlined,
  ReloadOutlined,
  StopOutlined,
  SyncOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { useCan, useCustomMutation, useDelete, useInvalidate, useUpdate } from '@refinedev/core';
import { useCallback, useRef, useState } from 'react';
import { type Account, ACCOUNTS, ACCOUNT_SCREEN, EXPIRY_FILTERS, GENERAL, HIERARCHY, RENEWAL, STATUS, TRIAL_ENDING_FILTERS, USER_STATUSES } from '../../contract';
import type { RowAction } from '../../components/DataTable';
import { MountWhenOpened, useConfirm, useNotify } from '../../components/feedback';
import { AccountFormDialog, AutoRenewDialog, QuickRenewDialog, StbInfoDrawer, TransactionsDrawer, preloadAccountDialogs } from './lazyDialogs';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** How the confirmation dialogs name an account. */
const subject = (account: Account) => `account "${account.login}"`;

const expiryFilterOptions = EXPIRY_FILTERS.map((value) => ({ label: ACCOUNT_SCREEN.expiryFilter(value), value }));
const trialEndingOptions = TRIAL_ENDING_FILTERS.map((value) => ({ label: ACCOUNT_SCREEN.trialEndingFilter(value), value }));
const statusFilterOptions = USER_STATUSES.map((value) => ({ label: capitalise(value), value }));

/** What the Users list and User Search share: the search box's hint, the load error, the expiry and status filters. */
export const accountListProps = {
  searchPlaceholder: ACCOUNT_SCREEN.searchPlaceholder,
  loadErrorMessage: ACCOUNT_SCREEN.loadFailed,
  selectFilters: [
    { field: 'expiry', label: 'Expiry', options: expiryFilterOptions },
    { field: 'status', label: 'Status', options: statusFilterOptions },
    { field: 'trial_ending', label: ACCOUNT_SCREEN.trialEnding, options: trialEndingOptions },
  ],
};

/**
 * Row actions every account list offers; `open` shows the matching dialog. `preloadDialogs` loads the
 * dialogs' code ahead of their first opening (the data table calls it once its rows are shown).
 */
export function useAccountActions() {
  const notify = useNotify();
  const invalidate = useInvalidate();
  const { confirmDelete, confirmStatus, confirm } = useConfirm();
  const can = {
    credits: useCan({ resource: 'accounts', action: 'credits' }).data?.can === true,
    edit: useCan({ resource: 'accounts', action: 'edit' }).data?.can === true,
    status: useCan({ resource: 'accounts', action: 'status' }).data?.can === true,
    delete: useCan({ resource: 'accounts', action: 'delete' }).data?.can === true,
    show: useCan({ resource: 'accounts', action: 'show' }).data?.can === true,
    transactions: useCan({ resource: 'accounts', action: 'transactions' }).data?.can === true,
  };
  const [renewing, setRenewing] = useState<Account | null>(null);
  const [editing, setEditing] = useState<Account | 'create' | null>(null);
  const [stb, setStb] = useState<Account | null>(null);
  const [ledger, setLedger] = useState<Account | null>(null);
  const [autoRenew, setAutoRenew] = useState<Account | null>(null);

  const refresh = () =>
    Promise.all([invalidate({ resource: 'accounts', invalidates: ['list', 'detail'] }), invalidate({ resource: 'user-search', invalidates: ['list'] })]);

  const { mutateAsync: update } = useUpdate();
  const { mutateAsync: remove } = useDelete();
  const { mutateAsync: custom } = useCustomMutation<{ message?: string }>();
  /** POST `url` through the data provider; answers the response body (its message is the toast). */
  const post = (url: string, values: Record<string, unknown> = {}) =>
    custom({ url, method: 'post', values, successNotification: false, errorNotification: false }).then((res) => res.data);

  /** PATCH /accounts/{id} {is_active}. useUpdate answers the record, so the toast is `done` (the text the API also sends). */
  const setStatus = (account: Account, active: boolean) =>
    update({ resource: 'accounts', id: account.id, values: { is_active: active }, meta: { method: 'patch' }, successNotification: false, errorNotification: false }).then(
      () => undefined,
    );
  const deleteAccount = (account: Account) =>
    remove({ resource: 'accounts', id: account.id, successNotification: false, errorNotification: false }).then(() => undefined);

  /** Runs an account call with its toasts: the server's message or `done`, else the failure. */
  const call = async (request: () => Promise<{ message?: string } | null | undefined | void>, done: string, failTitle: string, failDescription: string) => {
    try {
      const answer = await request();
      notify.success((answer && answer.message) || done);
    } catch (error) {
      notify.httpError(error, failDescription, failTitle);
    } finally {
      await refresh();
    }
  };

  const actionsFor = (record: Account): Array<RowAction<Account>> => {
    const active = record.status === 'active';
    return [
      { key: 'renew', label: RENEWAL.quickRenew, icon: <ThunderboltOutlined />, hidden: !can.credits, onClick: setRenewing },
      { key: 'edit', label: 'Edit', icon: <EditOutlined />, hidden: !can.edit, onClick: setEditing },
      {
        key: 'status',
        label: active ? STATUS.deactivate : STATUS.activate,
        icon: active ? <StopOutlined /> : <CheckCircleOutlined />,
        hidden: !can.status,
        onClick: (r) =>
          confirmStatus(!active, subject(r), () =>
            call(() => setStatus(r, !active), HIERARCHY.statusUpdated, STATUS.updateFailed.title, STATUS.updateFailed.description),
          ),
      },
      {
        key: 'reset',
        label: ACCOUNT_SCREEN.resetDevice,
        icon: <ReloadOutlined />,
        hidden: !can.edit,
        onClick: (r) =>
          confirm(ACCOUNT_SCREEN.resetDevice, ACCOUNT_SCREEN.resetDeviceConfirm(r.login), () =>
            call(() => post(`accounts/${r.id}/reset-device`), ACCOUNTS.deviceReset, GENERAL.error, ACCOUNT_SCREEN.actionFailed),
          ),
      },
      { key: 'stb', label: ACCOUNT_SCREEN.stbInfo, icon: <InfoCircleOutlined />, hidden: !can.show, onClick: setStb },
      { key: 'transactions', label: ACCOUNT_SCREEN.transactions, icon: <HistoryOutlined />, hidden: !can.transactions, onClick: setLedger },
      { key: 'auto-renew', label: ACCOUNT_SCREEN.autoRenew, icon: <SyncOutlined />, hidden: !can.edit, onClick: setAutoRenew },
      {
        key: 'delete',
        label: 'Delete',
        icon: <DeleteOutlined />,
        danger: true,
        hidden: !can.delete,
        onClick: (r) => confirmDelete(subject(r), () => call(() => deleteAccount(r), ACCOUNTS.deleted, GENERAL.error, ACCOUNT_SCREEN.deleteFailed)),
      },
    ];
  };

  // One function while the same actions are offered (the permissions): a new one each render would
  // render every row of the table again. It builds the actions from the latest render.
  const latest = useRef(actionsFor);
  latest.current = actionsFor;
  const rowActions = useCallback(
    (record: Account) => latest.current(record),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [can.credits, can.edit, can.status, can.delete, can.show, can.transactions],
  );

  const dialogs = (
    <>
      <MountWhenOpened open={renewing !== null}>
        <QuickRenewDialog account={renewing} onClose={() => setRenewing(null)} />
      </MountWhenOpened>
      <MountWhenOpened open={editing !== null}>
        <AccountFormDialog target={editing} onClose={() => setEditing(null)} />
      </MountWhenOpened>
      <MountWhenOpened open={stb !== null}>
        <StbInfoDrawer account={stb} onClose={() => setStb(null)} />
      </MountWhenOpened>
      <MountWhenOpened open={ledger !== null}>
        <TransactionsDrawer account={ledger} onClose={() => setLedger(null)} />
      </MountWhenOpened>
      <MountWhenOpened open={autoRenew !== null}>
        <AutoRenewDialog account={autoRenew} onClose={() => setAutoRenew(null)} />
      </MountWhenOpened>
    </>
  );

  return { rowActions, dialogs, preloadDialogs: preloadAccountDialogs, openCreate: () => setEditing('create'), can };
}
