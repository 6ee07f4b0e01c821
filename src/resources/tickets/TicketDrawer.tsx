/**
 * One ticket and its thread in a drawer: the opening message, the replies (staff on one side, the
 * owner on the other), a reply box, and Close / Reopen. Opening it reads it (the API marks it read).
 */
import { CheckCircleOutlined, RedoOutlined, SendOutlined } from '@ant-design/icons';
import { type HttpError, useInvalidate, useOne, useUpdate } from '@refinedev/core';
import { Alert, Avatar, Button, Descriptions, Drawer, Empty, Input, List, Space, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { TICKETS, type TicketWithReplies, ticketReplyBody } from '../../contract';
import { RoleBadge, dateTime } from '../../components/display';
import { errorNotification } from '../../components/feedback';
import { FormField, SchemaForm, useSchemaForm } from '../../components/form';
import { PriorityTag, TicketStatusTag } from './shared';

function ReplyBox({ ticketId, onSent }: { ticketId: number; onSent: () => void }) {
  const form = useSchemaForm(ticketReplyBody, {
    defaultValues: { message: '' },
    refineCoreProps: {
      resource: 'tickets',
      action: 'create',
      meta: { path: `tickets/${ticketId}/replies` },
      redirect: false,
      successNotification: () => ({ type: 'success', message: TICKETS.replied }),
      errorNotification: errorNotification(TICKETS.replyFailed, { fields: true }),
      onMutationSuccess: () => {
        form.reset({ message: '' });
        onSent();
      },
    },
  });
  const { control, handleSubmit, refineCore } = form;
  return (
    <SchemaForm name={`ticket-${ticketId}-reply`} handleSubmit={handleSubmit} onSubmit={refineCore.onFinish}>
      <FormField control={control} name="message" label={TICKETS.reply}>
        <Input.TextArea rows={3} placeholder="Write a reply..." />
      </FormField>
      <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={refineCore.mutation.isPending}>
        Send Reply
      </Button>
    </SchemaForm>
  );
}

export function TicketDrawer({ id, onClose, onChanged }: { id: number | null; onClose: () => void; onChanged?: () => void }) {
  const invalidate = useInvalidate();
  const { result: ticket, query } = useOne<TicketWithReplies, HttpError>({
    resource: 'tickets',
    id: id ?? '',
    queryOptions: { enabled: id !== null, retry: false },
    errorNotification: false,
  });
  const { mutate: update, mutation } = useUpdate();

  // Opening read it: the list and the counters show that now.
  const loadedId = query.isSuccess ? ticket?.id : undefined;
  useEffect(() => {
    if (loadedId === undefined) return;
    invalidate({ resource: 'tickets', invalidates: ['list'] });
    onChanged?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadedId, query.dataUpdatedAt]);

  const setStatus = (status: 'open' | 'closed') =>
    update(
      {
        resource: 'tickets',
        id: id!,
        values: { status },
        successNotification: () => ({ type: 'success', message: status === 'closed' ? TICKETS.closed : TICKETS.reopened }),
        errorNotification: errorNotification(TICKETS.updateFailed, { fields: true }),
      },
      { onSuccess: () => query.refetch() },
    );

  return (
    <Drawer open={id !== null} onClose={onClose} width={640} title={ticket && query.isSuccess ? ticket.subject : TICKETS.thread} destroyOnHidden>
      {query.isLoading && <Spin />}
      {query.isError && <Alert type="error" showIcon message={TICKETS.ticketLoadFailed} description={query.error?.message} />}
      {ticket && query.isSuccess && (
        <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="ticket-thread">
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label="Status">
              <TicketStatusTag status={ticket.status} />
            </Descriptions.Item>
            <Descriptions.Item label="Priority">
              <PriorityTag priority={ticket.priority} />
            </Descriptions.Item>
            <Descriptions.Item label="Category">{ticket.category?.name ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Opened">{dateTime(ticket.created_at)}</Descriptions.Item>
            <Descriptions.Item label="By" span={2}>
              {ticket.user.name} ({ticket.user.username}) <RoleBadge role={ticket.user.role} />
            </Descriptions.Item>
          </Descriptions>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{ticket.message}</Typography.Paragraph>
          <div>
            <Typography.Title level={5}>{TICKETS.thread}</Typography.Title>
            {ticket.replies.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={TICKETS.noReplies} />
            ) : (
              <List
                dataSource={ticket.replies}
                renderItem={(r) => (
                  <List.Item data-testid="ticket-reply" style={{ justifyContent: r.is_staff ? 'flex-start' : 'flex-end' }}>
                    <List.Item.Meta
                      avatar={<Avatar style={{ background: r.is_staff ? '#1677ff' : '#52c41a' }}>{r.user.name.charAt(0).toUpperCase()}</Avatar>}
                      title={
                        <Space wrap size={4}>
                          <span>{r.user.name}</span>
                          <RoleBadge role={r.user.role} />
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {dateTime(r.created_at)}
                          </Typography.Text>
                        </Space>
                      }
                      description={<span style={{ whiteSpace: 'pre-wrap' }}>{r.message}</span>}
                    />
                  </List.Item>
                )}
              />
            )}
          </div>
          {ticket.status === 'open' ? (
            <>
              <ReplyBox ticketId={ticket.id} onSent={() => query.refetch()} />
              <Button icon={<CheckCircleOutlined />} onClick={() => setStatus('closed')} loading={mutation.isPending}>
                {TICKETS.close}
              </Button>
            </>
          ) : (
            <Space direction="vertical">
              <Alert type="info" showIcon message={TICKETS.closedNoReply} />
              <Button icon={<RedoOutlined />} onClick={() => setStatus('open')} loading={mutation.isPending}>
                {TICKETS.reopen}
              </Button>
            </Space>
          )}
        </Space>
      )}
    </Drawer>
  );
}
