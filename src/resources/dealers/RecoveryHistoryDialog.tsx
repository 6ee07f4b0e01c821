/**
 * Recovery from history (GET /dealers/{id}/credits/recovery-history, POST .../recover-from-history):
 * each paid allocation the dealer received, taken back at most once.
 */
import { useCustom, useCustomMutation } from '@refinedev/core';
import { Alert, Button, Modal, Popconfirm, Table, Tag } from 'antd';
import { useState } from 'react';
import { HIERARCHY, HIERARCHY_PANEL, type HierarchyUser, type RecoveryHistoryItem, plural } from '../../contract';
import { creditErrorToast, firstFieldMessage, useAfterCreditMove } from '../../features/credits';
import { Scrollable } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { useNotify } from '../../components/feedback';
import { useIdempotencyKey, withIdempotencyKey } from '../../providers/idempotency';

export function RecoveryHistoryDialog({ dealer, onClose }: { dealer: HierarchyUser | null; onClose: () => void }) {
  const notify = useNotify();
  const afterMove = useAfterCreditMove();
  const [working, setWorking] = useState<number | null>(null);
  /** One key per opening and allocation: a repeated click replays instead of recovering twice. */
  const opening = useIdempotencyKey(dealer);
  const { query, result } = useCustom<{ data: RecoveryHistoryItem[] }>({
    url: `dealers/${dealer?.id}/credits/recovery-history`,
    method: 'get',
    // Each opening reads the history again (the query is stale once shown).
    queryOptions: { enabled: dealer !== null, retry: false },
    errorNotification: false,
  });
  const { mutateAsync: recoverCall } = useCustomMutation();
  const failed = query.isError;
  const rows = failed ? [] : (result.data?.data ?? []);

  const recover = async (item: RecoveryHistoryItem) => {
    if (!dealer || working !== null) return;
    setWorking(item.id);
    try {
      await recoverCall({
        url: `dealers/${dealer.id}/credits/recover-from-history`,
        method: 'post',
        values: { transaction_id: item.id },
        meta: withIdempotencyKey(`${opening}-${item.id}`),
        successNotification: false,
        errorNotification: false,
      });
      notify.success(HIERARCHY.creditsRecovered, `${plural(item.recoverable_credits, 'credit')} recovered from ${dealer.name}.`);
      await afterMove('dealers');
      await query.refetch();
    } catch (error) {
      const toast = creditErrorToast(error, HIERARCHY_PANEL.recoverFailed);
      notify.error(toast.title, toast.description ?? firstFieldMessage((error as { errors?: Record<string, string[]> }).errors, 'transaction_id'));
    } finally {
      setWorking(null);
    }
  };

  return (
    <Modal
      open={dealer !== null}
      title={dealer ? `${HIERARCHY_PANEL.recoveryHistory}: ${dealer.name}` : HIERARCHY_PANEL.recoveryHistory}
      footer={null}
      onCancel={onClose}
      width={820}
    >
      {failed && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={HIERARCHY_PANEL.recoveryHistoryFailed} />}
      <Scrollable label={HIERARCHY_PANEL.recoveryHistory}>
        <Table<RecoveryHistoryItem>
          rowKey="id"
          size="small"
          loading={query.isFetching}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { dataIndex: 'transaction_number', title: 'Transaction #' },
            { dataIndex: 'credits', title: 'Credits' },
            { dataIndex: 'from', title: 'From', render: (f: RecoveryHistoryItem['from']) => f?.name ?? '—' },
            { dataIndex: 'date', title: 'Date', render: dateTime },
            {
              key: 'state',
              title: 'Status',
              render: (_: unknown, r) => (r.recovered ? <Tag>Recovered {dateTime(r.recovered_at)}</Tag> : <Tag color="green">Recoverable: {r.recoverable_credits}</Tag>),
            },
            {
              key: 'action',
              title: 'Action',
              render: (_: unknown, r) => (
                <Popconfirm
                  title={`Recover ${plural(r.recoverable_credits, 'credit')}?`}
                  onConfirm={() => recover(r)}
                  disabled={r.recovered || r.recoverable_credits <= 0}
                >
                  <Button size="small" danger disabled={r.recovered || r.recoverable_credits <= 0} loading={working === r.id}>
                    Recover
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Scrollable>
    </Modal>
  );
}
