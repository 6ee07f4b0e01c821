/** Picks a manager or a reseller (50 per page, searchable): the parent of a reseller or a dealer. */
import { useSelect } from '@refinedev/antd';
import { Select, type SelectProps } from 'antd';
import type { HierarchyUser } from '../../contract';

export interface UserPickerProps {
  resource: 'managers' | 'resellers';
  value?: number;
  onChange?: (value: number | undefined, user?: HierarchyUser) => void;
  placeholder?: string;
  disabled?: boolean;
}

export function UserPicker({ resource, value, onChange, placeholder, disabled }: UserPickerProps) {
  const { selectProps, query } = useSelect<HierarchyUser>({
    resource,
    optionLabel: (u) => `${u.name} (${u.username})`,
    optionValue: (u) => u.id as never,
    pagination: { pageSize: 50, mode: 'server' },
    filters: [{ field: 'is_active', operator: 'eq', value: 'true' }],
    onSearch: (text) => [{ field: 'search', operator: 'contains', value: text }],
    defaultValue: value,
    errorNotification: false,
  });
  const rows = query.data?.data ?? [];
  return (
    <Select<number>
      {...(selectProps as SelectProps<number>)}
      aria-label={resource === 'managers' ? 'Manager' : 'Reseller'}
      allowClear
      disabled={disabled}
      value={value}
      placeholder={placeholder}
      onChange={(v) => onChange?.(v ?? undefined, rows.find((u) => u.id === v))}
      style={{ width: '100%' }}
    />
  );
}
