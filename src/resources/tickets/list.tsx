/**
 * Tickets (every role): the caller's visible tickets with counters, filters by status, priority and
 * category, a New Ticket dialog on the contract's schema, and the thread of one ticket in a drawer
 * (/tickets?ticket=ID, so the Notifications panel can link to it).
 */
import { DeleteOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { useCan, useCustom, useDelete, useInvalidate } from '@refinedev/core';
import { Badge, Button, Input, Select, Space } from 'antd';
import { useSearchParams } from 'react-router';
import { DATA_TABLE, TICKETS, type Ticket, type TicketStatistics, ticketCreateBody } from '../../contract';
import { DataTable, StatCards } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { errorNotification, useConfirm, useNotify } from '../../components/feedback';
import { FormField, ModalForm, useSchemaModalForm } from '../../components/form';
import { TicketDrawer } from './TicketDrawer';
import { PriorityTag, TicketStatusTag, priorityOptions, statusOptions, useTicketCategories } from './shared';

function TicketStats({ stats, loading }: { stats?: TicketStatistics; loading: boolean }) {
  const cards: Array<[string, number | undefined]> = [
    ['Total', stats?.total],
    ['Open', stats?.open],
    ['Closed', stats?.closed],
    [TICKETS.unread, stats?.unread],
  ];
  return <StatCards cards={cards} loading={loading} />;
}

export function TicketsPage() {
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get('ticket')) || null;
  const openTicket = (id: number | null) => setParams(id ? { ticket: String(id) } : {});
  const notify = useNotify();
  const invalidate = useInvalidate();
  const { confirmDelete } = useConfirm();
  const canCreate = useCan({ resource: 'tickets', action: 'create' }).data?.can === true;
  const canDelete = useCan({ resource: 'tickets', action: 'delete' }).data?.can === true;
  const { options: categoryOptions } = useTicketCategories();
  const { result: statsResult, query: statsQuery } = useCustom<{ data: TicketStatistics }>({
    url: 'tickets-statistics',
    method: 'get',
    errorNotification: false,
  });
  const { mutateAsync: deleteOne } = useDelete();

  const createForm = useSchemaModalForm(ticketCreateBody, {
    defaultValues: { subject: '', message: '', priority: 'medium' },
    refineCoreProps: {
      resource: 'tickets',
      action: 'create',
      redirect: false,
      successNotification: () => ({ type: 'success', message: TICKETS.created }),
      errorNotification: errorNotification(TICKETS.createFailed, { fields: true }),
      onMutationSuccess: () => statsQuery.refetch(),
    },
  });

  const remove = (ticket: Ticket) =>
    confirmDelete(`ticket "${ticket.subject}"`, () =>
      deleteOne({ resource: 'tickets', id: ticket.id, successNotification: false, errorNotification: false })
        .then(() => notify.success(TICKETS.deleted))
        .catch((error) => notify.httpError(error, TICKETS.deleteFailed))
        .finally(() => {
          invalidate({ resource: 'tickets', invalidates: ['list'] });
          statsQuery.refetch();
        }),
    );

  return (
    <>
      <DataTable<Ticket, 'tickets'>
        header={<TicketStats stats={statsResult?.data?.data} loading={statsQuery.isLoading} />}
        resource="tickets"
        title={TICKETS.title}
        searchPlaceholder="Search subject or message..."
        loadErrorMessage={TICKETS.loadFailed}
        initialSorters={[{ field: 'updated_at', order: 'desc' }]}
        selectFilters={[
          { field: 'status', label: 'Status', options: statusOptions },
          { field: 'priority', label: 'Priority', options: priorityOptions },
          { field: 'category_id', label: 'Category', options: categoryOptions },
        ]}
        columns={[
          {
            dataIndex: 'subject',
            title: 'Subject',
            sortable: true,
            width: 260,
            render: (subject: string, t: Ticket) => (
              <Space size={6}>
                {/* A dot that says something: an image with a name. */}
                {t.is_unread && <Badge status="processing" title={TICKETS.unread} role="img" aria-label={TICKETS.unread} />}
                <Button type="link" style={{ padding: 0, fontWeight: t.is_unread ? 600 : undefined }} onClick={() => openTicket(t.id)}>
                  {subject}
                </Button>
              </Space>
            ),
          },
          { dataIndex: 'status', title: 'Status', sortable: true, render: (s: Ticket['status']) => <TicketStatusTag status={s} /> },
          { dataIndex: 'priority', title: 'Priority', sortable: true, render: (p: Ticket['priority']) => <PriorityTag priority={p} /> },
          { dataIndex: 'category.name', title: 'Category', render: (name?: string) => name ?? '—' },
          { dataIndex: 'user.username', title: 'Opened by', responsive: ['md'] },
          { dataIndex: 'replies_count', title: 'Replies', width: 90 },
          { dataIndex: 'updated_at', title: 'Last activity', sortable: true, render: dateTime, responsive: ['lg'] },
        ]}
        rowActions={(t) => [
          { key: 'open', label: 'Open', icon: <EyeOutlined />, onClick: () => openTicket(t.id) },
          { key: 'delete', label: 'Delete', icon: <DeleteOutlined />, danger: true, hidden: !canDelete, onClick: remove },
        ]}
        extra={
          canCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => createForm.modal.show()}>
              {TICKETS.add}
            </Button>
          )
        }
        empty={
          canCreate
            ? {
                hint: DATA_TABLE.noTickets,
                action: (
                  <Button type="primary" icon={<PlusOutlined />} onClick={() => createForm.modal.show()}>
                    {TICKETS.add}
                  </Button>
                ),
              }
            : undefined
        }
      />
      <ModalForm form={createForm} name="tickets-create" title={TICKETS.add}>
        <FormField control={createForm.control} name="subject" label="Subject" required>
          <Input maxLength={255} />
        </FormField>
        <FormField control={createForm.control} name="category_id" label="Category" required>
          <Select options={categoryOptions} placeholder="Select a category" />
        </FormField>
        <FormField control={createForm.control} name="priority" label="Priority" required>
          <Select options={priorityOptions} />
        </FormField>
        <FormField control={createForm.control} name="message" label="Message" required>
          <Input.TextArea rows={5} />
        </FormField>
      </ModalForm>
      <TicketDrawer id={openId} onClose={() => openTicket(null)} onChanged={() => statsQuery.refetch()} />
    </>
  );
}
