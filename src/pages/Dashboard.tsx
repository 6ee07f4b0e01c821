/** The dashboard (spec 2) with real figures for the caller's subtree. */
import { BellOutlined, ReloadOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import { Alert, Button, Card, Col, DatePicker, List, Row, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { DASHBOARD_LABELS } from '../contract';
import { dateTime } from '../components/display';
import { useCurrentUser } from '../providers/identity';

interface Stats {
  total_users: number;
  active_users: number;
  expired_users: number;
  total_managers: number;
  total_resellers: number;
  total_dealers: number;
  credits_sold: number;
  monthly_revenue: number;
  yearly_credits: Array<{ month: number; credits: number }>;
  recent_transactions: Array<{ id: number; transaction_number: string; type: string; credits: number; username: string; date: string }>;
  system_health: { database: string; status: string; uptime_seconds: number };
  performance: { db_query_ms: number; memory_mb: number };
}

type Range = [Dayjs, Dayjs];
const PRESETS: Array<{ label: string; value: Range }> = [
  { label: 'Today', value: [dayjs().startOf('day'), dayjs().endOf('day')] },
  { label: 'Yesterday', value: [dayjs().subtract(1, 'day').startOf('day'), dayjs().subtract(1, 'day').endOf('day')] },
  { label: 'Last 7 days', value: [dayjs().subtract(7, 'day'), dayjs()] },
  { label: 'Last 30 days', value: [dayjs().subtract(30, 'day'), dayjs()] },
  { label: 'Last 90 days', value: [dayjs().subtract(90, 'day'), dayjs()] },
  { label: 'This month', value: [dayjs().startOf('month'), dayjs().endOf('month')] },
  { label: 'Last month', value: [dayjs().subtract(1, 'month').startOf('month'), dayjs().subtract(1, 'month').endOf('month')] },
  { label: 'This year', value: [dayjs().startOf('year'), dayjs().endOf('year')] },
];

function greeting(): string {
  const hour = new Date().getHours();
  return hour < 12 ? 'Good morning' : hour < 18 ? 'Good afternoon' : 'Good evening';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function YearlyChart({ points }: { points: Stats['yearly_credits'] }) {
  const max = Math.max(1, ...points.map((p) => p.credits));
  return (
    <div style={{ display: 'flex', alignItems: 'flex-end', gap: 8, height: 180 }} role="img" aria-label="Credits sold per month this year">
      {points.map((p) => (
        <Tooltip key={p.month} title={`${MONTHS[p.month - 1]}: ${p.credits} credits`}>
          <div style={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 4 }}>
            <div style={{ width: '100%', height: Math.round((p.credits / max) * 150), minHeight: 2, background: '#1677ff', borderRadius: 4 }} />
            <Typography.Text type="secondary" style={{ fontSize: 11 }}>
              {MONTHS[p.month - 1]}
            </Typography.Text>
          </div>
        </Tooltip>
      ))}
    </div>
  );
}

export function DashboardPage() {
  const { user, role } = useCurrentUser();
  const navigate = useNavigate();
  const [range, setRange] = useState<Range>(PRESETS[3].value);
  const query = useMemo(() => ({ date_from: range[0].toISOString(), date_to: range[1].toISOString() }), [range]);
  const { query: stats, result } = useCustom<{ data: Stats }>({ url: 'dashboard/stats', method: 'get', config: { query }, errorNotification: false });
  const s = result?.data?.data;
  const name = user?.name || (role ? role.charAt(0).toUpperCase() + role.slice(1) : '');

  const cards: Array<[string, number | undefined]> = [
    [DASHBOARD_LABELS.totalUsers, s?.total_users],
    [DASHBOARD_LABELS.activeUsers, s?.active_users],
    [DASHBOARD_LABELS.expiredUsers, s?.expired_users],
    [DASHBOARD_LABELS.totalManagers, s?.total_managers],
    [DASHBOARD_LABELS.totalResellers, s?.total_resellers],
    [DASHBOARD_LABELS.totalDealers, s?.total_dealers],
    [DASHBOARD_LABELS.monthlyRevenue, s?.monthly_revenue],
    [DASHBOARD_LABELS.creditsSold, s?.credits_sold],
  ];

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {greeting()}, {name}
        </Typography.Title>
        <Space wrap>
          <DatePicker.RangePicker value={range} presets={PRESETS} allowClear={false} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
          <Button icon={<ReloadOutlined />} onClick={() => stats.refetch()} loading={stats.isFetching}>
            Refresh
          </Button>
          <Button icon={<BellOutlined />} onClick={() => navigate(role === 'admin' ? '/announcements' : '/user-announcements')}>
            Notifications
          </Button>
        </Space>
      </Space>
      {stats.isError && <Alert type="error" showIcon message={stats.error?.message} />}
      <Row gutter={[16, 16]}>
        {cards.map(([title, value]) => (
          <Col key={title} xs={24} sm={12} lg={6}>
            <Card loading={stats.isLoading}>
              <Statistic title={title} value={value ?? 0} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card title="Credits sold this year">{s && <YearlyChart points={s.yearly_credits} />}</Card>
        </Col>
        <Col xs={24} lg={8}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Card title={DASHBOARD_LABELS.systemHealth} size="small">
              {s && (
                <Space direction="vertical">
                  <span>
                    API <Tag color="green">{s.system_health.status}</Tag>
                  </span>
                  <span>Database: {s.system_health.database}</span>
                  <span>Uptime: {Math.round(s.system_health.uptime_seconds / 60)} min</span>
                </Space>
              )}
            </Card>
            <Card title={DASHBOARD_LABELS.performance} size="small">
              {s && (
                <Space direction="vertical">
                  <span>Dashboard queries: {s.performance.db_query_ms} ms</span>
                  <span>Server memory: {s.performance.memory_mb} MB</span>
                </Space>
              )}
            </Card>
          </Space>
        </Col>
      </Row>
      <Card title={DASHBOARD_LABELS.recentTransactions}>
        <List
          dataSource={s?.recent_transactions ?? []}
          locale={{ emptyText: 'No data found' }}
          renderItem={(t) => (
            <List.Item extra={dateTime(t.date)}>
              <List.Item.Meta title={`${t.transaction_number} · ${t.username}`} description={<Tag>{t.type}</Tag>} />
              <Typography.Text strong type={t.credits < 0 ? 'danger' : 'success'}>{t.credits > 0 ? `+${t.credits}` : t.credits}</Typography.Text>
            </List.Item>
          )}
        />
      </Card>
    </Space>
  );
}
