/**
 * Reading the figures the database keeps per user, month and day (migration 0013) over a time range,
 * exactly: the whole months inside the range from the 'month' tallies, the whole days left at its
 * edges from the 'day' tallies, and the parts of its first and last day from the rows themselves (an
 * index range of at most two days). Timestamps compare as text, as everywhere (ISO-8601 UTC), and a
 * row's day and month are the first 10 and 7 characters of its timestamp, as the triggers take them.
 */
import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';

export interface Bound {
  at: string;
  inclusive: boolean;
}

export interface Spans {
  /** Parts of single days, read from the rows. */
  rows: Array<{ from: Bound; to: Bound }>;
  /** Whole days, first and last 'YYYY-MM-DD' included. */
  days: Array<[string, string]>;
  /** Whole months, first and last 'YYYY-MM' included (null: no end). */
  months: Array<[string, string | null]>;
}

const DAY = 86_400_000;
const dayAfter = (day: string, n = 1) => new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY).toISOString().slice(0, 10);
const lastOfMonth = (day: string) => {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00.000Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return dayAfter(d.toISOString().slice(0, 10), -1);
};

/** The range from `from` to `to` (no end when null) in rows, days and months. */
export function spansOf(from: Bound, to: Bound | null): Spans {
  const spans: Spans = { rows: [], days: [], months: [] };
  const first = from.at.slice(0, 10);
  if (to && to.at.slice(0, 10) === first) {
    if (to.at > from.at || (to.at === from.at && to.inclusive && from.inclusive)) spans.rows.push({ from, to });
    return spans;
  }
  if (to && to.at < from.at) return spans;
  // Every timestamp of day D sorts at or after 'D' and before the next day's 'D+1'.
  spans.rows.push({ from, to: { at: dayAfter(first), inclusive: false } });
  const last = to ? to.at.slice(0, 10) : null;
  if (to && last) spans.rows.push({ from: { at: last, inclusive: true }, to });

  let start = dayAfter(first);
  const end = last === null ? null : dayAfter(last, -1);
  if (end !== null && end < start) return spans;
  if (!start.endsWith('-01')) {
    const monthEnd = lastOfMonth(start);
    if (end !== null && end <= monthEnd) {
      spans.days.push([start, end]);
      return spans;
    }
    spans.days.push([start, monthEnd]);
    start = dayAfter(monthEnd);
  }
  if (end === null) {
    spans.months.push([start.slice(0, 7), null]);
    return spans;
  }
  if (end < start) return spans;
  if (end === lastOfMonth(end)) {
    spans.months.push([start.slice(0, 7), end.slice(0, 7)]);
    return spans;
  }
  const endMonthStart = `${end.slice(0, 7)}-01`;
  if (endMonthStart > start) spans.months.push([start.slice(0, 7), new Date(Date.parse(`${endMonthStart}T00:00:00.000Z`) - DAY).toISOString().slice(0, 7)]);
  spans.days.push([endMonthStart, end]);
  return spans;
}

const never = sql<SqlBool>`1 = 0`;

/** The rows of `column` in the spans' row parts (none: no row). */
export function rowsIn(column: string, spans: Spans) {
  return (eb: ExpressionBuilder<any, any>) =>
    spans.rows.length === 0
      ? never
      : eb.or(
          spans.rows.map((r) =>
            eb.and([eb(column, r.from.inclusive ? '>=' : '>', r.from.at), eb(column, r.to.inclusive ? '<=' : '<', r.to.at)]),
          ),
        );
}

/**
 * The tally rows (alias `t`) of the spans' whole days and months; `prefix` names the kinds
 * ('' for 'day'/'month', 'created_' for 'created_day'/'created_month').
 */
export function bucketsIn(spans: Spans, prefix = '') {
  return (eb: ExpressionBuilder<any, any>) => {
    const parts = [
      ...spans.days.map(([a, b]) => eb.and([eb('t.kind', '=', `${prefix}day`), eb('t.bucket', '>=', a), eb('t.bucket', '<=', b)])),
      ...spans.months.map(([a, b]) =>
        eb.and([eb('t.kind', '=', `${prefix}month`), eb('t.bucket', '>=', a), ...(b === null ? [] : [eb('t.bucket', '<=', b)])]),
      ),
    ];
    return parts.length === 0 ? never : eb.or(parts);
  };
}

/** A tally bucket's or a timestamp's month, 'YYYY-MM'. */
export const monthOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 7)`;
