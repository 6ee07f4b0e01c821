/** Picks a manager or a reseller (50 per page, searchable): the parent of a reseller or a dealer. */
import { useSelect } from '@refinedev/antd';
import { Select, type SelectProps } from 'antd';
import type { HierarchyUser } from '../../contract';
import { nameWithUsername } from '../../contract';

export interface UserPickerProps {
  resource: 'managers' | 'resellers';
  id?: string;
  value?: number | null;
  onChange?: (value: number | undefined) => void;
  onBlur?: () => void;
  /** The picked user itself (its server, for the options that depend on it). */
  onPick?: (user: HierarchyUser | undefined) => void;
  placeholder?: string;
  disabled?: boolean;
  'aria-invalid'?: boolean;
}

export function UserPicker({ resource, id, value, onChange, onBlur, onPick, placeholder, disabled, 'aria-invalid': invalid }: UserPickerProps) {
  const { selectProps, query } = useSelect<HierarchyUser>({
    resource,
    optionLabel: (u) => nameWithUsername(u.name, u.username),
    optionValue: (u) => u.id as never,
    pagination: { pageSize: 50, mode: 'server' },
    filters: [{ field: 'is_active', operator: 'eq', value: 'true' }],
    onSearch: (text) => [{ field: 'search', operator: 'contains', value: text }],
    defaultValue: value ?? undefined,
    errorNotification: false,
  });
  const rows = query.data?.data ?? [];
  return (
    <Select<number>
      {...(selectProps as SelectProps<number>)}
      id={id}
      aria-label={resource === 'managers' ? 'Manager' : 'Reseller'}
      aria-invalid={invalid}
      allowClear
      disabled={disabled}
      value={value ?? undefined}
      placeholder={placeholder}
      onChange={(v) => {
        onChange?.(v ?? undefined);
        onPick?.(rows.find((u) => u.id === v));
      }}
      onBlur={onBlur}
      style={{ width: '100%' }}
    />
  );
}
