/**
 * Recovery from history (GET /dealers/{id}/credits/recovery-history, POST .../recover-from-history):
 * each paid allocation the dealer received, taken back at most once.
 */
import { Alert, Button, Modal, Popconfirm, Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { GENERAL, HIERARCHY, HIERARCHY_PANEL, type HierarchyUser, type RecoveryHistoryItem } from '../../contract';
import { creditErrorToast, postCreditCall, useAfterCreditMove } from '../../components/credits';
import { dateTime } from '../../components/display';
import { useNotify } from '../../components/feedback';
import { http } from '../../providers/http';
import { useIdempotencyKey } from '../../providers/idempotency';

export function RecoveryHistoryDialog({ dealer, onClose }: { dealer: HierarchyUser | null; onClose: () => void }) {
  const notify = useNotify();
  const afterMove = useAfterCreditMove();
  const [rows, setRows] = useState<RecoveryHistoryItem[]>([]);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [working, setWorking] = useState<number | null>(null);
  /** One key per opening and allocation: a repeated click replays instead of recovering twice. */
  const opening = useIdempotencyKey(dealer);

  const load = useCallback(async (id: number) => {
    setLoading(true);
    setFailed(false);
    try {
      const { data } = await http.get<{ data: RecoveryHistoryItem[] }>(`dealers/${id}/credits/recovery-history`);
      setRows(data.data);
    } catch {
      setFailed(true);
      setRows([]);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (!dealer) return;
    void load(dealer.id);
  }, [dealer, load]);

  const recover = async (item: RecoveryHistoryItem) => {
    if (!dealer || working !== null) return;
    setWorking(item.id);
    try {
      await postCreditCall('dealers', dealer.id, 'credits/recover-from-history', { transaction_id: item.id }, `${opening}-${item.id}`);
      notify.success(HIERARCHY.creditsRecovered, `${item.recoverable_credits} credits recovered from ${dealer.name}.`);
      await afterMove('dealers');
      await load(dealer.id);
    } catch (error) {
      const toast = creditErrorToast(error, HIERARCHY_PANEL.recoverFailed);
      notify.error(toast.title, toast.description ?? (error as { errors?: Record<string, string[]> }).errors?.transaction_id?.[0]);
    } finally {
      setWorking(null);
    }
  };

  return (
    <Modal open={dealer !== null} title={dealer ? `${HIERARCHY_PANEL.recoveryHistory}: ${dealer.name}` : HIERARCHY_PANEL.recoveryHistory} footer={null} onCancel={onClose} width={820}>
      {failed && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={HIERARCHY_PANEL.recoveryHistoryFailed} />}
      <Table<RecoveryHistoryItem>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: GENERAL.noData }}
        columns={[
          { dataIndex: 'transaction_number', title: 'Transaction #' },
          { dataIndex: 'credits', title: 'Credits' },
          { dataIndex: 'from', title: 'From', render: (f: RecoveryHistoryItem['from']) => f?.name ?? '—' },
          { dataIndex: 'date', title: 'Date', render: dateTime },
          {
            key: 'state',
            title: 'Status',
            render: (_: unknown, r) =>
              r.recovered ? <Tag>Recovered {dateTime(r.recovered_at)}</Tag> : <Tag color="green">Recoverable: {r.recoverable_credits}</Tag>,
          },
          {
            key: 'action',
            title: 'Action',
            render: (_: unknown, r) => (
              <Popconfirm title={`Recover ${r.recoverable_credits} credits?`} onConfirm={() => recover(r)} disabled={r.recovered || r.recoverable_credits <= 0}>
                <Button size="small" danger disabled={r.recovered || r.recoverable_credits <= 0} loading={working === r.id}>
                  Recover
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Modal>
  );
}
