/**
 * Analytics (admin): credits flowing down by role level, paid renewals and new accounts per month,
 * accounts expiring within 7/30/90 days, and the resellers and dealers who spend the most. Each
 * figure is one grouped query over an index (ledger entries by type and date, accounts by creation
 * and by expiry date), so it stays fast with a million accounts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  ANALYTICS,
  ANALYTICS_MAX_RANGE_DAYS,
  ANALYTICS_ROLES,
  AUDIT,
  EXPIRY_WINDOWS,
  FIELD_RULES,
  apiErrorBody,
  creditsFlowSchema,
  expiringSchema,
  parseCalendarDate,
  renewalsSchema,
  topUserSchema,
} from '../../src/contract';
import { type Spans, bucketParts, eachPart, monthOf, rowsIn, signed, spansOf } from '../db/tallies';
import { validationError } from '../http/errors';

const DAY = 86_400_000;

const date = (edge: 'start' | 'end') =>
  z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || !Number.isNaN(parseCalendarDate(v, edge)), FIELD_RULES.validDate);
const rangeQuery = z.object({ date_from: date('start'), date_to: date('end') });

/** The range asked for, or the last 12 months up to now, with the spans that read it. */
function rangeOf(q: { date_from?: string; date_to?: string }) {
  const now = Date.now();
  const toMs = q.date_to ? parseCalendarDate(q.date_to, 'end') : now;
  const fromMs = q.date_from ? parseCalendarDate(q.date_from, 'start') : toMs - 365 * DAY;
  if (toMs < fromMs) throw validationError({ date_to: AUDIT.dateRangeInvalid });
  if (toMs - fromMs > ANALYTICS_MAX_RANGE_DAYS * DAY) throw validationError({ date_from: ANALYTICS.rangeTooLong });
  const from = new Date(fromMs).toISOString();
  const to = new Date(toMs).toISOString();
  // Nothing is written after now: a later start reads nothing and a later end reads as no end, which
  // keeps the day and month arithmetic inside the calendar however far ahead the range reaches.
  const soon = now + DAY;
  const spans: Spans =
    fromMs > soon ? { rows: [], days: [], months: [], minusDays: [] } : spansOf({ at: from, inclusive: true }, toMs > soon ? null : { at: to, inclusive: true });
  return { from, to, spans };
}

