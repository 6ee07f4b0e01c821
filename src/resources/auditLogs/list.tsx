/**
 * Audit logs (admin): stats cards (Total Logs, Modules, Actions, Recent Activity today),
 * filters (module, action, username, target username, date range), the table paged 10/15/25/50/100
 * (15 by default), and a details dialog with the old and new values side by side. Load failures are
 * silent: the table stays empty.
 */
import { EyeOutlined, ReloadOutlined } from '@ant-design/icons';
import { type CrudFilter, type HttpError, useCustom, useList } from '@refinedev/core';
import { Button, Card, Col, DatePicker, Descriptions, Input, Modal, Row, Select, Space, Statistic, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import {
  AUDIT,
  AUDIT_DEFAULT_PAGE_SIZE,
  AUDIT_LABELS,
  AUDIT_PAGE_SIZES,
  type AuditLog,
  type AuditStats,
  DATE_FORMAT,
  GENERAL,
  SEARCH_DEBOUNCE_MS,
} from '../../contract';
import { Pagination, pagingOf } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { PageAccess } from '../../components/routing';
import { ValuesSideBySide } from './ValuesSideBySide';

interface Filters {
  module?: string;
  action?: string;
  username: string;
  target_username: string;
  range: [Dayjs, Dayjs] | null;
}
const NO_FILTERS: Filters = { username: '', target_username: '', range: null };

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

const silent = { errorNotification: false as const, queryOptions: { retry: false } };

function Details({ entry, onClose }: { entry: AuditLog | null; onClose: () => void }) {
  return (
    <Modal open={entry !== null} onCancel={onClose} footer={null} width={860} title={AUDIT.details} destroyOnHidden>
      {entry && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="audit-details">
          <Descriptions size="small" bordered column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label="Date">{dateTime(entry.created_at)}</Descriptions.Item>
            <Descriptions.Item label="User">{entry.username ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Module">
              <Tag>{entry.module}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Action">
              <Tag color="blue">{entry.action}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Target">{entry.target_username ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Record">{entry.entity_id ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="IP address">{entry.ip_address ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="User agent">
              <span style={{ overflowWrap: 'anywhere' }}>{entry.user_agent ?? '—'}</span>
            </Descriptions.Item>
            <Descriptions.Item label="Description" span={2}>
              {entry.description ?? '—'}
            </Descriptions.Item>
          </Descriptions>
          <ValuesSideBySide before={entry.old_values ?? null} after={entry.new_values ?? null} />
        </Space>
      )}
    </Modal>
  );
}

function AuditLogViewer() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const username = useDebounced(filters.username.trim(), SEARCH_DEBOUNCE_MS);
  const target = useDebounced(filters.target_username.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(AUDIT_DEFAULT_PAGE_SIZE);
  const [open, setOpen] = useState<AuditLog | null>(null);
  const dateFrom = filters.range?.[0].format(DATE_FORMAT);
  const dateTo = filters.range?.[1].format(DATE_FORMAT);
  useEffect(() => setPage(1), [filters.module, filters.action, username, target, dateFrom, dateTo]);

  const crudFilters = useMemo<CrudFilter[]>(
    () =>
      (
        [
          ['module', filters.module],
          ['action', filters.action],
          ['username', username || undefined],
          ['target_username', target || undefined],
          ['date_from', dateFrom],
          ['date_to', dateTo],
        ] as Array<[string, string | undefined]>
      )
        .filter(([, value]) => value !== undefined)
        .map(([field, value]) => ({ field, operator: 'eq' as const, value })),
    [filters.module, filters.action, username, target, dateFrom, dateTo],
  );
  const { result, query } = useList<AuditLog, HttpError>({
    resource: 'audit-logs',
    pagination: { currentPage: page, pageSize, mode: 'server' },
    filters: crudFilters,
    ...silent,
  });
  const statsQuery = useMemo(
    () => Object.fromEntries(Object.entries({ module: filters.module, action: filters.action, date_from: dateFrom, date_to: dateTo }).filter(([, v]) => v)),
    [filters.module, filters.action, dateFrom, dateTo],
  );
  const stats = useCustom<{ data: AuditStats }>({ url: 'audit-logs/stats', method: 'get', config: { query: statsQuery }, ...silent });
  const modules = useCustom<{ data: string[] }>({ url: 'audit-logs/modules', method: 'get', ...silent });
  const actions = useCustom<{ data: string[] }>({ url: 'audit-logs/actions', method: 'get', ...silent });
  const options = (q: typeof modules) => (q.query.isError ? [] : (q.result?.data?.data ?? [])).map((v) => ({ label: v, value: v }));

  const s = stats.query.isError ? undefined : stats.result?.data?.data;
  const cards: Array<[string, number | undefined]> = [
    [AUDIT_LABELS.totalLogs, s?.total_logs],
    [AUDIT_LABELS.modules, s?.by_module?.length],
    [AUDIT_LABELS.actions, s?.by_action?.length],
    [AUDIT_LABELS.recentActivity, s?.today],
  ];
  const rows = query.isError ? [] : result.data;
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));
  const reload = () => {
    query.refetch();
    stats.query.refetch();
    modules.query.refetch();
    actions.query.refetch();
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Row gutter={[16, 16]}>
        {cards.map(([title, value]) => (
          <Col key={title} xs={12} md={6}>
            <Card size="small" loading={stats.query.isLoading}>
              <Statistic title={title} value={value ?? 0} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        title={AUDIT.title}
        extra={
          <Button icon={<ReloadOutlined />} onClick={reload} loading={query.isFetching} aria-label="Refresh">
            Refresh
          </Button>
        }
      >
        <Space wrap style={{ marginBottom: 16 }}>
          <Select allowClear showSearch aria-label="Module" placeholder="Module" style={{ width: 170 }} options={options(modules)} value={filters.module} onChange={(v) => set({ module: v })} />
          <Select allowClear showSearch aria-label="Action" placeholder="Action" style={{ width: 170 }} options={options(actions)} value={filters.action} onChange={(v) => set({ action: v })} />
          <Input allowClear aria-label="Username" placeholder="Username" style={{ width: 150 }} value={filters.username} onChange={(e) => set({ username: e.target.value })} />
          <Input
            allowClear
            aria-label="Target username"
            placeholder="Target username"
            style={{ width: 170 }}
            value={filters.target_username}
            onChange={(e) => set({ target_username: e.target.value })}
          />
          <DatePicker.RangePicker
            aria-label="Date range"
            value={filters.range}
            format={DATE_FORMAT}
            disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
            onChange={(v) => set({ range: v?.[0] && v[1] ? [v[0], v[1]] : null })}
          />
          <Button onClick={() => setFilters(NO_FILTERS)}>{AUDIT.clear}</Button>
        </Space>
        <Table<AuditLog>
          rowKey="id"
          size="middle"
          loading={query.isLoading}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: GENERAL.noData }}
          onRow={(entry) => ({ onDoubleClick: () => setOpen(entry) })}
          columns={[
            { title: 'Date', dataIndex: 'created_at', width: 150, render: dateTime },
            { title: 'User', dataIndex: 'username', width: 130, render: (v: string | null) => v ?? '—' },
            { title: 'Module', dataIndex: 'module', width: 150, render: (v: string) => <Tag>{v}</Tag> },
            { title: 'Action', dataIndex: 'action', width: 130, render: (v: string) => <Tag color="blue">{v}</Tag> },
            { title: 'Target', dataIndex: 'target_username', width: 130, render: (v: string | null) => v ?? '—' },
            { title: 'Description', dataIndex: 'description', ellipsis: true, width: 260, render: (v: string | null) => v ?? '—' },
            { title: 'IP', dataIndex: 'ip_address', width: 120, responsive: ['lg'], render: (v: string | null) => v ?? '—' },
            {
              key: 'details',
              title: '',
              fixed: 'right',
              width: 100,
              render: (_: unknown, entry: AuditLog) => (
                <Button size="small" icon={<EyeOutlined />} onClick={() => setOpen(entry)} aria-label={`Details of entry ${entry.id}`}>
                  Details
                </Button>
              ),
            },
          ]}
        />
        <Pagination
          current={page}
          {...pagingOf(query.isError ? undefined : query.data, pageSize)}
          pageSize={pageSize}
          pageSizes={AUDIT_PAGE_SIZES}
          onChange={setPage}
          onPageSizeChange={(size) => {
            setPageSize(size);
            setPage(1);
          }}
        />
      </Card>
      <Details entry={open} onClose={() => setOpen(null)} />
    </Space>
  );
}

export function AuditLogsPage() {
  return (
    <PageAccess resource="audit-logs">
      <AuditLogViewer />
    </PageAccess>
  );
}
