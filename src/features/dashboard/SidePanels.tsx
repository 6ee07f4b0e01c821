/**
 * The dashboard's side column: admin sees the system internals (database kind, uptime, query time,
 * memory) and links to its oversight screens; every other role sees links to its daily screens.
 */
import { AuditOutlined, CustomerServiceOutlined, LineChartOutlined, NotificationOutlined, TeamOutlined, TransactionOutlined } from '@ant-design/icons';
import { Card, Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DASHBOARD_LABELS, DASHBOARD_PANEL } from '../../contract';

export interface SystemFigures {
  system_health?: { database: string; status: string; uptime_seconds: number };
  performance?: { db_query_ms: number; memory_mb: number };
}

function Links({ title, links }: { title: string; links: Array<[string, string, ReactNode]> }) {
  return (
    <Card title={title} size="small">
      <Space direction="vertical">
        {links.map(([to, label, icon]) => (
          <Link key={to} to={to}>
            {icon} {label}
          </Link>
        ))}
      </Space>
    </Card>
  );
}

export function SidePanels({ figures, role }: { figures?: SystemFigures; role: string | null }) {
  if (role !== 'admin') {
    return (
      <Links
        title={DASHBOARD_PANEL.quickLinks}
        links={[
          ['/users', 'Users', <TeamOutlined key="u" />],
          ['/transactions', 'Transactions', <TransactionOutlined key="t" />],
          ['/tickets', 'Tickets', <CustomerServiceOutlined key="k" />],
          ['/user-announcements', 'Announcements', <NotificationOutlined key="a" />],
        ]}
      />
    );
  }
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card title={DASHBOARD_LABELS.systemHealth} size="small" data-testid="system-health">
        {figures?.system_health && (
          <Space direction="vertical">
            <span>
              API <Tag color="green">{figures.system_health.status}</Tag>
            </span>
            <span>Database: {figures.system_health.database}</span>
            <span>Uptime: {Math.round(figures.system_health.uptime_seconds / 60)} min</span>
          </Space>
        )}
      </Card>
      <Card title={DASHBOARD_LABELS.performance} size="small" data-testid="performance">
        {figures?.performance && (
          <Space direction="vertical">
            <span>Dashboard queries: {figures.performance.db_query_ms} ms</span>
            <span>Server memory: {figures.performance.memory_mb} MB</span>
          </Space>
        )}
      </Card>
      <Links
        title={DASHBOARD_PANEL.adminTools}
        links={[
          ['/analytics', 'Analytics', <LineChartOutlined key="an" />],
          ['/audit-logs', 'Audit Logs', <AuditOutlined key="au" />],
        ]}
      />
    </Space>
  );
}