/** Every month from `from` to `to`, 'YYYY-MM', so a chart has no gaps. */
function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  const [endYear, endMonth] = [Number(to.slice(0, 4)), Number(to.slice(5, 7))];
  for (
    let year = Number(from.slice(0, 4)), month = Number(from.slice(5, 7));
    year < endYear || (year === endYear && month <= endMonth);
    month === 12 ? ((month = 1), year++) : month++
  ) {
    months.push(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`);
  }
  return months;
}

const month = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 7)`;
const n = (v: unknown) => Number(v ?? 0);

const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const access = { access: ['analytics', 'list'] as const };
  const tags = ['analytics'];

  app.get(
    '/analytics/credits-flow',
    { config: access, schema: { querystring: rangeQuery, response: { 200: z.object({ data: creditsFlowSchema }), '4xx': apiErrorBody }, tags } },
    async (request) => {
      const { spans } = rangeOf(request.query);
      const [kept, edges] = await Promise.all([
        db
          .selectFrom(
            eachPart(bucketParts(spans, 'purchased_'), (part) =>
              db
                .selectFrom('ledger_tallies as t')
                .innerJoin('users as u', 'u.id', 't.user_id')
                .where(part.where)
                .where('t.purchased_entries', '>', 0)
                .where('u.role', 'in', [...ANALYTICS_ROLES])
                .select([
                  monthOf('t.bucket').as('period'),
                  'u.role',
                  signed(part, 't.purchased').as('purchased'),
                  signed(part, 't.purchased_entries').as('purchased_entries'),
                ]),
            ).as('p'),
          )
          .select(['p.period', 'p.role', sql<number>`sum(p.purchased)`.as('credits'), sql<number>`sum(p.purchased_entries)`.as('entries')])
          .groupBy(['p.period', 'p.role'])
          .execute(),
        db
          .selectFrom('credit_transactions as t')
          .innerJoin('users as u', 'u.id', 't.user_id')
          .where('t.type', '=', 'PURCHASED')
          .where(rowsIn('t.created_at', spans))
          .where('t.credits', '>', 0)
          .where('u.role', 'in', [...ANALYTICS_ROLES])
          .select([monthOf('t.created_at').as('period'), 'u.role', sql<number>`sum(t.credits)`.as('credits'), sql<number>`count(*)`.as('entries')])
          .groupBy([monthOf('t.created_at'), 'u.role'])
          .execute(),
      ]);
      const byKey = new Map<string, { period: string; role: string; credits: number; entries: number }>();
      for (const r of [...kept, ...edges]) {
        const key = `${r.period} ${r.role}`;
        const sum = byKey.get(key) ?? { period: r.period, role: r.role, credits: 0, entries: 0 };
        sum.credits += n(r.credits);
        sum.entries += n(r.entries);
        byKey.set(key, sum);
      }
      const rows = [...byKey.values()].sort((x, y) => (x.period === y.period ? (x.role < y.role ? -1 : x.role > y.role ? 1 : 0) : x.period < y.period ? -1 : 1));
      return { data: rows.map((r) => ({ period: r.period, role: r.role as (typeof ANALYTICS_ROLES)[number], credits: n(r.credits), entries: n(r.entries) })) };
    },
  );

  app.get(
    '/analytics/renewals',
    { config: access, schema: { querystring: rangeQuery, response: { 200: z.object({ data: renewalsSchema }), '4xx': apiErrorBody }, tags } },
    async (request) => {
      const { from, to, spans } = rangeOf(request.query);
      const [keptRenewals, edgeRenewals, keptCreated, edgeCreated] = await Promise.all([
        db
          .selectFrom(
            eachPart(bucketParts(spans, 'used_'), (part) =>
              db
                .selectFrom('ledger_tallies as t')
                .where(part.where)
                .select([monthOf('t.bucket').as('period'), signed(part, 't.renewals').as('renewals'), signed(part, 't.renewal_credits').as('renewal_credits')]),
            ).as('p'),
          )
          .select(['p.period', sql<number>`sum(p.renewals)`.as('renewals'), sql<number>`sum(p.renewal_credits)`.as('credits')])
          .groupBy('p.period')
          .execute(),
        db
          .selectFrom('credit_transactions as t')
          .where('t.type', '=', 'USED')
          .where(rowsIn('t.created_at', spans))
          .where('t.account_id', 'is not', null)
          .select([month('t.created_at').as('period'), sql<number>`count(*)`.as('renewals'), sql<number>`coalesce(sum(-t.credits), 0)`.as('credits')])
          .groupBy(month('t.created_at'))
          .execute(),
        db
          .selectFrom(
            eachPart(bucketParts(spans, 'created_'), (part) =>
              db
                .selectFrom('account_tallies as t')
                .where(part.where)
                .select([monthOf('t.bucket').as('period'), signed(part, 't.n').as('n')]),
            ).as('p'),
          )
          .select(['p.period', sql<number>`sum(p.n)`.as('n')])
          .groupBy('p.period')
          .execute(),
        db
          .selectFrom('accounts as a')
          .where(rowsIn('a.created_at', spans))
          .select([month('a.created_at').as('period'), sql<number>`count(*)`.as('n')])
          .groupBy(month('a.created_at'))
          .execute(),
      ]);
      const sum = <K extends string>(rows: Array<{ period: string } & Record<K, unknown>>, period: string, key: K) =>
        rows.filter((r) => r.period === period).reduce((total, r) => total + n(r[key]), 0);
      // Every month of the range, so the chart has no gaps.
      const periods = monthsOf(from, to);
      return {
        data: periods.map((period) => {
          const renewals = [...keptRenewals, ...edgeRenewals];
          return {
            period,
            renewals: sum(renewals, period, 'renewals'),
            credits: sum(renewals, period, 'credits'),
            new_accounts: sum([...keptCreated, ...edgeCreated], period, 'n'),
          };
        }),
      };
    },
  );

  app.get(
    '/analytics/expiring',
    {
      config: access,
      schema: {
        querystring: z.object({
          days: z.coerce
            .number()
            .int()
            .refine((d) => (EXPIRY_WINDOWS as readonly number[]).includes(d), `days must be one of ${EXPIRY_WINDOWS.join(', ')}`)
            .default(30),
          limit: z.coerce.number().int().min(1).max(1000).default(200),
        }),
        response: { 200: z.object({ data: expiringSchema }), '4xx': apiErrorBody },
        tags,
      },
    },
    async (request) => {
      const now = new Date().toISOString();
      const until = (days: number) => new Date(Date.now() + days * DAY).toISOString();
      const live = () => db.selectFrom('accounts as a').where('a.deleted_at', 'is', null).where('a.expiry_date', '>', now);
      // Each window from the kept counts per expiry day and month, its partial first and last days
      // from the rows.
      const windowCount = async (days: number) => {
        const spans = spansOf({ at: now, inclusive: false }, { at: until(days), inclusive: true });
        const [kept, edges] = await Promise.all([
          db
            .selectFrom(eachPart(bucketParts(spans), (part) => db.selectFrom('account_tallies as t').where(part.where).select(signed(part, 't.n').as('n'))).as('p'))
            .select(sql<number>`coalesce(sum(p.n), 0)`.as('n'))
            .executeTakeFirstOrThrow(),
          db
            .selectFrom('accounts as a')
            .where('a.deleted_at', 'is', null)
            .where(rowsIn('a.expiry_date', spans))
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow(),
        ]);
        return n(kept.n) + n(edges.n);
      };
      const [d7, d30, d90] = await Promise.all(EXPIRY_WINDOWS.map(windowCount));
      const counts = { d7, d30, d90 };
      const accounts = await live()
        .innerJoin('users as u', 'u.id', 'a.owner_id')
        .where('a.expiry_date', '<=', until(request.query.days))
        .select(['a.id', 'a.login', 'a.full_name', 'a.expiry_date', 'u.id as owner_id', 'u.username as owner_username', 'u.role as owner_role'])
        .orderBy('a.expiry_date')
        .orderBy('a.id')
        .limit(request.query.limit)
        .execute();
      return {
        data: {
          counts: { days_7: n(counts.d7), days_30: n(counts.d30), days_90: n(counts.d90) },
          accounts: accounts.map((a) => ({
            id: a.id,
            login: a.login,
            full_name: a.full_name,
            expiry_date: a.expiry_date as string,
            owner: { id: a.owner_id, username: a.owner_username, role: a.owner_role },
          })),
        },
      };
    },
  );

  app.get(
    '/analytics/top-users',
    {
      config: access,
      schema: {
        querystring: rangeQuery.extend({ role: z.enum(['reseller', 'dealer']), limit: z.coerce.number().int().min(1).max(100).default(10) }),
        response: { 200: z.object({ data: z.array(topUserSchema) }), '4xx': apiErrorBody },
        tags,
      },
    },
    async (request) => {
      const { spans } = rangeOf(request.query);
      const roleUsers = () => db.selectFrom('users').select('id').where('role', '=', request.query.role);
      // Each user's spending of the range: the kept sums plus the entries of the partial days.
      const [kept, edges] = await Promise.all([
        db
          .selectFrom(
            eachPart(bucketParts(spans, 'used_'), (part) =>
              db
                .selectFrom('ledger_tallies as t')
                .where(part.where)
                .where('t.spent_entries', '>', 0)
                .select([
                  't.user_id',
                  signed(part, 't.spent').as('spent'),
                  signed(part, 't.renewals').as('renewals'),
                  signed(part, 't.spent_entries').as('spent_entries'),
                ]),
            ).as('p'),
          )
          // The role's users as a set (a join looked up each of the tens of thousands of tally rows' users).
          .where('p.user_id', 'in', roleUsers())
          .select(['p.user_id', sql<number>`sum(p.spent)`.as('spent'), sql<number>`sum(p.renewals)`.as('renewals'), sql<number>`sum(p.spent_entries)`.as('entries')])
          .groupBy('p.user_id')
          .execute(),
        db
          .selectFrom('credit_transactions as t')
          .innerJoin('users as u', 'u.id', 't.user_id')
          .where('t.type', '=', 'USED')
          .where(rowsIn('t.created_at', spans))
          .where('u.role', '=', request.query.role)
          .select([
            't.user_id',
            sql<number>`coalesce(sum(-t.credits), 0)`.as('spent'),
            sql<number>`coalesce(sum(case when t.account_id is not null then 1 else 0 end), 0)`.as('renewals'),
            sql<number>`count(*)`.as('entries'),
          ])
          .groupBy('t.user_id')
          .execute(),
      ]);
      const byUser = new Map<number, { spent: number; renewals: number; entries: number }>();
      for (const r of [...kept, ...edges]) {
        const sum = byUser.get(r.user_id) ?? { spent: 0, renewals: 0, entries: 0 };
        sum.spent += n(r.spent);
        sum.renewals += n(r.renewals);
        sum.entries += n(r.entries);
        byUser.set(r.user_id, sum);
      }
      // Users with USED entries in the range, most spent first.
      const top = [...byUser.entries()]
        .filter(([, sum]) => sum.entries > 0)
        .sort(([idA, a], [idB, b]) => b.spent - a.spent || idA - idB)
        .slice(0, request.query.limit);
      const users = top.length
        ? await db
            .selectFrom('users')
            .select(['id', 'name', 'username', 'role'])
            .where(
              'id',
              'in',
              top.map(([id]) => id),
            )
            .execute()
        : [];
      const rows = top.map(([id, sum]) => ({ ...users.find((u) => u.id === id)!, credits_spent: sum.spent, renewals: sum.renewals }));
      return { data: rows.map((r) => ({ id: r.id, name: r.name, username: r.username, role: r.role, credits_spent: n(r.credits_spent), renewals: n(r.renewals) })) };
    },
  );
};

export default analyticsRoutes;
