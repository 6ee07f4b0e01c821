/** How announcements look in every list: type colours, priority tags, the 'Expiring Soon' and 'new' badges. */
import { Tag } from 'antd';
import { ANNOUNCEMENT_FORM, ANNOUNCEMENT_PRIORITIES, ANNOUNCEMENT_ROLES, ANNOUNCEMENT_TYPES, type AnnouncementPriority, type AnnouncementType } from '../../contract';

export const TYPE_ALERT: Record<AnnouncementType, 'info' | 'warning' | 'success' | 'error'> = { info: 'info', warning: 'warning', success: 'success', error: 'error' };
const PRIORITY_COLOR: Record<AnnouncementPriority, string | undefined> = { low: undefined, medium: 'blue', high: 'orange', urgent: 'red' };

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function AnnouncementPriorityTag({ priority }: { priority: AnnouncementPriority }) {
  return <Tag color={PRIORITY_COLOR[priority]}>{capitalise(priority)}</Tag>;
}

export function AnnouncementTypeTag({ type }: { type: AnnouncementType }) {
  const color = type === 'info' ? 'blue' : type === 'error' ? 'red' : type === 'warning' ? 'gold' : 'green';
  return <Tag color={color}>{capitalise(type)}</Tag>;
}

export function ExpiringSoonTag() {
  return (
    <Tag color="volcano" data-testid="expiring-soon">
      {ANNOUNCEMENT_FORM.expiringSoon}
    </Tag>
  );
}

export function NewTag() {
  return (
    <Tag color="magenta" data-testid="new-badge">
      {ANNOUNCEMENT_FORM.newBadge}
    </Tag>
  );
}

export const typeOptions = ANNOUNCEMENT_TYPES.map((t) => ({ label: capitalise(t), value: t }));
export const priorityOptions = ANNOUNCEMENT_PRIORITIES.map((p) => ({ label: capitalise(p), value: p }));
export const roleOptions = ANNOUNCEMENT_ROLES.map((r) => ({ label: capitalise(r), value: r }));
