/** The dashboard (docs/domain.md#dashboard) with real figures for the caller's subtree. */
import { ReloadOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import { Alert, Button, Card, Col, DatePicker, Row, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { AnnouncementBanner, NotificationsButton, useBannerSettled } from '../features/announcements';
import { PageLoading } from '../components/routing';
import { YearlyCreditsChart } from '../components/charts';
import { RecentTransactions, SidePanels, StatCards } from '../features/dashboard';
import { MyCaps } from '../features/hierarchy/CapsEditor';
import type { DashboardStats } from '../contract';
import { useCurrentUser } from '../providers/identity';

type Stats = DashboardStats;

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

export function DashboardPage() {
  const { user, role } = useCurrentUser();
  const [range, setRange] = useState<Range>(PRESETS[3].value);
  const query = useMemo(() => ({ date_from: range[0].toISOString(), date_to: range[1].toISOString() }), [range]);
  const { query: stats, result } = useCustom<{ data: Stats }>({ url: 'dashboard/stats', method: 'get', config: { query }, errorNotification: false });
  const s = result?.data?.data;
  const name = user?.name || (role ? role.charAt(0).toUpperCase() + role.slice(1) : '');
  // The banner, the figures and what follows them are drawn together, once both have answered: the
  // banner arriving after the cards pushed them down. A new range keeps the figures shown until its own arrive.
  const bannerSettled = useBannerSettled();
  const ready = bannerSettled && (s !== undefined || stats.isError);

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
          <NotificationsButton />
        </Space>
      </Space>
      {ready ? (
        <>
          <AnnouncementBanner />
          {stats.isError && <Alert type="error" showIcon message={stats.error?.message} />}
          <StatCards figures={s} role={role} loading={stats.isLoading} />
          {role !== null && role !== 'admin' && <MyCaps />}
          <Row gutter={[16, 16]}>
            <Col xs={24} lg={16}>
              <Card title="Credits sold this year">{s && <YearlyCreditsChart points={s.yearly_credits} />}</Card>
            </Col>
            <Col xs={24} lg={8}>
              <SidePanels figures={s} role={role} />
            </Col>
          </Row>
          <RecentTransactions rows={s?.recent_transactions} loading={stats.isLoading} />
        </>
      ) : (
        <PageLoading />
      )}
    </Space>
  );
}
