/**
 * Analytics (admin): credits flowing down over time by role level, renewals and new accounts per
 * month, accounts expiring within 7/30/90 days, and the top resellers and dealers by credits spent.
 * Charts are @ant-design/plots, loaded with this page only; each table exports to CSV as filtered.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Bar, Column, Line } from '@ant-design/plots';
import { type HttpError, useCustom } from '@refinedev/core';
import { Alert, Button, Card, Col, DatePicker, Input, Row, Segmented, Select, Space, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import {
  ANALYTICS,
  ANALYTICS_MAX_RANGE_DAYS,
  ANALYTICS_ROLES,
  type CreditsFlowPoint,
  DATE_FORMAT,
  EXPIRY_WINDOWS,
  type ExpiringReport,
  grouped,
  type RenewalsPoint,
  type TopUser,
} from '../../contract';
import { dateTime } from '../../components/display';
import { Scrollable } from '../../components/DataTable';
import { Figure } from '../../components/display/Figure';
import { ExportCsvButton } from '../../components/export/csv';
import { PageAccess, PageLoading } from '../../components/routing';

type Range = [Dayjs, Dayjs];
const CHART_HEIGHT = 260;
const FIRST_WINDOW = 30;
const TOP_COUNT = 10;
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function useFigures<T>(url: string, query: Record<string, unknown>) {
  const { result, query: q } = useCustom<{ data: T }, HttpError>({ url, method: 'get', config: { query }, errorNotification: false, queryOptions: { retry: false } });
  return { data: q.isError ? undefined : result?.data?.data, loading: q.isLoading, error: q.isError, refetch: q.refetch };
}

function Failed({ show }: { show: boolean }) {
  return show ? <Alert type="error" showIcon message={ANALYTICS.loadFailed} style={{ marginBottom: 12 }} /> : null;
}

function CreditsFlow({ range }: { range: Record<string, string> }) {
  const { data = [], loading, error } = useFigures<CreditsFlowPoint[]>('analytics/credits-flow', range);
  const [role, setRole] = useState<string | undefined>();
  const rows = useMemo(() => data.filter((p) => !role || p.role === role), [data, role]);
  return (
    <Card
      title={ANALYTICS.creditsFlow}
      loading={loading}
      extra={
        <Space wrap>
          <Select
            allowClear
            placeholder="Role"
            aria-label="Role"
            style={{ width: 130 }}
            value={role}
            onChange={setRole}
            options={ANALYTICS_ROLES.map((r) => ({ value: r, label: capitalise(r) }))}
          />
          <ExportCsvButton
            rows={rows}
            filename="credits-flow.csv"
            columns={[
              { title: 'Month', value: (r) => r.period },
              { title: 'Role', value: (r) => r.role },
              { title: 'Credits', value: (r) => r.credits },
              { title: 'Entries', value: (r) => r.entries },
            ]}
          />
        </Space>
      }
    >
      <Failed show={error} />
      <div data-testid="chart-credits-flow" style={{ minHeight: CHART_HEIGHT }}>
        <Line
          data={rows}
          xField="period"
          yField="credits"
          colorField="role"
          height={CHART_HEIGHT}
          autoFit
          point={{ shapeField: 'circle', sizeField: 3 }}
          axis={{ y: { title: 'Credits' } }}
        />
      </div>
      <Table
        size="small"
        rowKey={(r) => `${r.period}-${r.role}`}
        dataSource={rows}
        pagination={{ pageSize: 12, hideOnSinglePage: true }}
        columns={[
          { title: 'Month', dataIndex: 'period' },
          { title: 'Role', dataIndex: 'role', render: capitalise },
          { title: 'Credits', dataIndex: 'credits', align: 'right', render: (v: number) => `${grouped(v)} credits` },
          { title: 'Entries', dataIndex: 'entries', align: 'right' },
        ]}
      />
    </Card>
  );
}

function Renewals({ range }: { range: Record<string, string> }) {
  const { data = [], loading, error } = useFigures<RenewalsPoint[]>('analytics/renewals', range);
  const [activeOnly, setActiveOnly] = useState<'all' | 'active'>('all');
  const rows = useMemo(() => data.filter((p) => activeOnly === 'all' || p.renewals > 0 || p.new_accounts > 0), [data, activeOnly]);
  const series = useMemo(
    () =>
      rows.flatMap((p) => [
        { period: p.period, kind: 'Renewals', value: p.renewals },
        { period: p.period, kind: 'New accounts', value: p.new_accounts },
      ]),
    [rows],
  );
  return (
    <Card
      title={ANALYTICS.renewals}
      loading={loading}
      extra={
        <Space wrap>
          <Segmented
            size="small"
            value={activeOnly}
            onChange={(v) => setActiveOnly(v as 'all' | 'active')}
            options={[
              { value: 'all', label: 'All months' },
              { value: 'active', label: 'With activity' },
            ]}
          />
          <ExportCsvButton
            rows={rows}
            filename="renewals.csv"
            columns={[
              { title: 'Month', value: (r) => r.period },
              { title: 'Renewals', value: (r) => r.renewals },
              { title: 'Credits', value: (r) => r.credits },
              { title: 'New accounts', value: (r) => r.new_accounts },
            ]}
          />
        </Space>
      }
    >
      <Failed show={error} />
      <div data-testid="chart-renewals" style={{ minHeight: CHART_HEIGHT }}>
        <Column data={series} xField="period" yField="value" colorField="kind" group height={CHART_HEIGHT} autoFit />
      </div>
      <Table
        size="small"
        rowKey="period"
        dataSource={rows}
        pagination={{ pageSize: 12, hideOnSinglePage: true }}
        columns={[
          { title: 'Month', dataIndex: 'period' },
          { title: 'Renewals', dataIndex: 'renewals', align: 'right' },
          { title: 'Credits spent', dataIndex: 'credits', align: 'right', render: (v: number) => `${grouped(v)} credits` },
          { title: 'New accounts', dataIndex: 'new_accounts', align: 'right' },
        ]}
      />
    </Card>
  );
}

function Expiring() {
  const [days, setDays] = useState<number>(FIRST_WINDOW);
  const [search, setSearch] = useState('');
  const { data, loading, error } = useFigures<ExpiringReport>('analytics/expiring', { days });
  const rows = useMemo(() => {
    const term = search.trim().toLowerCase();
    return (data?.accounts ?? []).filter((a) => !term || [a.login, a.full_name, a.owner.username].some((v) => v.toLowerCase().includes(term)));
  }, [data, search]);
  return (
    <Card
      title={ANALYTICS.expiring}
      extra={
        <Space wrap>
          <Segmented size="small" value={days} onChange={(v) => setDays(Number(v))} options={EXPIRY_WINDOWS.map((d) => ({ value: d, label: `${d} days` }))} />
          <Input
            allowClear
            size="small"
            placeholder="Search..."
            aria-label="Search expiring accounts"
            style={{ width: 160 }}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <ExportCsvButton
            rows={rows}
            filename={`expiring-${days}-days.csv`}
            columns={[
              { title: 'Login', value: (r) => r.login },
              { title: 'Full name', value: (r) => r.full_name },
              { title: 'Owner', value: (r) => r.owner.username },
              { title: 'Owner role', value: (r) => r.owner.role },
              { title: 'Expiry date', value: (r) => r.expiry_date },
            ]}
          />
        </Space>
      }
    >
      <Failed show={error} />
      <Row gutter={[16, 16]} style={{ marginBottom: 12 }}>
        {EXPIRY_WINDOWS.map((d) => (
          <Col key={d} xs={8}>
            <Card size="small">
              <Figure title={`Within ${d} days`} value={data?.counts[`days_${d}` as keyof ExpiringReport['counts']] ?? 0} suffix="accounts" loading={loading} />
            </Card>
          </Col>
        ))}
      </Row>
      <Scrollable label={ANALYTICS.expiring}>
        <Table
          size="small"
          rowKey="id"
          loading={loading}
          dataSource={rows}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: 'Login', dataIndex: 'login' },
            { title: 'Full name', dataIndex: 'full_name' },
            { title: 'Owner', dataIndex: ['owner', 'username'] },
            { title: 'Expires', dataIndex: 'expiry_date', render: dateTime },
          ]}
        />
      </Scrollable>
    </Card>
  );
}

function TopUsers({ role, title, range }: { role: 'reseller' | 'dealer'; title: string; range: Record<string, string> }) {
  const { data = [], loading, error } = useFigures<TopUser[]>('analytics/top-users', { ...range, role, limit: TOP_COUNT });
  const [search, setSearch] = useState('');
  const rows = useMemo(() => {
    const term = search.trim().toLowerCase();
    return data.filter((u) => !term || u.username.toLowerCase().includes(term) || u.name.toLowerCase().includes(term));
  }, [data, search]);
  // The chart's box has its height before the chart draws into it.
  const barHeight = Math.max(120, rows.length * 32);
  return (
    <Card
      title={title}
      loading={loading}
      extra={
        <Space wrap>
          <Input
            allowClear
            size="small"
            placeholder="Search..."
            aria-label={`Search ${role}s`}
            style={{ width: 140 }}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <ExportCsvButton
            rows={rows}
            filename={`top-${role}s.csv`}
            columns={[
              { title: 'Username', value: (r) => r.username },
              { title: 'Name', value: (r) => r.name },
              { title: 'Credits spent', value: (r) => r.credits_spent },
              { title: 'Renewals', value: (r) => r.renewals },
            ]}
          />
        </Space>
      }
    >
      <Failed show={error} />
      <div data-testid={`chart-top-${role}s`} style={{ minHeight: barHeight }}>
        <Bar data={rows} xField="username" yField="credits_spent" height={barHeight} autoFit axis={{ y: { title: 'Credits' } }} />
      </div>
      <Scrollable label={title}>
        <Table
          size="small"
          rowKey="id"
          dataSource={rows}
          pagination={false}
          columns={[
            { title: '#', key: 'rank', width: 50, render: (_: unknown, _r: TopUser, i: number) => i + 1 },
            { title: 'Username', dataIndex: 'username' },
            { title: 'Name', dataIndex: 'name', responsive: ['md'] },
            { title: 'Credits spent', dataIndex: 'credits_spent', align: 'right', render: (v: number) => `${grouped(v)} credits` },
            { title: 'Renewals', dataIndex: 'renewals', align: 'right' },
          ]}
        />
      </Scrollable>
    </Card>
  );
}

/**
 * Whether every figure the board opens with has answered (or failed): the board is drawn once they
 * have, so that no card grows from its skeleton to its chart and table under the eyes and pushes the
 * others down. The cards then find their answers in the query cache (the same requests).
 */
