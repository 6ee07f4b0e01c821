/**
 * Reading the figures the database keeps per user, month and day (migration 0013) over a time range,
 * exactly: the whole months inside the range from the 'month' tallies, the whole days left at its
 * edges from the 'day' tallies, and the parts of its first and last day from the rows themselves (an
 * index range of at most two days). Timestamps compare as text, as everywhere (ISO-8601 UTC), and a
 * row's day and month are the first 10 and 7 characters of its timestamp, as the triggers take them.
 */
import { type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from './schema';

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
  /** Whole days to take back out of those months (most of a month is its month less a few days). */
  minusDays: Array<[string, string]>;
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
  const spans: Spans = { rows: [], days: [], months: [], minusDays: [] };
  // Days a..b of one month: by day, or as the month less the days around them, whichever reads fewer.
  const partOfMonth = (a: string, b: string) => {
    const first = `${a.slice(0, 7)}-01`;
    const last = lastOfMonth(a);
    const around = (Date.parse(a) - Date.parse(first) + Date.parse(last) - Date.parse(b)) / DAY;
    if (around + 1 >= (Date.parse(b) - Date.parse(a)) / DAY + 1) {
      spans.days.push([a, b]);
      return;
    }
    spans.months.push([a.slice(0, 7), a.slice(0, 7)]);
    if (a > first) spans.minusDays.push([first, dayAfter(a, -1)]);
    if (b < last) spans.minusDays.push([dayAfter(b), last]);
  };
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
      partOfMonth(start, end);
      return spans;
    }
    partOfMonth(start, monthEnd);
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
  partOfMonth(endMonthStart, end);
  return spans;
}

const never = sql<SqlBool>`1 = 0`;

/** The rows of `column` in the spans' row parts (none: no row). */
export function rowsIn(column: string, spans: Spans) {
  return (eb: ExpressionBuilder<any, any>) =>
    spans.rows.length === 0
      ? never
      : eb.or(spans.rows.map((r) => eb.and([eb(column, r.from.inclusive ? '>=' : '>', r.from.at), eb(column, r.to.inclusive ? '<=' : '<', r.to.at)])));
}

/** One index range of tally rows, and whether its figures add (1) or are taken back (-1). */
export interface Part {
  where: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>;
  sign: 1 | -1;
}

/**
 * The tally rows (alias `t`) of the spans' days and months, one part per index range; `prefix` names
 * the kinds: '' for 'day'/'month', 'created_' for 'created_day'/'created_month' and so on.
 */
export function bucketParts(spans: Spans, prefix = ''): Part[] {
  const days =
    (sign: 1 | -1) =>
    ([a, b]: [string, string]): Part => ({
      where: (eb) => eb.and([eb('t.kind', '=', `${prefix}day`), eb('t.bucket', '>=', a), eb('t.bucket', '<=', b)]),
      sign,
    });
  return [
    ...spans.days.map(days(1)),
    ...spans.months.map(([a, b]): Part => ({
      where: (eb) => eb.and([eb('t.kind', '=', `${prefix}month`), eb('t.bucket', '>=', a), ...(b === null ? [] : [eb('t.bucket', '<=', b)])]),
      sign: 1,
    })),
    ...spans.minusDays.map(days(-1)),
  ];
}

/** A tally column as a part counts it: as is, or taken back. */
export const signed = (part: Part, column: string) => (part.sign === 1 ? sql<number>`${sql.ref(column)}` : sql<number>`-${sql.ref(column)}`);

/**
 * One select per part, as a UNION ALL to aggregate over: each part is one range of an index (by
 * bucket for everyone's rows, by user for a subtree's), where an OR of the parts made SQLite read
 * all of each user's tally rows.
 */
export function eachPart<O>(parts: Part[], select: (part: Part) => SelectQueryBuilder<any, any, O>): SelectQueryBuilder<any, any, O> {
  const queries = (parts.length ? parts : [{ where: () => never, sign: 1 as const }]).map(select);
  return queries.slice(1).reduce((all, q) => all.unionAll(q), queries[0]);
}

