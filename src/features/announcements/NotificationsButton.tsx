/**
 * The dashboard's Notifications button: a count of what is new for the caller (its unread
 * notifications, announcements and ticket replies), and a drawer with the unread announcements
 * (readers), the tickets the other side has written to and a link to the Notifications page. Load
 * failures are silent.
 */
import { BellOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import { Badge, Button, Drawer, Empty, List, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ANNOUNCEMENT_FORM, BANNER, NOTIFICATIONS_LINK, type Ticket, type UserAnnouncement, previewText } from '../../contract';
import { dateTime } from '../../components/display';
import { useCurrentUser } from '../../providers/identity';
import { useUnreadNotifications } from '../notifications/useNotifications';
import { ExpiringSoonTag } from './meta';

const SHOW = 20;

export function NotificationsButton() {
  const { role } = useCurrentUser();
  const reader = role !== null && role !== 'admin';
  const [open, setOpen] = useState(false);
  const announcements = useCustom<{ data: UserAnnouncement[]; unread_count: number }>({
    url: 'user/announcements',
    method: 'get',
    config: { query: { per_page: 100 } },
    errorNotification: false,
    queryOptions: { enabled: reader, retry: false },
  });
  const tickets = useCustom<{ data: { data: Ticket[]; total: number } }>({
    url: 'tickets',
    method: 'get',
    config: { query: { unread: 'true', per_page: SHOW, sort: 'updated_at', order: 'desc' } },
    errorNotification: false,
    queryOptions: { enabled: role !== null, retry: false },
  });
  const unreadAnnouncements = reader && !announcements.query.isError ? (announcements.result?.data?.data ?? []).filter((a) => a.is_new) : [];
  const announcementCount = reader && !announcements.query.isError ? (announcements.result?.data?.unread_count ?? 0) : 0;
  const unreadTickets = tickets.query.isError ? [] : (tickets.result?.data?.data?.data ?? []);
  const ticketCount = tickets.query.isError ? 0 : (tickets.result?.data?.data?.total ?? 0);
  const notificationCount = useUnreadNotifications(role !== null);
  const count = announcementCount + ticketCount + notificationCount;

  const show = () => {
    setOpen(true);
    if (reader) announcements.query.refetch();
    tickets.query.refetch();
  };

  return (
    <>
      <Badge count={count} size="small" offset={[-4, 4]}>
        <Button icon={<BellOutlined />} onClick={show} aria-label={`${ANNOUNCEMENT_FORM.notifications} (${count})`}>
          {ANNOUNCEMENT_FORM.notifications}
        </Button>
      </Badge>
      <Drawer open={open} onClose={() => setOpen(false)} title={ANNOUNCEMENT_FORM.notifications} width={420}>
        <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="notifications">
          <Link to="/notifications" onClick={() => setOpen(false)} data-testid="notifications-page-link">
            {NOTIFICATIONS_LINK.openPage} ({notificationCount} {NOTIFICATIONS_LINK.unread.toLowerCase()})
          </Link>
          {reader && (
            <div>
              <Typography.Title level={5}>
                {ANNOUNCEMENT_FORM.unreadAnnouncements} ({announcementCount})
              </Typography.Title>
              <List
                dataSource={unreadAnnouncements.slice(0, SHOW)}
                locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={ANNOUNCEMENT_FORM.nothingUnread} /> }}
                renderItem={(a) => (
                  <List.Item>
                    <List.Item.Meta
                      title={
                        <Space wrap size={4}>
                          <Link to={`/user-announcements?open=${a.id}`} onClick={() => setOpen(false)}>
                            {a.title}
                          </Link>
                          {a.expiring_soon && <ExpiringSoonTag />}
                        </Space>
                      }
                      description={previewText(a.content, BANNER.contentCut)}
                    />
                  </List.Item>
                )}
              />
            </div>
          )}
          <div>
            <Typography.Title level={5}>
              {ANNOUNCEMENT_FORM.ticketReplies} ({ticketCount})
            </Typography.Title>
            <List
              dataSource={unreadTickets}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={ANNOUNCEMENT_FORM.nothingUnread} /> }}
              renderItem={(t) => (
                <List.Item>
                  <List.Item.Meta
                    title={
                      <Link to={`/tickets?ticket=${t.id}`} onClick={() => setOpen(false)}>
                        {t.subject}
                      </Link>
                    }
                    description={`${t.user.username} · ${dateTime(t.last_activity_at)}`}
                  />
                </List.Item>
              )}
            />
          </div>
        </Space>
      </Drawer>
    </>
  );
}
