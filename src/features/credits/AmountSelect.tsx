/**
 * The amount picker of the credit dialogs and the create forms: the configured amounts, apart from
 * them the amounts computed from a balance (named: '25% of your balance'), and a typed amount.
 *
 * A typed whole number is the amount, exactly: it is the first (active) item, so Enter, Tab or
 * leaving the field takes it, and the form's rules refuse it under the field when it breaks them. The
 * picker never swaps it for an option whose text contains the digits (5 is not '25 credits'). Other
 * text searches the labels without choosing any: an option is taken only by a click or the arrows.
 */
import { Select } from 'antd';
import { type Ref, useMemo, useRef, useState } from 'react';
import type { CreditAmountRules, CreditOption } from '../../contract';
import { plural } from '../../contract';

export interface AmountSelectProps {
  options: CreditOption[];
  /** A typed whole number is the amount even when no option offers it (the form's rules judge it). */
  allowCustom?: boolean;
  /** A typed amount with its bonus, named as the offered ones are (undefined: its bonus is unknown). */
  quote?: (amount: number) => CreditOption | undefined;
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

/** Digits only, up to 15 (every such number is exact in a double). */
const typedNumber = (text: string): number | null => (/^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : null);

const amountLabel = (v: number) => plural(v, 'credit');

/** The rules of a typed amount as the field's help says them. */
export function rangeHint(rules?: Pick<CreditAmountRules, 'min' | 'max' | 'step'>): string {
  const min = Math.max(1, rules?.min ?? 1);
  const step = rules?.step && rules.step > 1 ? ` in steps of ${rules.step}` : '';
  if (rules?.max === undefined) return min > 1 ? `Type ${min} credits or more${step}` : `Type any whole number of credits${step}`;
  return `Type ${min} to ${rules.max} credits${step}`;
}

type Item = { value: number; label: string };
type Group = { label: string; title: string; options: Item[] };

export function AmountSelect({
  options,
  allowCustom = false,
  quote,
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
  // What is in the box now, for the blur handler (the select clears its search when it closes).
  const searchRef = useRef('');
  const setSearchText = (text: string) => {
    searchRef.current = text;
    setSearch(text);
  };

  const labelOf = useMemo(() => {
    const labels = new Map(options.map((o) => [o.value, o.share ? `${o.display_text} (${o.share})` : o.display_text]));
    return (v: number) => labels.get(v) ?? quote?.(v)?.display_text ?? amountLabel(v);
  }, [options, quote]);
  /** The amount a search stands for: a typed number, when it may be chosen (offered, or any with allowCustom). */
  const typedAmount = (text: string) => {
    const n = typedNumber(text);
    return n !== null && (allowCustom || options.some((o) => o.value === n)) ? n : null;
  };
  const typed = typedAmount(search);

  const items = useMemo((): (Item | Group)[] => {
    const item = (v: number): Item => ({ value: v, label: labelOf(v) });
    if (typedNumber(search) !== null) {
      // A number: itself first, then the offered amounts it begins (a click or the arrows pick those);
      // nothing when it may not be chosen, so that no other amount can be taken in its place.
      if (typed === null) return [];
      const digits = search.trim();
      const others = options.filter((o) => o.value !== typed && String(o.value).startsWith(digits)).map((o) => item(o.value));
      return [item(typed), ...others];
    }
    const query = search.trim().toLowerCase();
    const matches = (o: CreditOption) => query === '' || labelOf(o.value).toLowerCase().includes(query);
    const configured = options.filter((o) => !o.share && matches(o)).map((o) => item(o.value));
    const shares = options.filter((o) => o.share && matches(o)).map((o) => item(o.value));
    // A value chosen earlier that no option offers (a typed amount) stays selectable.
    const chosen = query === '' && typeof value === 'number' && !options.some((o) => o.value === value) ? [item(value)] : [];
    if (shares.length === 0) return [...chosen, ...configured];
    return [
      ...chosen,
      ...(configured.length > 0 ? [{ label: 'Amounts', title: 'Amounts', options: configured }] : []),
      { label: 'From the balance', title: 'From the balance', options: shares },
    ];
  }, [options, search, typed, value, labelOf]);

  const choose = (v: number | undefined) => {
    setSearchText('');
    onChange?.(v);
  };

  return (
    <Select<number>
      id={id}
      ref={ref as never}
      onBlur={() => {
        // Leaving the field with a number typed takes that number (not the value picked before it).
        const left = typedAmount(searchRef.current);
        if (left !== null && left !== value) choose(left);
        onBlur?.();
      }}
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
      onSearch={setSearchText}
      onChange={(v) => choose(v ?? undefined)}
      filterOption={false}
      // Only a typed number is taken by Enter; a text search waits for a click or the arrows.
      defaultActiveFirstOption={typed !== null}
      notFoundContent={loading ? 'Loading...' : 'No amounts available'}
      style={{ width: '100%' }}
    />
  );
}
