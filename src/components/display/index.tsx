/** Small renderers shared by every table: status tags, dates in 24-hour time, role badges. */
import { Tag } from 'antd';
import dayjs from 'dayjs';
import { DATETIME_FORMAT, DATE_FORMAT, ROLE_BADGE_COLOR, isRole } from '../../contract';

export const dateTime = (value: string | null | undefined) => (value ? dayjs(value).format(DATETIME_FORMAT) : '—');
export const dateOnly = (value: string | null | undefined) => (value ? dayjs(value).format(DATE_FORMAT) : '—');

export function ActiveTag({ active, labels = ['Active', 'Inactive'] }: { active: boolean; labels?: [string, string] }) {
  return <Tag color={active ? 'green' : 'default'}>{active ? labels[0] : labels[1]}</Tag>;
}

export function StatusTag({ status }: { status: string }) {
  const color = status === 'active' || status === 'online' || status === 'open' ? 'green' : status === 'suspended' || status === 'offline' ? 'red' : 'default';
  return <Tag color={color}>{status.charAt(0).toUpperCase() + status.slice(1)}</Tag>;
}

export function RoleBadge({ role }: { role: string }) {
  const color = isRole(role) ? ROLE_BADGE_COLOR[role] : undefined;
  return (
    <Tag color={color} style={role === 'admin' || role === 'manager' ? undefined : { opacity: 0.75 }}>
      {role}
    </Tag>
  );
}

export const activeOptions = [
  { label: 'Active', value: 'true' },
  { label: 'Inactive', value: 'false' },
];
