/**
 * The amount picker of the credit dialogs: the configured amounts, apart from them the amounts
 * computed from a balance (named: '25% of your balance'), and a typed amount within the rules
 * (`range`: the minimum, the maximum, a multiple of the step).
 */
import { Select } from 'antd';
import { type Ref, useMemo, useState } from 'react';
import type { CreditOption } from '../../contract';

export interface AmountSelectProps {
  options: CreditOption[];
  /** A typed whole number within `range` becomes an option. */
  allowCustom?: boolean;
  /** The rules of a typed amount (no max: any; admin holds no balance). */
  range?: AmountRange;
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

export interface AmountRange {
  min: number;
  max?: number;
  step?: number;
}

const asAmount = (text: string): number | null => (/^\d{1,7}$/.test(text.trim()) && Number(text) > 0 ? Number(text) : null);

const within = (v: number, range?: AmountRange) =>
  !range || (v >= range.min && (range.max === undefined || v <= range.max) && v % Math.max(1, range.step ?? 1) === 0);

/** What may be typed, as the picker says it when a typed amount is outside the rules. */
export function rangeHint(range?: AmountRange): string {
  if (!range) return 'Type a whole number of credits';
  const step = range.step && range.step > 1 ? ` in steps of ${range.step}` : '';
  return range.max === undefined ? `Type ${range.min} credits or more${step}` : `Type ${range.min} to ${range.max} credits${step}`;
}

export function AmountSelect({
  options,
  allowCustom = false,
  range,
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
  const typedNumber = allowCustom ? asAmount(search) : null;
  const typed = typedNumber !== null && within(typedNumber, range) ? typedNumber : null;
  const items = useMemo(() => {
    const known = new Set(options.map((o) => o.value));
    const extra = [typed, value].filter((v): v is number => typeof v === 'number' && !known.has(v));
    const configured = options.filter((o) => !o.share).map((o) => ({ value: o.value, label: o.display_text }));
    const shares = options.filter((o) => o.share).map((o) => ({ value: o.value, label: `${o.display_text} (${o.share})` }));
    const typedItems = [...new Set(extra)].map((v) => ({ value: v, label: `${v} credits` }));
    if (shares.length === 0) return [...typedItems, ...configured];
    return [
      ...typedItems,
      ...(configured.length > 0 ? [{ label: 'Amounts', title: 'Amounts', options: configured }] : []),
      { label: 'From the balance', title: 'From the balance', options: shares },
    ];
  }, [options, typed, value]);
  const notFound = loading
    ? 'Loading...'
    : allowCustom && search.trim() !== '' && typed === null
      ? rangeHint(range)
      : 'No amounts available';

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
      notFoundContent={notFound}
      style={{ width: '100%' }}
    />
  );
}
