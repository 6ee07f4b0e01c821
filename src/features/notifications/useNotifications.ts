/**
 * The caller's notifications over the API: a page of them with the unread count, and the calls that
 * mark one or all read. Marking refreshes every view of them (the page, the header's count).
 */
import { type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import type { AppNotification, Delivery } from '../../contract';

export interface NotificationPage {
  data: AppNotification[];
  meta: { total: number; current_page: number; per_page: number };
  unread_count: number;
}

const KEY = 'notifications';

export function useNotificationList(page: number, perPage: number, unreadOnly: boolean) {
  return useCustom<NotificationPage>({
    url: 'notifications',
    method: 'get',
    config: { query: { page, per_page: perPage, ...(unreadOnly ? { unread: 'true' } : {}) } },
    queryOptions: { queryKey: [KEY, 'list', page, perPage, unreadOnly], retry: false },
    errorNotification: false,
  });
}

export function useUnreadNotifications(enabled = true) {
  const query = useCustom<{ unread_count: number }>({
    url: 'notifications/unread-count',
    method: 'get',
    queryOptions: { queryKey: [KEY, 'unread'], enabled, retry: false },
    errorNotification: false,
  });
  return query.query.isError ? 0 : (query.result?.data?.unread_count ?? 0);
}

/** The caller's latest deliveries (the API answers the last hundred). */
export function useDeliveryLog() {
  return useCustom<{ data: Delivery[] }>({
    url: 'notifications/deliveries',
    method: 'get',
    queryOptions: { queryKey: [KEY, 'deliveries'], retry: false },
    errorNotification: false,
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  const { mutateAsync } = useCustomMutation<{ message: string }, HttpError>();
  const post = async (url: string) => {
    const { data } = await mutateAsync({ url, method: 'post', values: {}, successNotification: false, errorNotification: false });
    await client.invalidateQueries({ queryKey: [KEY] });
    return data.message;
  };
  return { markRead: (id: number) => post(`notifications/${id}/read`), markAllRead: () => post('notifications/read-all') };
}