function useFirstFiguresSettled(range: Record<string, string>): boolean {
  const loads = [
    useFigures('analytics/credits-flow', range),
    useFigures('analytics/renewals', range),
    useFigures('analytics/expiring', { days: FIRST_WINDOW }),
    useFigures('analytics/top-users', { ...range, role: 'reseller', limit: TOP_COUNT }),
    useFigures('analytics/top-users', { ...range, role: 'dealer', limit: TOP_COUNT }),
  ];
  const settled = loads.every((l) => !l.loading);
  // Once drawn, the board stays: a new range or window shows in each card as it loads.
  const [drawn, setDrawn] = useState(false);
  if (settled && !drawn) setDrawn(true);
  return settled || drawn;
}

function AnalyticsBoard() {
  const [range, setRange] = useState<Range>([dayjs().subtract(12, 'month').startOf('month'), dayjs()]);
  const [version, setVersion] = useState(0);
  const rangeQuery = useMemo(() => ({ date_from: range[0].format(DATE_FORMAT), date_to: range[1].format(DATE_FORMAT) }), [range]);
  const ready = useFirstFiguresSettled(rangeQuery);
  // Refresh mounts the figures again, which asks for each of them again.
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} key={version}>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <h2 style={{ margin: 0 }}>{ANALYTICS.title}</h2>
        <Space wrap>
          <DatePicker.RangePicker
            aria-label="Date range"
            value={range}
            allowClear={false}
            format={DATE_FORMAT}
            // The API reads at most ANALYTICS_MAX_RANGE_DAYS: days beyond that from the first one picked are not offered.
            disabledDate={(day, { from }) => !!from && Math.abs(day.diff(from, 'day')) > ANALYTICS_MAX_RANGE_DAYS}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Button icon={<ReloadOutlined />} onClick={() => setVersion((n) => n + 1)}>
            Refresh
          </Button>
        </Space>
      </Space>
      {!ready ? (
        <PageLoading />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <CreditsFlow range={rangeQuery} />
          </Col>
          <Col xs={24} xl={12}>
            <Renewals range={rangeQuery} />
          </Col>
          <Col xs={24}>
            <Expiring />
          </Col>
          <Col xs={24} lg={12}>
            <TopUsers role="reseller" title={ANALYTICS.topResellers} range={rangeQuery} />
          </Col>
          <Col xs={24} lg={12}>
            <TopUsers role="dealer" title={ANALYTICS.topDealers} range={rangeQuery} />
          </Col>
        </Row>
      )}
    </Space>
  );
}

export function AnalyticsPage() {
  return (
    <PageAccess resource="analytics">
      <AnalyticsBoard />
    </PageAccess>
  );
}
