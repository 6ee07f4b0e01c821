/**
 * The user's sessions (where it is signed in: browser, address, signed in, last used; the current one
 * marked; end one or all others, each confirmed) and its sign-in history, paged.
 */
import { type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { Button, Card, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { SESSIONS, SIGN_IN_REASONS, type SessionRow, type SignInEvent, type SignInHistory } from '../../contract';
import { Scrollable } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { useConfirm, useNotify } from '../../components/feedback';

export function SessionsCard({ onEndedCurrent }: { onEndedCurrent: () => void }) {
  const notify = useNotify();
  const { confirm } = useConfirm();
  const { result, query } = useCustom<{ data: SessionRow[] }, HttpError>({ url: 'sessions', method: 'get', errorNotification: false });
  const { mutateAsync } = useCustomMutation<{ message: string; ended: number }, HttpError>();
  const rows = Array.isArray(result.data?.data) ? result.data.data : [];

  const endOne = (row: SessionRow) =>
    confirm(
      SESSIONS.endConfirmTitle,
      row.current ? SESSIONS.endCurrentConfirm : SESSIONS.endConfirm(row.browser || SESSIONS.unknownBrowser),
      async () => {
        try {
          await mutateAsync({ url: `sessions/${row.id}`, method: 'delete', values: {}, successNotification: false, errorNotification: false });
          if (row.current) return onEndedCurrent();
          notify.success(SESSIONS.ended);
          await query.refetch();
        } catch (error) {
          notify.httpError(error, SESSIONS.ended);
        }
      },
      SESSIONS.end,
    );

  const endOthers = () =>
    confirm(
      SESSIONS.endOthers,
      SESSIONS.endOthersConfirm,
      async () => {
        try {
          const { data } = await mutateAsync({ url: 'sessions/end-others', method: 'post', values: {}, successNotification: false, errorNotification: false });
          notify.success(data.message);
          await query.refetch();
        } catch (error) {
          notify.httpError(error, SESSIONS.endOthers);
        }
      },
      SESSIONS.endOthers,
    );

  return (
    <Card
      title={SESSIONS.activeCard}
      extra={
        <Button danger disabled={rows.filter((r) => !r.current).length === 0} onClick={endOthers} data-testid="end-other-sessions">
          {SESSIONS.endOthers}
        </Button>
      }
    >
      <div data-testid="sessions-table">
        <Scrollable label={SESSIONS.activeCard}>
          <Table<SessionRow>
            rowKey="id"
            size="small"
            loading={query.isLoading}
            dataSource={rows}
            pagination={false}
            scroll={{ x: 'max-content' }}
            columns={[
              {
                title: SESSIONS.columns.browser,
                key: 'browser',
                render: (_, row) => (
                  <Space>
                    {row.browser || SESSIONS.unknownBrowser}
                    {row.current && <Tag color="green">{SESSIONS.current}</Tag>}
                  </Space>
                ),
              },
              { title: SESSIONS.columns.address, dataIndex: 'ip_address', render: (v: string | null) => v ?? '—' },
              { title: SESSIONS.columns.created, dataIndex: 'created_at', render: dateTime },
              { title: SESSIONS.columns.lastUsed, dataIndex: 'last_used_at', render: dateTime },
              {
                title: '',
                key: 'actions',
                render: (_, row) => (
                  <Button size="small" danger onClick={() => endOne(row)} aria-label={`${SESSIONS.end} ${row.browser || SESSIONS.unknownBrowser}`}>
                    {SESSIONS.end}
                  </Button>
                ),
              },
            ]}
          />
        </Scrollable>
      </div>
    </Card>
  );
}

const PAGE_SIZE = 10;

export function SignInHistoryCard() {
  const [page, setPage] = useState(1);
  const { result, query } = useCustom<SignInHistory, HttpError>({
    url: 'sign-in-history',
    method: 'get',
    config: { query: { page, per_page: PAGE_SIZE } },
    errorNotification: false,
  });
  const rows = Array.isArray(result.data?.data) ? result.data.data : [];
  return (
    <Card title={SESSIONS.historyCard}>
      <div data-testid="sign-in-history">
        <Scrollable label={SESSIONS.historyCard}>
          <Table<SignInEvent>
            rowKey="id"
            size="small"
            loading={query.isLoading}
            dataSource={rows}
            scroll={{ x: 'max-content' }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: result.data?.meta?.total ?? 0, onChange: setPage, showSizeChanger: false }}
            columns={[
              { title: SESSIONS.columns.time, dataIndex: 'created_at', render: dateTime },
              {
                title: SESSIONS.columns.outcome,
                dataIndex: 'outcome',
                render: (v: SignInEvent['outcome']) => <Tag color={v === 'success' ? 'green' : 'red'}>{v === 'success' ? SESSIONS.success : SESSIONS.failure}</Tag>,
              },
              {
                title: SESSIONS.columns.detail,
                dataIndex: 'reason',
                render: (v: string | null) => (v && v in SIGN_IN_REASONS ? SIGN_IN_REASONS[v as keyof typeof SIGN_IN_REASONS] : (v ?? '—')),
              },
              { title: SESSIONS.columns.address, dataIndex: 'ip_address', render: (v: string | null) => v ?? '—' },
              { title: SESSIONS.columns.browser, dataIndex: 'browser', render: (v: string) => v || SESSIONS.unknownBrowser },
            ]}
          />
        </Scrollable>
      </div>
    </Card>
  );
}
