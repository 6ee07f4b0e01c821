/** What the ticket screens share: priority and status tags, the category options. */
import { useCustom } from '@refinedev/core';
import { Tag } from 'antd';
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketCategory, type TicketPriority, type TicketStatus } from '../../contract';

const PRIORITY_COLOR: Record<TicketPriority, string | undefined> = { low: undefined, medium: 'blue', high: 'orange', urgent: 'red' };

export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function PriorityTag({ priority }: { priority: TicketPriority }) {
  return <Tag color={PRIORITY_COLOR[priority]}>{capitalise(priority)}</Tag>;
}

export function TicketStatusTag({ status }: { status: TicketStatus }) {
  return <Tag color={status === 'open' ? 'green' : 'default'}>{capitalise(status)}</Tag>;
}

export const priorityOptions = TICKET_PRIORITIES.map((p) => ({ label: capitalise(p), value: p }));
export const statusOptions = TICKET_STATUSES.map((s) => ({ label: capitalise(s), value: s }));

/** The active categories every role picks from (GET /tickets-categories). */
export function useTicketCategories() {
  const { result, query } = useCustom<{ data: TicketCategory[] }>({ url: 'tickets-categories', method: 'get', errorNotification: false });
  const categories = result?.data?.data ?? [];
  return { categories, options: categories.map((c) => ({ label: c.name, value: c.id })), loading: query.isLoading };
}
