/**
 * The caller's notifications (docs/domain.md#notifications): newest first, unread ones marked, each
 * with its link and Mark read; Mark all read; Unread only; and the delivery log of its e-mails and
 * webhooks (status, attempts, last error).
 */
import { Badge, Button, Card, List, Pagination, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { NOTIFICATIONS, type AppNotification, type Delivery } from '../../contract';
import { Scrollable } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { useNotify } from '../../components/feedback';
import { useDeliveryLog, useMarkRead, useNotificationList } from '../../features/notifications';

const PAGE_SIZE = 20;
const STATUS_COLOR: Record<Delivery['status'], string> = { pending: 'gold', sent: 'green', failed: 'red' };

function Item({ n, onRead }: { n: AppNotification; onRead: (id: number) => void }) {
  const unread = n.read_at === null;
  return (
    <List.Item
      data-testid="notification"
      data-unread={unread ? 'true' : 'false'}
      actions={
        unread
          ? [
              <Button key="read" size="small" onClick={() => onRead(n.id)} aria-label={`${NOTIFICATIONS.markRead}: ${n.title}`}>
                {NOTIFICATIONS.markRead}
              </Button>,
            ]
          : []
      }
    >
      <List.Item.Meta
        title={
          <Space wrap size={6}>
            {unread && <Badge status="processing" title={NOTIFICATIONS.unread} role="img" aria-label={NOTIFICATIONS.unread} />}
            {n.link ? (
              <Link to={n.link} onClick={() => unread && onRead(n.id)}>
                <Typography.Text strong={unread}>{n.title}</Typography.Text>
              </Link>
            ) : (
              <Typography.Text strong={unread}>{n.title}</Typography.Text>
            )}
            <Tag>{NOTIFICATIONS.types[n.type]}</Tag>
          </Space>
        }
        description={
          <Space direction="vertical" size={2}>
            <span style={{ overflowWrap: 'anywhere' }}>{n.text}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {dateTime(n.created_at)}
            </Typography.Text>
          </Space>
        }
      />
    </List.Item>
  );
}

function DeliveryLog() {
  const log = useDeliveryLog();
  const rows = log.result?.data?.data ?? [];
  return (
    <Scrollable label={NOTIFICATIONS.deliveries}>
      <Table<Delivery>
        rowKey="id"
        size="small"
        data-testid="delivery-log"
        loading={log.query.isLoading}
        dataSource={rows}
        scroll={{ x: true }}
        pagination={{ pageSize: PAGE_SIZE, hideOnSinglePage: true }}
        columns={[
          { key: 'event', title: NOTIFICATIONS.title, render: (_, d) => `${NOTIFICATIONS.types[d.event.type]}: ${d.event.title}` },
          { key: 'channel', title: 'Channel', render: (_, d) => NOTIFICATIONS.channels[d.channel] },
          { key: 'status', title: 'Status', render: (_, d) => <Tag color={STATUS_COLOR[d.status]}>{NOTIFICATIONS.deliveryStatus[d.status]}</Tag> },
          { key: 'attempts', title: NOTIFICATIONS.attempts, dataIndex: 'attempts' },
          { key: 'last_error', title: NOTIFICATIONS.lastError, render: (_, d) => d.last_error ?? '' },
          { key: 'when', title: 'Date', render: (_, d) => dateTime(d.sent_at ?? d.created_at) },
        ]}
      />
    </Scrollable>
  );
}

export function NotificationsPage() {
  const [page, setPage] = useState(1);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useNotificationList(page, PAGE_SIZE, unreadOnly);
  const { markRead, markAllRead } = useMarkRead();
  const notify = useNotify();
  const body = list.result?.data;
  const unreadCount = body?.unread_count ?? 0;

  const run = async (action: () => Promise<string>, quiet = false) => {
    try {
      const message = await action();
      if (!quiet) notify.success(message);
    } catch (error) {
      notify.httpError(error, NOTIFICATIONS.empty);
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card
        title={
          <Space>
            {NOTIFICATIONS.title}
            <Badge count={unreadCount} data-testid="notifications-unread" title={`${unreadCount} ${NOTIFICATIONS.unread.toLowerCase()}`} />
          </Space>
        }
        extra={
          <Space wrap>
            <Space size={6}>
              <Switch
                size="small"
                checked={unreadOnly}
                onChange={(on) => {
                  setUnreadOnly(on);
                  setPage(1);
                }}
                aria-label={NOTIFICATIONS.unreadOnly}
              />
              {NOTIFICATIONS.unreadOnly}
            </Space>
            <Button onClick={() => run(markAllRead)} disabled={unreadCount === 0}>
              {NOTIFICATIONS.markAllRead}
            </Button>
          </Space>
        }
      >
        <List
          loading={list.query.isLoading}
          dataSource={body?.data ?? []}
          locale={{ emptyText: <Typography.Text type="secondary">{NOTIFICATIONS.empty}</Typography.Text> }}
          renderItem={(n) => <Item n={n} onRead={(id) => run(() => markRead(id), true)} />}
        />
        {(body?.meta?.total ?? 0) > PAGE_SIZE && (
          <Pagination style={{ marginTop: 16 }} current={page} pageSize={PAGE_SIZE} total={body?.meta.total} onChange={setPage} showSizeChanger={false} />
        )}
      </Card>
      <Card title={NOTIFICATIONS.deliveries}>
        <DeliveryLog />
      </Card>
    </Space>
  );
}
