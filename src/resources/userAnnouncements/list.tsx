/**
 * Announcements as managers, resellers and dealers read them (docs/domain.md#announcements): those aimed at the caller,
 * grouped Urgent, High Priority and General, a 'new' badge on unread ones and the unread count, an
 * 'Expiring Soon' badge within 24 hours, Refresh; opening one (also /user-announcements?open=ID)
 * shows it whole and reads it.
 */
import { type HttpError, useCustom, useInvalidate, useOne } from '@refinedev/core';
import { Badge, List, Modal, Space, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { ANNOUNCEMENTS, ANNOUNCEMENT_FORM, ANNOUNCEMENT_PAGE_SIZE, ANNOUNCEMENT_SECTIONS, LIST_PREVIEW_CUT, type UserAnnouncement, previewText } from '../../contract';
import { AnnouncementContent, AnnouncementPriorityTag, AnnouncementTypeTag, ExpiringSoonTag, NewTag } from '../../features/announcements';
import { DataTable } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { errorNotification } from '../../components/feedback';

const SECTIONS: Array<{ key: string; title: string; test: (a: UserAnnouncement) => boolean }> = [
  { key: 'urgent', title: ANNOUNCEMENT_SECTIONS.urgent, test: (a) => a.priority === 'urgent' },
  { key: 'high', title: ANNOUNCEMENT_SECTIONS.high, test: (a) => a.priority === 'high' },
  { key: 'general', title: ANNOUNCEMENT_SECTIONS.general, test: (a) => a.priority !== 'urgent' && a.priority !== 'high' },
];

function Reader({ id, onClose, onRead }: { id: number | null; onClose: () => void; onRead: () => void }) {
  const { result, query } = useOne<UserAnnouncement, HttpError>({
    resource: 'user-announcements',
    id: id ?? '',
    queryOptions: { enabled: id !== null, retry: false },
    errorNotification: errorNotification(ANNOUNCEMENTS.fetchFailed, { server: false }),
  });
  const readId = query.isSuccess ? result?.id : undefined;
  useEffect(() => {
    if (readId !== undefined) onRead();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readId]);
  return (
    <Modal open={id !== null} onCancel={onClose} footer={null} width={680} title={query.isSuccess ? result?.title : ANNOUNCEMENT_FORM.title} destroyOnHidden>
      {query.isLoading && <Spin />}
      {query.isSuccess && result && (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="announcement-reader">
          <Space wrap size={6}>
            <AnnouncementTypeTag type={result.type} />
            <AnnouncementPriorityTag priority={result.priority} />
            {result.expiring_soon && <ExpiringSoonTag />}
            <Typography.Text type="secondary">{dateTime(result.starts_at ?? result.created_at)}</Typography.Text>
          </Space>
          <AnnouncementContent html={result.content} />
        </Space>
      )}
    </Modal>
  );
}

function Sections({ rows, onOpen }: { rows: UserAnnouncement[]; onOpen: (id: number) => void }) {
  return (
    <>
      {SECTIONS.map((section) => {
        const items = rows.filter(section.test);
        if (items.length === 0) return null;
        return (
          <section key={section.key} data-testid={`section-${section.key}`} style={{ marginBottom: 16 }}>
            <Typography.Title level={5}>{section.title}</Typography.Title>
            <List
              dataSource={items}
              renderItem={(a) => (
                <List.Item data-testid="user-announcement" style={{ cursor: 'pointer' }} onClick={() => onOpen(a.id)}>
                  <List.Item.Meta
                    title={
                      <Space wrap size={6}>
                        <Typography.Link strong={a.is_new}>{a.title}</Typography.Link>
                        {a.is_new && <NewTag />}
                        <AnnouncementTypeTag type={a.type} />
                        {a.expiring_soon && <ExpiringSoonTag />}
                      </Space>
                    }
                    description={
                      <Space direction="vertical" size={2} style={{ width: '100%' }}>
                        <span style={{ overflowWrap: 'anywhere' }}>{previewText(a.content, LIST_PREVIEW_CUT)}</span>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {dateTime(a.starts_at ?? a.created_at)}
                          {a.expires_at ? ` · until ${dateTime(a.expires_at)}` : ''}
                        </Typography.Text>
                      </Space>
                    }
                  />
                </List.Item>
              )}
            />
          </section>
        );
      })}
    </>
  );
}

export function UserAnnouncementsPage() {
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get('open')) || null;
  const invalidate = useInvalidate();
  // Silent on failure.
  const unread = useCustom<{ unread_count: number }>({ url: 'user/announcements/unread-count', method: 'get', errorNotification: false, queryOptions: { retry: false } });
  const unreadCount = unread.query.isError ? 0 : (unread.result?.data?.unread_count ?? 0);
  const refetchUnread = () => void unread.query.refetch();

  return (
    <>
      <DataTable<UserAnnouncement, 'user-announcements'>
        resource="user-announcements"
        title={
          <Space>
            {ANNOUNCEMENT_FORM.title}
            <Badge count={unreadCount} data-testid="unread-count" title={`${unreadCount} unread`} />
          </Space>
        }
        columns={[]}
        searchPlaceholder="Search announcements..."
        pageSizes={[ANNOUNCEMENT_PAGE_SIZE.user]}
        defaultPageSize={ANNOUNCEMENT_PAGE_SIZE.user}
        loadErrorMessage={ANNOUNCEMENTS.fetchFailed}
        notifyLoadError
        loadErrorBanner={false}
        onRefresh={refetchUnread}
        empty={{ hint: ANNOUNCEMENT_FORM.noAnnouncements }}
        renderRows={(rows) => <Sections rows={rows} onOpen={(id) => setParams({ open: String(id) })} />}
      />
      <Reader
        id={openId}
        onClose={() => setParams({})}
        onRead={() => {
          invalidate({ resource: 'user-announcements', invalidates: ['list'] });
          refetchUnread();
        }}
      />
    </>
  );
}
