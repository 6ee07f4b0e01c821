/**
 * Audit logs (admin): stats cards (Total Logs, Modules, Actions, Recent Activity today),
 * filters (module, action, username, target username, date range), the table paged 10/15/25/50/100
 * (15 by default), and a details dialog with the old and new values side by side. Load failures are
 * silent: the table stays empty.
 */
import { EyeOutlined } from '@ant-design/icons';
import { type CrudFilter, useCustom } from '@refinedev/core';
import { Button, Descriptions, Modal, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { API_TOKENS, AUDIT, AUDIT_DEFAULT_PAGE_SIZE, AUDIT_LABELS, AUDIT_PAGE_SIZES, type AuditLog, type AuditStats } from '../../contract';
import { type DataColumn, DataTable, StatCards } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { PageAccess } from '../../components/routing';
import { ValuesSideBySide } from './ValuesSideBySide';

const silent = { errorNotification: false as const, queryOptions: { retry: false } };
const orDash = (v: string | null) => v ?? '—';
/** The filters the stats follow (not the usernames). */
const STATS_FILTERS = ['module', 'action', 'date_from', 'date_to'];

function Details({ entry, onClose }: { entry: AuditLog | null; onClose: () => void }) {
  return (
    <Modal open={entry !== null} onCancel={onClose} footer={null} width={860} title={AUDIT.details} destroyOnHidden>
      {entry && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="audit-details">
          <Descriptions size="small" bordered column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label="Date">{dateTime(entry.created_at)}</Descriptions.Item>
            <Descriptions.Item label="User">{entry.username ?? '—'}</Descriptions.Item>
            {entry.api_token && (
              <Descriptions.Item label={API_TOKENS.auditLabel} span={2}>
                <Typography.Text code>{entry.api_token}</Typography.Text>
              </Descriptions.Item>
            )}
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
  const [open, setOpen] = useState<AuditLog | null>(null);
  const [statsQuery, setStatsQuery] = useState<Record<string, string>>({});
  const followFilters = (filters: CrudFilter[]) =>
    setStatsQuery(Object.fromEntries(filters.flatMap((f) => ('field' in f && STATS_FILTERS.includes(f.field) && f.value ? [[f.field, String(f.value)]] : []))));
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
  const reload = () => {
    stats.query.refetch();
    modules.query.refetch();
    actions.query.refetch();
  };
  const columns = useMemo<Array<DataColumn<AuditLog>>>(
    () => [
      { title: 'Date', dataIndex: 'created_at', width: 140, render: dateTime, priority: 'key' },
      { title: 'User', dataIndex: 'username', width: 110, render: orDash, priority: 'key' },
      { title: 'Module', dataIndex: 'module', width: 140, render: (v: string) => <Tag title={v}>{v}</Tag> },
      {
        title: 'Action',
        dataIndex: 'action',
        width: 140,
        render: (v: string) => (
          <Tag color="blue" title={v}>
            {v}
          </Tag>
        ),
        priority: 'key',
      },
      { title: 'Target', dataIndex: 'target_username', width: 110, render: orDash },
      { title: 'Description', dataIndex: 'description', width: 220, render: orDash },
      { title: 'IP', dataIndex: 'ip_address', width: 130, responsive: ['lg'], render: orDash },
      {
        title: '',
        dataIndex: 'id',
        fixed: 'right',
        width: 100,
        priority: 'key',
        render: (_: unknown, entry: AuditLog) => (
          <Button size="small" icon={<EyeOutlined />} onClick={() => setOpen(entry)} aria-label={`Details of entry ${entry.id}`}>
            Details
          </Button>
        ),
      },
    ],
    [],
  );

  return (
    <>
      <DataTable<AuditLog, 'audit-logs'>
        resource="audit-logs"
        title={AUDIT.title}
        columns={columns}
        columnChooser
        header={<StatCards cards={cards} loading={stats.query.isLoading} />}
        searchable={false}
        selectFilters={[
          { field: 'module', label: 'Module', options: options(modules), clearable: true, showSearch: true },
          { field: 'action', label: 'Action', options: options(actions), clearable: true, showSearch: true },
        ]}
        textFilters={[
          { field: 'username', label: 'Username' },
          { field: 'target_username', label: 'Target username' },
        ]}
        dateRange={{ from: 'date_from', to: 'date_to', label: 'Date range' }}
        clearLabel={AUDIT.clear}
        onFiltersChange={followFilters}
        onRefresh={reload}
        loadErrorBanner={false}
        pageSizes={AUDIT_PAGE_SIZES}
        defaultPageSize={AUDIT_DEFAULT_PAGE_SIZE}
        onRow={(entry) => ({ onDoubleClick: () => setOpen(entry) })}
      />
      <Details entry={open} onClose={() => setOpen(null)} />
    </>
  );
}

export function AuditLogsPage() {
  return (
    <PageAccess resource="audit-logs">
      <AuditLogViewer />
    </PageAccess>
  );
}
