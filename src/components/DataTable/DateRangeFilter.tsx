/** A list's date range filter (the picker loads with the first list that has one). */
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { DATE_FORMAT } from '../../contract';

export interface DateRangeValue {
  from: string;
  to: string;
}

export default function DateRangeFilter({ label, value, onChange }: { label: string; value: DateRangeValue | null; onChange: (value: DateRangeValue | null) => void }) {
  return (
    <DatePicker.RangePicker
      aria-label={label}
      className="data-table-range"
      value={value ? [dayjs(value.from), dayjs(value.to)] : null}
      format={DATE_FORMAT}
      disabledDate={(d: Dayjs) => d.isAfter(dayjs().endOf('day'))}
      onChange={(v) => onChange(v?.[0] && v[1] ? { from: v[0].format(DATE_FORMAT), to: v[1].format(DATE_FORMAT) } : null)}
    />
  );
}