/** A tally bucket's or a timestamp's month, 'YYYY-MM'. */
export const monthOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 7)`;

type Counted = Record<string, unknown> & { key: number; bucket: string };

/**
 * Where the kept tallies differ from a recount of the rows they count (empty when they agree): for
 * tests and for seed:scale's check. Tally rows whose figures are all 0 count as absent.
 */
export async function tallyProblems(db: Kysely<Database>): Promise<string[]> {
  const problems: string[] = [];
  const compare = (table: string, kind: string, figures: string[], kept: Counted[], counted: Counted[]) => {
    const line = (r: Counted) => figures.map((f) => Number(r[f] ?? 0)).join(',');
    const want = new Map(counted.map((r) => [`${r.key} ${r.bucket}`, line(r)]));
    for (const r of kept) {
      const key = `${r.key} ${r.bucket}`;
      const have = line(r);
      const expected = want.get(key) ?? figures.map(() => 0).join(',');
      if (have !== expected) problems.push(`${table} ${kind} ${key}: kept ${have}, counted ${expected}`);
      want.delete(key);
    }
    for (const [key, expected] of want) problems.push(`${table} ${kind} ${key}: kept nothing, counted ${expected}`);
  };

  const accounts = () => db.selectFrom('accounts');
  const live = () => accounts().where('deleted_at', 'is', null);
  const activeSum = sql<number>`sum(case when status = 'active' then 1 else 0 end)`;
  const accountKinds: Array<[string, () => Promise<Counted[]>]> = [
    [
      'all',
      () =>
        live()
          .select(['owner_id as key', sql<string>`''`.as('bucket'), sql<number>`count(*)`.as('n'), activeSum.as('active')])
          .groupBy('owner_id')
          .execute(),
    ],
    [
      'none',
      () =>
        live()
          .where('expiry_date', 'is', null)
          .select(['owner_id as key', sql<string>`''`.as('bucket'), sql<number>`count(*)`.as('n'), activeSum.as('active')])
          .groupBy('owner_id')
          .execute(),
    ],
    ...(['month', 'day'] as const).map((kind): [string, () => Promise<Counted[]>] => {
      const bucket = sql<string>`substr(expiry_date, 1, ${sql.lit(kind === 'month' ? 7 : 10)})`;
      return [
        kind,
        () =>
          live()
            .where('expiry_date', 'is not', null)
            .select(['owner_id as key', bucket.as('bucket'), sql<number>`count(*)`.as('n'), activeSum.as('active')])
            .groupBy(['owner_id', bucket])
            .execute(),
      ];
    }),
    ...(['created_month', 'created_day'] as const).map((kind): [string, () => Promise<Counted[]>] => {
      const bucket = sql<string>`substr(created_at, 1, ${sql.lit(kind === 'created_month' ? 7 : 10)})`;
      return [
        kind,
        () =>
          accounts()
            .select(['owner_id as key', bucket.as('bucket'), sql<number>`count(*)`.as('n'), sql<number>`0`.as('active')])
            .groupBy(['owner_id', bucket])
            .execute(),
      ];
    }),
  ];
  for (const [kind, recount] of accountKinds) {
    const kept = await db
      .selectFrom('account_tallies')
      .select(['owner_id as key', 'bucket', 'n', 'active'])
      .where('kind', '=', kind)
      .where((eb) => eb.or([eb('n', '!=', 0), eb('active', '!=', 0)]))
      .execute();
    compare('account_tallies', kind, ['n', 'active'], kept, await recount());
  }

  const figures = ['purchased', 'purchased_entries', 'purchased_other', 'spent', 'spent_entries', 'renewals', 'renewal_credits'] as const;
  for (const kind of ['purchased_month', 'purchased_day', 'used_month', 'used_day'] as const) {
    const bucket = sql<string>`substr(created_at, 1, ${sql.lit(kind.endsWith('month') ? 7 : 10)})`;
    const counted = await db
      .selectFrom('credit_transactions')
      .where('type', '=', kind.startsWith('purchased') ? 'PURCHASED' : 'USED')
      .select([
        'user_id as key',
        bucket.as('bucket'),
        sql<number>`sum(case when type = 'PURCHASED' and credits > 0 then credits else 0 end)`.as('purchased'),
        sql<number>`sum(case when type = 'PURCHASED' and credits > 0 then 1 else 0 end)`.as('purchased_entries'),
        sql<number>`sum(case when type = 'PURCHASED' and credits <= 0 then credits else 0 end)`.as('purchased_other'),
        sql<number>`sum(case when type = 'USED' then -credits else 0 end)`.as('spent'),
        sql<number>`sum(case when type = 'USED' then 1 else 0 end)`.as('spent_entries'),
        sql<number>`sum(case when type = 'USED' and account_id is not null then 1 else 0 end)`.as('renewals'),
        sql<number>`sum(case when type = 'USED' and account_id is not null then -credits else 0 end)`.as('renewal_credits'),
      ])
      .groupBy(['user_id', bucket])
      .execute();
    const kept = await db
      .selectFrom('ledger_tallies')
      .select(['user_id as key', 'bucket', ...figures])
      .where('kind', '=', kind)
      .where((eb) => eb.or(figures.map((f) => eb(f, '!=', 0))))
      .execute();
    // An entry of 0 credits adds a group of zeros to the recount and nothing to the kept rows.
    const nonZero = counted.filter((r) => figures.some((f) => Number(r[f]) !== 0));
    compare('ledger_tallies', kind, [...figures], kept, nonZero);
  }
  return problems;
}
