/**
 * Announcement management (admin): stats cards Total/Active/Scheduled/Expired, filters (search,
 * type, priority, status, Clear), the paged list (15 a page, previews cut at 200 characters), the
 * create/edit dialog, the eye toggle and delete. Stats failures are silent.
 */
import { DeleteOutlined, EditOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { useCustom, useCustomMutation, useInvalidate } from '@refinedev/core';
import { Button, List, Space, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import {
  ANNOUNCEMENTS,
  ANNOUNCEMENT_FORM,
  ANNOUNCEMENT_PAGE_SIZE,
  ANNOUNCEMENT_STATES,
  type Announcement,
  type AnnouncementDetail,
  type AnnouncementStats,
  DATA_TABLE,
  LIST_PREVIEW_CUT,
  announcementBody,
  previewText,
} from '../../contract';
import { AnnouncementPriorityTag, AnnouncementTypeTag, ExpiringSoonTag, priorityOptions, typeOptions } from '../../features/announcements';
import { CrudPage } from '../../components/CrudPage';
import { type RowAction, StatCards } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { useNotify } from '../../components/feedback';
import { PageAccess } from '../../components/routing';
import { AnnouncementFields } from './AnnouncementForm';

const STATE_LABEL: Record<Announcement['status'], string> = {
  active: ANNOUNCEMENT_FORM.active,
  scheduled: ANNOUNCEMENT_FORM.scheduled,
  expired: ANNOUNCEMENT_FORM.expired,
  inactive: ANNOUNCEMENT_FORM.inactive,
};
const STATE_COLOR: Record<Announcement['status'], string> = { active: 'green', scheduled: 'blue', expired: 'default', inactive: 'default' };
const stateOptions = ANNOUNCEMENT_STATES.map((s) => ({ label: STATE_LABEL[s], value: s }));

const NEW_ANNOUNCEMENT = {
  title: '',
  content: '',
  type: 'info',
  priority: 'medium',
  target_roles: [],
  target_users: [],
  is_active: true,
  starts_at: null,
  expires_at: null,
};

/** The icon buttons of an announcement's row: the eye toggle, edit and delete. */
const ROW_BUTTONS: Array<{ key: string; tip: (a: Announcement) => string; icon: (a: Announcement) => ReactNode }> = [
  { key: 'toggle', tip: (a) => (a.is_active ? 'Deactivate' : 'Activate'), icon: (a) => (a.is_active ? <EyeOutlined /> : <EyeInvisibleOutlined />) },
  { key: 'edit', tip: () => 'Edit', icon: () => <EditOutlined /> },
  { key: 'delete', tip: () => 'Delete', icon: () => <DeleteOutlined /> },
];

function AnnouncementRow({ a, actions }: { a: Announcement; actions: Array<RowAction<Announcement>> }) {
  return (
    <List.Item
      data-testid="announcement-row"
      actions={ROW_BUTTONS.flatMap(({ key, tip, icon }) => {
        const action = actions.find((x) => x.key === key);
        return action
          ? [
              <Tooltip key={key} title={tip(a)}>
                <Button type="text" danger={action.danger} icon={icon(a)} aria-label={`${tip(a)} ${a.title}`} onClick={() => action.onClick(a)} />
              </Tooltip>,
            ]
          : [];
      })}
    >
      <List.Item.Meta
        title={
          <Space wrap size={6}>
            <Typography.Text strong>{a.title}</Typography.Text>
            <AnnouncementTypeTag type={a.type} />
            <AnnouncementPriorityTag priority={a.priority} />
            <Tag color={STATE_COLOR[a.status]}>{STATE_LABEL[a.status]}</Tag>
            {a.expiring_soon && <ExpiringSoonTag />}
          </Space>
        }
        description={
          <Space direction="vertical" size={2} style={{ width: '100%' }}>
            <span style={{ overflowWrap: 'anywhere' }}>{previewText(a.content, LIST_PREVIEW_CUT)}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {a.target_roles.length ? `For ${a.target_roles.join(', ')}` : `For ${ANNOUNCEMENT_FORM.everyone.toLowerCase()}`}
              {a.target_users.length ? ` (${a.target_users.length} chosen)` : ''} · {a.starts_at ? `from ${dateTime(a.starts_at)}` : 'from now'} ·{' '}
              {a.expires_at ? `until ${dateTime(a.expires_at)}` : 'no expiry'} · by {a.creator?.username ?? '—'} on {dateTime(a.created_at)}
            </Typography.Text>
          </Space>
        }
      />
    </List.Item>
  );
}

function AnnouncementManagement() {
  const notify = useNotify();
  const invalidate = useInvalidate();
  const stats = useCustom<{ data: AnnouncementStats }>({ url: 'announcements/stats', method: 'get', errorNotification: false, queryOptions: { retry: false } });
  const refetchStats = () => void stats.query.refetch();
  const figures = stats.query.isError ? undefined : stats.result?.data?.data;
  const cards: Array<[string, number | undefined]> = [
    [ANNOUNCEMENT_FORM.total, figures?.total],
    [ANNOUNCEMENT_FORM.active, figures?.active],
    [ANNOUNCEMENT_FORM.scheduled, figures?.scheduled],
    [ANNOUNCEMENT_FORM.expired, figures?.expired],
  ];

  const { mutateAsync: toggle } = useCustomMutation();
  const flip = (a: Announcement) =>
    toggle({ url: `announcements/${a.id}/toggle-status`, method: 'patch', values: {}, successNotification: false, errorNotification: false })
      .then(() => notify.success(a.is_active ? ANNOUNCEMENT_FORM.deactivated : ANNOUNCEMENT_FORM.activated))
      .catch((error) => notify.httpError(error, ANNOUNCEMENTS.toggleFailed))
      .finally(() => {
        invalidate({ resource: 'announcements', invalidates: ['list'] });
        refetchStats();
      });

  return (
    <CrudPage<Announcement, 'announcements'>
      resource="announcements"
      title={ANNOUNCEMENT_FORM.title}
      singular="announcement"
      describe={(a) => `announcement "${a.title}"`}
      labels={{ add: ANNOUNCEMENT_FORM.add, createTitle: ANNOUNCEMENT_FORM.createTitle, editTitle: ANNOUNCEMENT_FORM.editTitle, emptyHint: DATA_TABLE.noAnnouncements }}
      columns={[]}
      schema={announcementBody}
      defaultValues={NEW_ANNOUNCEMENT}
      formBody={(mode, form) => (
        <AnnouncementFields
          form={form}
          known={mode === 'edit' ? (form.refineCore.query?.data?.data as AnnouncementDetail | undefined)?.target_user_details : undefined}
        />
      )}
      modalWidth={720}
      messages={{
        created: ANNOUNCEMENT_FORM.created,
        updated: ANNOUNCEMENT_FORM.updated,
        deleted: ANNOUNCEMENT_FORM.deleted,
        createFailed: ANNOUNCEMENTS.createFailed,
        updateFailed: ANNOUNCEMENTS.updateFailed,
        deleteFailed: ANNOUNCEMENTS.deleteFailed,
        loadFailed: ANNOUNCEMENTS.fetchFailed,
      }}
      notifyLoadError
      onSaved={refetchStats}
      extraRowActions={(a) => [{ key: 'toggle', label: a.is_active ? 'Deactivate' : 'Activate', onClick: flip }]}
      searchPlaceholder="Search announcements..."
      selectFilters={[
        { field: 'type', label: 'Type', options: typeOptions, clearable: true },
        { field: 'priority', label: 'Priority', options: priorityOptions, clearable: true },
        { field: 'status', label: 'Status', options: stateOptions, clearable: true },
      ]}
      header={<StatCards cards={cards} loading={stats.query.isLoading} />}
      table={{
        clearLabel: ANNOUNCEMENT_FORM.clear,
        onRefresh: refetchStats,
        loadErrorBanner: false,
        pageSizes: [ANNOUNCEMENT_PAGE_SIZE.admin],
        defaultPageSize: ANNOUNCEMENT_PAGE_SIZE.admin,
        initialSorters: [{ field: 'created_at', order: 'desc' }],
        renderRows: (rows, actionsOf) => <List dataSource={rows} renderItem={(a) => <AnnouncementRow a={a} actions={actionsOf(a)} />} />,
      }}
    />
  );
}

export function AnnouncementsPage() {
  return (
    <PageAccess resource="announcements">
      <AnnouncementManagement />
    </PageAccess>
  );
}
