/** The dashboard's recent transactions: number and user, type, amount with its unit, and date each in a column of its own. */
import { Card, Table, Tag, Typography } from 'antd';
import { useRef } from 'react';
import { DASHBOARD_LABELS, DASHBOARD_PANEL, plural } from '../../contract';
import { useKeyboardScrollable } from '../../components/DataTable/scrollRegion';
import { dateTime } from '../../components/display';

export interface RecentTransaction {
  id: number;
  transaction_number: string;
  type: string;
  credits: number;
  username: string;
  date: string;
}

export function RecentTransactions({ rows, loading }: { rows?: RecentTransaction[]; loading: boolean }) {
  const body = useRef<HTMLDivElement>(null);
  useKeyboardScrollable(body, DASHBOARD_LABELS.recentTransactions);
  return (
    <Card title={DASHBOARD_LABELS.recentTransactions}>
      <div ref={body}>
        <Table<RecentTransaction>
          size="small"
          rowKey="id"
          loading={loading}
          dataSource={rows ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          data-testid="recent-transactions"
          columns={[
            {
              title: DASHBOARD_PANEL.transaction,
              key: 'number',
              render: (_: unknown, t) => (
                <>
                  <Typography.Text>{t.transaction_number}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">{t.username}</Typography.Text>
                </>
              ),
            },
            { title: DASHBOARD_PANEL.type, dataIndex: 'type', width: 120, render: (type: string) => <Tag>{type}</Tag> },
            {
              title: DASHBOARD_PANEL.amount,
              dataIndex: 'credits',
              align: 'right',
              width: 140,
              render: (credits: number) => (
                <Typography.Text strong type={credits < 0 ? 'danger' : 'success'} style={{ whiteSpace: 'nowrap' }} data-testid="transaction-amount">
                  {credits > 0 ? '+' : ''}
                  {plural(credits, 'credit')}
                </Typography.Text>
              ),
            },
            {
              title: DASHBOARD_PANEL.date,
              dataIndex: 'date',
              width: 150,
              render: (date: string) => (
                <span style={{ whiteSpace: 'nowrap' }} data-testid="transaction-date">
                  {dateTime(date)}
                </span>
              ),
            },
          ]}
        />
      </div>
    </Card>
  );
}
