/**
 * /statements/:id: a user's credit statement for a range of days (docs/domain.md#statements):
 * opening balance, every entry, closing balance and the totals by type, printable and as CSV.
 * The range is in the URL (from, to), this month so far by default.
 */
import { PrinterOutlined } from '@ant-design/icons';
import { type HttpError, useCustom } from '@refinedev/core';
import { Alert, Button, Card, DatePicker, Descriptions, Space, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useParams, useSearchParams } from 'react-router';
import { DATE_FORMAT, STATEMENT, type Statement, type StatementEntry, nameWithUsername, plural } from '../../contract';
import { Scrollable } from '../../components/DataTable';
import { BackButton } from '../../components/layout/BackButton';
import { CsvDownload } from '../../components/export/CsvDownload';
import './statement.css';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dateTime = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm');
const who = (ref: StatementEntry['actor']) => (ref ? nameWithUsername(ref.name, ref.username) : '—');

export function StatementPage() {
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const today = dayjs().format(DATE_FORMAT);
  const from = DAY.test(params.get('from') ?? '') ? params.get('from')! : dayjs().startOf('month').format(DATE_FORMAT);
  const to = DAY.test(params.get('to') ?? '') ? params.get('to')! : today;
  const query = { date_from: from, date_to: to };
  const { query: load, result } = useCustom<{ data: Statement }, HttpError>({
    url: `statements/${id}`,
    method: 'get',
    config: { query },
    queryOptions: { enabled: Boolean(id), retry: false },
    errorNotification: false,
  });
  const statement = load.isSuccess ? result.data?.data : undefined;
  const choose = (range: [Dayjs | null, Dayjs | null] | null) => {
    if (!range?.[0] || !range[1]) return;
    setParams({ from: range[0].format(DATE_FORMAT), to: range[1].format(DATE_FORMAT) }, { replace: true });
  };

  const title = statement ? `${STATEMENT.title}: ${nameWithUsername(statement.user.name, statement.user.username)}` : STATEMENT.title;
  return (
    <Card
      className="statement"
      title={
        <Typography.Title level={1} className="statement-title">
          {title}
        </Typography.Title>
      }
      extra={
        <Space wrap className="no-print">
          <DatePicker.RangePicker
            aria-label={STATEMENT.range}
            value={[dayjs(from), dayjs(to)]}
            format={DATE_FORMAT}
            allowClear={false}
            disabledDate={(d: Dayjs) => d.isAfter(dayjs().endOf('day'))}
            onChange={choose}
          />
          <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
            {STATEMENT.print}
          </Button>
          <CsvDownload label={STATEMENT.download} request={() => ({ path: `statements/${id}`, query })} />
          <BackButton fallback="/transactions" />
        </Space>
      }
    >
      {load.isError && <Alert type="error" showIcon message={load.error?.message || STATEMENT.loadFailed} />}
      {statement && (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions bordered size="small" column={{ xs: 1, sm: 2 }}>
            <Descriptions.Item label={STATEMENT.range}>
              {statement.date_from} – {statement.date_to}
            </Descriptions.Item>
            <Descriptions.Item label={STATEMENT.entries}>{statement.entry_count}</Descriptions.Item>
            <Descriptions.Item label={STATEMENT.opening}>
              <span data-testid="statement-opening">{plural(statement.opening_balance, 'credit')}</span>
            </Descriptions.Item>
            <Descriptions.Item label={STATEMENT.closing}>
              <span data-testid="statement-closing">{plural(statement.closing_balance, 'credit')}</span>
            </Descriptions.Item>
            <Descriptions.Item label={STATEMENT.net}>{statement.net_change}</Descriptions.Item>
          </Descriptions>
          {statement.entries_truncated && <Alert type="info" showIcon message={STATEMENT.truncated(statement.entries.length, statement.entry_count)} />}
          <Scrollable label={STATEMENT.entries}>
            <Table<StatementEntry>
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={statement.entries}
              scroll={{ x: true }}
              columns={[
                { title: 'Date', dataIndex: 'created_at', render: dateTime },
                { title: 'Transaction #', dataIndex: 'transaction_number' },
                { title: 'Type', dataIndex: 'type', render: (t: string) => <Tag>{t}</Tag> },
                { title: 'Credits', dataIndex: 'credits', align: 'right' },
                { title: 'Balance After', dataIndex: 'balance_after', align: 'right' },
                { title: 'Account', dataIndex: 'account', render: (v: string | null) => v ?? '—' },
                { title: 'Member', dataIndex: 'counterparty', render: who },
                { title: 'By', dataIndex: 'actor', render: who },
                { title: 'Remarks', dataIndex: 'remarks', render: (v: string | null) => v ?? '—' },
              ]}
            />
          </Scrollable>
          <Table
            rowKey="type"
            size="small"
            pagination={false}
            title={() => STATEMENT.totals}
            dataSource={statement.totals}
            columns={[
              { title: 'Type', dataIndex: 'type' },
              { title: 'Entries', dataIndex: 'count', align: 'right' },
              { title: 'Credits', dataIndex: 'credits', align: 'right' },
            ]}
          />
        </Space>
      )}
    </Card>
  );
}
