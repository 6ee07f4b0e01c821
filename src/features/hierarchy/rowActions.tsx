/** What the managers, resellers and dealers lists share in their rows: the status switch and the row actions. */
import { DeleteOutlined, EditOutlined, EyeOutlined, FileTextOutlined, HistoryOutlined, MinusCircleOutlined, PlusCircleOutlined, SafetyOutlined } from '@ant-design/icons';
import { type HttpError, useCustomMutation, useInvalidate } from '@refinedev/core';
import { Space, Switch, Tag, Tooltip } from 'antd';
import { useNavigate } from 'react-router';
import { DIALOGS, HIERARCHY_PANEL, type HierarchyUser, SESSIONS, STATEMENT, TWO_FACTOR, VIEW_AS } from '../../contract';
import { dateTime } from '../../components/display';
import { useConfirm, useNotify } from '../../components/feedback';
import type { DataColumn, RowAction } from '../../components/DataTable';
import { type CreditEntity, useCreditDialogs } from '../credits';
import { useStartViewAs } from '../sessions/useViewAs';

/** The Status cell: a switch that asks before activating or deactivating (`onToggle`). */
export function StatusSwitch({ record, onToggle }: { record: HierarchyUser; onToggle: (record: HierarchyUser) => void }) {
  const state = record.is_active ? 'Active' : record.status === 'suspended' ? 'Suspended' : 'Inactive';
  return (
    <Switch
      size="small"
      checked={record.is_active}
      // Only the state shown is in the DOM: antd keeps the other side's text beside it, clipped, and
      // it would be read as part of the visible text that the name must contain.
      checkedChildren={record.is_active ? state : null}
      unCheckedChildren={record.is_active ? null : state}
      aria-label={HIERARCHY_PANEL.statusOf(record.username, state)}
      onClick={(_, e) => {
        e.stopPropagation();
        onToggle(record);
      }}
    />
  );
}

/** Beside the status of a user whose branch a user above stops: who, and what it means. */
export function BlockedTag({ record }: { record: Pick<HierarchyUser, 'blocked_by'> }) {
  const by = record.blocked_by;
  if (!by) return null;
  return (
    <Tooltip title={HIERARCHY_PANEL.blockedByHint(by.role, by.username, by.status)}>
      <Tag color="orange">{HIERARCHY_PANEL.blockedBy(by.role, by.username)}</Tag>
    </Tooltip>
  );
}

/** The Status column of a list whose rows switch their status in place. */
export const statusColumn = (onToggle: (record: HierarchyUser) => void): DataColumn<HierarchyUser> => ({
  dataIndex: 'is_active',
  title: 'Status',
  width: 110,
  priority: 'key',
  render: (_: boolean, record) => (
    <Space size={4} wrap>
      <StatusSwitch record={record} onToggle={onToggle} />
      <BlockedTag record={record} />
    </Space>
  ),
});

/** The member's last successful sign-in and its address, in the row's details. */
/** A member's last sign-in and its address, or Never. */
export const lastLoginText = (user: Pick<HierarchyUser, 'last_login_at' | 'last_login_ip'>) =>
  user.last_login_at ? `${dateTime(user.last_login_at)}${user.last_login_ip ? ` (${user.last_login_ip})` : ''}` : SESSIONS.never;

export const lastLoginColumn: DataColumn<HierarchyUser> = {
  dataIndex: 'last_login_at',
  title: SESSIONS.lastLogin,
  priority: 'secondary',
  render: (_: string | null, record) => lastLoginText(record),
};

type Actions = Array<RowAction<HierarchyUser>>;

export interface UserRowActionsOptions {
  onEdit: (record: HierarchyUser) => void;
  onDelete: (record: HierarchyUser) => void;
  /** The label of the link to /{entity}/{id}/transactions. */
  transactionsLabel?: string;
  /** A list's own actions: first, after the credit actions, after Transactions. */
  first?: Actions;
  afterCredits?: Actions;
  afterTransactions?: Actions;
}

/** Reset the second factor of a user below (audited by the API; the user's sessions end). */
function useResetTwoFactor(entity: CreditEntity) {
  const { confirm } = useConfirm();
  const notify = useNotify();
  const invalidate = useInvalidate();
  const { mutateAsync } = useCustomMutation<{ message: string }, HttpError>();
  return (record: HierarchyUser) =>
    confirm(
      TWO_FACTOR.reset,
      TWO_FACTOR.resetConfirm(record.username),
      async () => {
        try {
          const { data } = await mutateAsync({
            url: `${entity}/${record.id}/two-factor/reset`,
            method: 'post',
            values: {},
            successNotification: false,
            errorNotification: false,
          });
          notify.success(data.message);
          await invalidate({ resource: entity, invalidates: ['list', 'detail'] });
        } catch (error) {
          notify.httpError(error, TWO_FACTOR.resetNone);
        }
      },
      TWO_FACTOR.reset,
    );
}

/**
 * Edit, Add Credits (active users only), Recover Credits, Transactions, View as (active users), Reset
 * two-factor (users who have one) and Delete, with the list's own actions in between; `dialogs` are the credit dialogs to
 * render once beside the table.
 */
export function useUserRowActions(entity: CreditEntity, options: UserRowActionsOptions) {
  const navigate = useNavigate();
  const credits = useCreditDialogs(entity);
  const resetTwoFactor = useResetTwoFactor(entity);
  const startViewAs = useStartViewAs();
  const { onEdit, onDelete, transactionsLabel = 'Transactions', first = [], afterCredits = [], afterTransactions = [] } = options;
  const rowActions = (record: HierarchyUser): Actions => [
    ...first,
    { key: 'edit', label: 'Edit', icon: <EditOutlined />, onClick: onEdit },
    { key: 'add-credits', label: DIALOGS.addCredits, icon: <PlusCircleOutlined />, disabled: !record.is_active, onClick: credits.openAdd },
    { key: 'recover-credits', label: DIALOGS.recoverCredits, icon: <MinusCircleOutlined />, onClick: credits.openRecover },
    ...afterCredits,
    { key: 'transactions', label: transactionsLabel, icon: <HistoryOutlined />, onClick: (r) => navigate(`/${entity}/${r.id}/transactions`) },
    { key: 'statement', label: STATEMENT.open, icon: <FileTextOutlined />, onClick: (r) => navigate(`/statements/${r.id}`) },
    ...afterTransactions,
    { key: 'view-as', label: VIEW_AS.action, icon: <EyeOutlined />, hidden: !record.is_active || record.blocked_by !== null, onClick: startViewAs },
    { key: 'reset-two-factor', label: TWO_FACTOR.reset, icon: <SafetyOutlined />, hidden: !record.two_factor, onClick: resetTwoFactor },
    { key: 'delete', label: 'Delete', icon: <DeleteOutlined />, danger: true, onClick: onDelete },
  ];
  return { rowActions, dialogs: credits.dialogs };
}
