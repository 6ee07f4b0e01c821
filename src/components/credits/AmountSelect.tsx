/** The amount picker of the credit dialogs: the offered options, and for admin any typed amount. */
import { Select } from 'antd';
import { type Ref, useMemo, useState } from 'react';
import type { CreditOption } from '../../contract';

export interface AmountSelectProps {
  options: CreditOption[];
  /** Admin may pick any amount (spec 6): a typed whole number becomes an option. */
  allowCustom?: boolean;
  loading?: boolean;
  disabled?: boolean;
  value?: number;
  onChange?: (value: number | undefined) => void;
  placeholder?: string;
  /** From the form field: the id its label points at, the touched state, focus on an error. */
  id?: string;
  onBlur?: () => void;
  ref?: Ref<unknown>;
  'aria-invalid'?: boolean;
}

const asAmount = (text: string): number | null => (/^\d{1,7}$/.test(text.trim()) && Number(text) > 0 ? Number(text) : null);

export function AmountSelect({
  options,
  allowCustom = false,
  loading,
  disabled,
  value,
  onChange,
  placeholder = 'Select an amount',
  id,
  onBlur,
  ref,
  'aria-invalid': invalid,
}: AmountSelectProps) {
  const [search, setSearch] = useState('');
  const typed = allowCustom ? asAmount(search) : null;
  const items = useMemo(() => {
    const known = new Set(options.map((o) => o.value));
    const extra = [typed, value].filter((v): v is number => typeof v === 'number' && !known.has(v));
    return [
      ...[...new Set(extra)].map((v) => ({ value: v, label: `${v} credits` })),
      ...options.map((o) => ({ value: o.value, label: o.display_text })),
    ];
  }, [options, typed, value]);

  return (
    <Select<number>
      id={id}
      ref={ref as never}
      onBlur={onBlur}
      aria-invalid={invalid}
      showSearch
      allowClear
      aria-label="Amount"
      placeholder={allowCustom ? `${placeholder} or type one` : placeholder}
      loading={loading}
      disabled={disabled}
      value={value}
      options={items}
      searchValue={search}
      onSearch={setSearch}
      onChange={(v) => {
        setSearch('');
        onChange?.(v ?? undefined);
      }}
      filterOption={(input, option) =>
        option?.value === typed || String(option?.label ?? '').toLowerCase().includes(input.trim().toLowerCase())
      }
      notFoundContent={loading ? 'Loading...' : 'No amounts available'}
      style={{ width: '100%' }}
    />
  );
}
