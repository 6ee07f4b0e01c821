/**
 * The months of a purchase or a renewal, the same in every form: the common choices 1, 3, 6 and 12
 * as buttons, and a free whole number within the contract's months (1 to 50). The number box carries
 * the field's id, so the label names it; the rule and its message stay the form's schema (a number
 * outside the range is kept as typed, for the schema to say why it is refused).
 */
import { InputNumber, Radio, Space } from 'antd';
import type { Ref } from 'react';
import { RENEW_MONTHS, plural } from '../../contract';

export const MONTH_PRESETS = [1, 3, 6, 12] as const;

export interface MonthsInputProps {
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** From the form field: the id its label points at, the touched state, focus on an error. */
  id?: string;
  onBlur?: () => void;
  ref?: Ref<unknown>;
  'aria-invalid'?: boolean;
  disabled?: boolean;
  min?: number;
  max?: number;
}

export function MonthsInput({ value, onChange, id, onBlur, ref, 'aria-invalid': invalid, disabled, min = RENEW_MONTHS.min, max = RENEW_MONTHS.max }: MonthsInputProps) {
  const presets = MONTH_PRESETS.filter((m) => m >= min && m <= max);
  const preset = typeof value === 'number' && (presets as number[]).includes(value) ? value : undefined;
  return (
    <Space wrap size={8} style={{ width: '100%' }}>
      <Radio.Group
        optionType="button"
        aria-label="Common choices"
        disabled={disabled}
        value={preset}
        onChange={(e) => onChange?.(e.target.value as number)}
        options={presets.map((m) => ({ value: m, label: plural(m, 'month') }))}
      />
      <InputNumber
        id={id}
        ref={ref as never}
        aria-label="Months"
        aria-invalid={invalid}
        disabled={disabled}
        precision={0}
        value={value ?? null}
        onChange={(v) => onChange?.(typeof v === 'number' ? v : null)}
        onBlur={onBlur}
        style={{ width: 96 }}
      />
    </Space>
  );
}
