/**
 * Announcement management (admin): stats cards Total/Active/Scheduled/Expired, filters (search,
 * type, priority, status, Clear), the paged list (15 a page, previews cut at 200 characters), the
 * create/edit dialog, the eye toggle and delete. Stats failures are silent.
 */
import { DeleteOutlined, EditOutlined, EyeInvisibleOutlined, EyeOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { type CrudFilter, type HttpError, useCustom, useCustomMutation, useDelete, useList } from '@refinedev/core';
import { Button, Card, Col, Input, List, Row, Select, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import {
  ANNOUNCEMENTS,
  ANNOUNCEMENT_FORM,
  ANNOUNCEMENT_PAGE_SIZE,
  ANNOUNCEMENT_STATES,
  type Announcement,
  type AnnouncementDetail,
  type AnnouncementStats,
  DATA_TABLE,
  GENERAL,
  LIST_PREVIEW_CUT,
  SEARCH_DEBOUNCE_MS,
  announcementBody,
  previewText,
} from '../../contract';
import { AnnouncementPriorityTag, AnnouncementTypeTag, ExpiringSoonTag, priorityOptions, typeOptions } from '../../features/announcements';
import { ListEmpty, Pagination, pagingOf } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { titled, useConfirm, useNotify } from '../../components/feedback';
import { ModalForm, useSchemaModalForm } from '../../components/form';
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

const failure = (fallback: string) => (error?: HttpError) => ({
  type: 'error' as const,
  ...titled(GENERAL.error, error?.errors ? fallback : (error?.message ?? fallback)),
});

interface Filters {
  search: string;
  type?: string;
  priority?: string;
  status?: string;
}

function StatsCards({ stats, loading }: { stats?: AnnouncementStats; loading: boolean }) {
  const cards: Array<[string, number | undefined]> = [
    [ANNOUNCEMENT_FORM.total, stats?.total],
    [ANNOUNCEMENT_FORM.active, stats?.active],
    [ANNOUNCEMENT_FORM.scheduled, stats?.scheduled],
    [ANNOUNCEMENT_FORM.expired, stats?.expired],
  ];
  return (
    <Row gutter={[16, 16]}>
      {cards.map(([title, value]) => (
        <Col key={title} xs={12} md={6}>
          <Card size="small" loading={loading}>
            <Statistic title={title} value={value ?? 0} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function AnnouncementManagement() {
  const notify = useNotify();
  const { confirmDelete } = useConfirm();
  const [filters, setFilters] = useState<Filters>({ search: '' });
  const search = useDebounced(filters.search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(ANNOUNCEMENT_PAGE_SIZE.admin);
  useEffect(() => setPage(1), [search, filters.type, filters.priority, filters.status]);

  const crudFilters = useMemo<CrudFilter[]>(
    () =>
      [
        { field: 'search', operator: 'contains' as const, value: search || undefined },
        { field: 'type', operator: 'eq' as const, value: filters.type },
        { field: 'priority', operator: 'eq' as const, value: filters.priority },
        { field: 'status', operator: 'eq' as const, value: filters.status },
      ].filter((f) => f.value !== undefined),
    [search, filters.type, filters.priority, filters.status],
  );
  const { result, query } = useList<Announcement, HttpError>({
    resource: 'announcements',
    pagination: { currentPage: page, pageSize, mode: 'server' },
    filters: crudFilters,
    sorters: [{ field: 'created_at', order: 'desc' }],
    errorNotification: () => ({ type: 'error', ...titled(GENERAL.error, ANNOUNCEMENTS.fetchFailed) }),
    queryOptions: { retry: false },
  });
  const stats = useCustom<{ data: AnnouncementStats }>({ url: 'announcements/stats', method: 'get', errorNotification: false, queryOptions: { retry: false } });
  const reload = () => {
    query.refetch();
    stats.query.refetch();
  };

  const formFor = (action: 'create' | 'edit') =>
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useSchemaModalForm(announcementBody, {
      defaultValues:
        action === 'create'
          ? { title: '', content: '', type: 'info', priority: 'medium', target_roles: [], target_users: [], is_active: true, starts_at: null, expires_at: null }
          : undefined,
      refineCoreProps: {
        resource: 'announcements',
        action,
        redirect: false,
        successNotification: () => ({ type: 'success', message: action === 'create' ? ANNOUNCEMENT_FORM.created : ANNOUNCEMENT_FORM.updated }),
        errorNotification: failure(action === 'create' ? ANNOUNCEMENTS.createFailed : ANNOUNCEMENTS.updateFailed),
        onMutationSuccess: () => stats.query.refetch(),
      },
    });
  const createForm = formFor('create');
  const editForm = formFor('edit');
  const editing = editForm.refineCore.query?.data?.data as AnnouncementDetail | undefined;

  const { mutateAsync: toggle } = useCustomMutation();
  const { mutateAsync: remove } = useDelete();
  const flip = (a: Announcement) =>
    toggle({ url: `announcements/${a.id}/toggle-status`, method: 'patch', values: {}, successNotification: false, errorNotification: false })
      .then(() => notify.success(a.is_active ? ANNOUNCEMENT_FORM.deactivated : ANNOUNCEMENT_FORM.activated))
      .catch((error) => notify.httpError(error, ANNOUNCEMENTS.toggleFailed))
      .finally(reload);
  const destroy = (a: Announcement) =>
    confirmDelete(`announcement "${a.title}"`, () =>
      remove({ resource: 'announcements', id: a.id, successNotification: false, errorNotification: false })
        .then(() => notify.success(ANNOUNCEMENT_FORM.deleted))
        .catch((error) => notify.httpError(error, ANNOUNCEMENTS.deleteFailed))
        .finally(reload),
    );

  const rows = query.isError ? [] : result.data;
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <StatsCards stats={stats.query.isError ? undefined : stats.result?.data?.data} loading={stats.query.isLoading} />
      <Card
        title={ANNOUNCEMENT_FORM.title}
        extra={
          <Space wrap>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => createForm.modal.show()}>
              {ANNOUNCEMENT_FORM.add}
            </Button>
            <Button icon={<ReloadOutlined />} onClick={reload} loading={query.isFetching} aria-label="Refresh">
              Refresh
            </Button>
          </Space>
        }
      >
        <Space wrap style={{ marginBottom: 16 }}>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Search announcements..."
            aria-label="Search"
            value={filters.search}
            onChange={(e) => set({ search: e.target.value })}
            style={{ width: 240 }}
          />
          <Select allowClear aria-label="Type" placeholder="Type" style={{ width: 130 }} options={typeOptions} value={filters.type} onChange={(v) => set({ type: v })} />
          <Select allowClear aria-label="Priority" placeholder="Priority" style={{ width: 130 }} options={priorityOptions} value={filters.priority} onChange={(v) => set({ priority: v })} />
          <Select allowClear aria-label="Status" placeholder="Status" style={{ width: 130 }} options={stateOptions} value={filters.status} onChange={(v) => set({ status: v })} />
          <Button onClick={() => setFilters({ search: '' })}>{ANNOUNCEMENT_FORM.clear}</Button>
        </Space>
        <List
          loading={query.isLoading}
          dataSource={rows}
          locale={{
            emptyText: (
              <ListEmpty
                narrowed={Boolean(filters.search || filters.type || filters.priority || filters.status)}
                onClear={() => setFilters({ search: '' })}
                hint={DATA_TABLE.noAnnouncements}
                action={
                  <Button type="primary" icon={<PlusOutlined />} onClick={() => createForm.modal.show()}>
                    {ANNOUNCEMENT_FORM.add}
                  </Button>
                }
              />
            ),
          }}
          renderItem={(a) => (
            <List.Item
              data-testid="announcement-row"
              actions={[
                <Tooltip key="toggle" title={a.is_active ? 'Deactivate' : 'Activate'}>
                  <Button type="text" icon={a.is_active ? <EyeOutlined /> : <EyeInvisibleOutlined />} aria-label={a.is_active ? `Deactivate ${a.title}` : `Activate ${a.title}`} onClick={() => flip(a)} />
                </Tooltip>,
                <Tooltip key="edit" title="Edit">
                  <Button type="text" icon={<EditOutlined />} aria-label={`Edit ${a.title}`} onClick={() => editForm.modal.show(a.id)} />
                </Tooltip>,
                <Tooltip key="delete" title="Delete">
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Delete ${a.title}`} onClick={() => destroy(a)} />
                </Tooltip>,
              ]}
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
          )}
        />
        <Pagination
          current={page}
          {...pagingOf(query.isError ? undefined : query.data, pageSize)}
          pageSize={pageSize}
          pageSizes={[ANNOUNCEMENT_PAGE_SIZE.admin]}
          onChange={setPage}
          onPageSizeChange={(size) => {
            setPageSize(size);
            setPage(1);
          }}
        />
      </Card>
      <ModalForm form={createForm} name="announcements-create" title={ANNOUNCEMENT_FORM.createTitle} width={720}>
        <AnnouncementFields form={createForm} />
      </ModalForm>
      <ModalForm form={editForm} name="announcements-edit" title={ANNOUNCEMENT_FORM.editTitle} width={720}>
        <AnnouncementFields form={editForm} known={editing?.target_user_details} />
      </ModalForm>
    </Space>
  );
}

export function AnnouncementsPage() {
  return (
    <PageAccess resource="announcements">
      <AnnouncementManagement />
    </PageAccess>
  );
}
