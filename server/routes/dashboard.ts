/** Real dashboard figures for the caller's subtree, never fixed samples. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { type DashboardStats, EXPIRY_WARNING_DAYS, LOW_CREDITS_THRESHOLD, TRIAL_ENDING_DAYS, apiErrorBody, dataOf, dashboardStatsEntity } from '../../src/contract';
import { expiringByOwner } from '../accounts/expiring';
import { bucketParts, eachPart, rowsIn, signed, spansOf } from '../db/tallies';
import { nowIso } from '../db/values';
import { actorOf } from '../http/guard';
import { below, ownedWithin, ownedWithinByDate, within } from '../http/scope';
import { addDays } from '../accounts/dates';

const query = z.object({
  date_from: z.iso.datetime({ offset: true }).optional(),
  date_to: z.iso.datetime({ offset: true }).optional(),
});

const startedAt = Date.now();

const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  app.get(
    '/dashboard/stats',
    {
      config: { access: ['dashboard', 'list'] },
      schema: { querystring: query, response: { 200: dataOf(dashboardStatsEntity), '4xx': apiErrorBody }, tags: ['dashboard'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const now = nowIso();
      const to = request.query.date_to ?? now;
      const from = request.query.date_from ?? new Date(Date.now() - 30 * 86_400_000).toISOString();
      const dbStarted = performance.now();

      // Accounts: the kept counts per owner (migration 0013), summed over the subtree. Expired and
      // active depend on now: those expiring after now are the later months and days from the tallies
      // plus the rest of today from the rows; expired = the live ones with an expiry minus those.
      const spans = spansOf({ at: now, inclusive: false }, null);
      const tallies = () => db.selectFrom('account_tallies as t').where(ownedWithin(actor, 't.owner_id'));
      const [kinds, laterDays, today] = await Promise.all([
        tallies()
          .where('t.kind', 'in', ['all', 'none'])
          .where('t.bucket', '=', '')
          .select(['t.kind', sql<number>`sum(t.n)`.as('n')])
          .groupBy('t.kind')
          .execute(),
        db
          .selectFrom(
            eachPart(bucketParts(spans), (part) =>
              tallies()
                .where(part.where)
                .select([signed(part, 't.n').as('n'), signed(part, 't.active').as('active')]),
            ).as('p'),
          )
          .select([sql<number>`coalesce(sum(p.n), 0)`.as('n'), sql<number>`coalesce(sum(p.active), 0)`.as('active')])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('accounts')
          .where(ownedWithinByDate(actor, 'owner_id'))
          .where('deleted_at', 'is', null)
          .where(rowsIn('expiry_date', spans))
          .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(case when status = 'active' then 1 else 0 end), 0)`.as('active')])
          .executeTakeFirstOrThrow(),
      ]);
      const kind = (k: string) => Number(kinds.find((r) => r.kind === k)?.n ?? 0);
      const total = kind('all');
      const expired = total - kind('none') - Number(laterDays.n) - Number(today.n);
      const active = Number(laterDays.active) + Number(today.active);

      const expiring = (await expiringByOwner(db, actor, EXPIRY_WARNING_DAYS)).reduce((sum, r) => sum + r.n, 0);
      // Reminders: trial accounts ending soon (the accounts list's trial_ending filter), and the
      // caller's own members low on credits (those it gives credits to; its child list's low_credits filter).
      const moment = new Date();
      const [trialsEnding, lowMembers] = await Promise.all([
        db
          .selectFrom('accounts as a')
          .where(within(actor, 'a.owner_path'))
          .where('a.deleted_at', 'is', null)
          .where('a.is_trial', '=', 1)
          .where('a.expiry_date', '>=', moment.toISOString())
          .where('a.expiry_date', '<=', addDays(moment, TRIAL_ENDING_DAYS).toISOString())
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('users')
          .where('parent_id', '=', actor.id)
          .where('status', '!=', 'deleted')
          .where('credits', '<', LOW_CREDITS_THRESHOLD)
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow(),
      ]);

      const users = await db
        .selectFrom('users')
        .where(below(actor, 'path'))
        .where('status', '!=', 'deleted')
        .select(['role', sql<number>`count(*)`.as('n')])
        .groupBy('role')
        .execute();
      const count = (role: string) => Number(users.find((u) => u.role === role)?.n ?? 0);

      // Ledger figures of the subtree (credits sold to the caller's users, spent by all of them): the
      // kept sums per user and day or month of the range, the parts of its first and last day from the
      // entries.
      const range = spansOf({ at: from, inclusive: true }, { at: to, inclusive: true });
      const ledgerTallies = () => db.selectFrom('ledger_tallies as t').where(ownedWithin(actor, 't.user_id'));
      const entries = () => db.selectFrom('credit_transactions as t').where(ownedWithin(actor, 't.user_id'));
      const yearStart = `${new Date().getUTCFullYear()}-01`;
      const [keptRange, edges, monthly] = await Promise.all([
        db
          .selectFrom(
            eachPart([...bucketParts(range, 'purchased_'), ...bucketParts(range, 'used_')], (part) =>
              ledgerTallies()
                .where(part.where)
                .select([
                  't.user_id',
                  signed(part, 't.purchased').as('purchased'),
                  signed(part, 't.purchased_other').as('purchased_other'),
                  signed(part, 't.renewal_credits').as('renewal_credits'),
                ]),
            ).as('p'),
          )
          .select([
            sql<number>`coalesce(sum(case when p.user_id != ${actor.id} then p.purchased + p.purchased_other else 0 end), 0)`.as('sold'),
            sql<number>`coalesce(sum(p.renewal_credits), 0)`.as('spent'),
          ])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('credit_transactions as t')
          .where(ownedWithinByDate(actor, 't.user_id'))
          .where(rowsIn('t.created_at', range))
          .select([
            sql<number>`coalesce(sum(case when t.type = 'PURCHASED' and t.user_id != ${actor.id} then t.credits else 0 end), 0)`.as('sold'),
            sql<number>`coalesce(sum(case when t.type = 'USED' and t.account_id is not null then -t.credits else 0 end), 0)`.as('spent'),
          ])
          .executeTakeFirstOrThrow(),
        // Every month since the year began (later years' months too, as the entries' month numbers were).
        ledgerTallies()
          .where('t.user_id', '!=', actor.id)
          .where('t.kind', '=', 'purchased_month')
          .where('t.bucket', '>=', yearStart)
          .select([sql<string>`substr(t.bucket, 6, 2)`.as('month'), sql<number>`sum(t.purchased + t.purchased_other)`.as('credits')])
          .groupBy(sql`substr(t.bucket, 6, 2)`)
          .execute(),
      ]);
      const inRange = { sold: Number(keptRange.sold) + Number(edges.sold), spent: Number(keptRange.spent) + Number(edges.spent) };
      // The five newest, then their users' names (a join first would read every entry).
      const newest = (await entries().orderBy('t.id', 'desc').limit(5).select('t.id').execute()).map((r) => r.id);
      const recent = newest.length
        ? await db
            .selectFrom('credit_transactions as t')
            .innerJoin('users as u', 'u.id', 't.user_id')
            .where('t.id', 'in', newest)
            .orderBy('t.id', 'desc')
            .select(['t.id', 't.transaction_number', 't.type', 't.credits', 't.remarks', 't.created_at', 'u.username'])
            .execute()
        : [];
      const dbLatencyMs = Math.round((performance.now() - dbStarted) * 10) / 10;

      return {
        data: {
          range: { from, to },
          total_users: total,
          active_users: active,
          expired_users: expired,
          expiring_users: expiring,
          trials_ending: Number(trialsEnding.n),
          low_credit_members: actor.role === 'dealer' ? 0 : Number(lowMembers.n),
          total_managers: count('manager'),
          total_resellers: count('reseller'),
          total_dealers: count('dealer'),
          credits_sold: Number(inRange.sold),
          monthly_revenue: Number(inRange.spent),
          yearly_credits: Array.from({ length: 12 }, (_, i) => ({
            month: i + 1,
            credits: Number(monthly.find((m) => Number(m.month) === i + 1)?.credits ?? 0),
          })),
          recent_transactions: recent.map((r) => ({ ...r, type: r.type as DashboardStats['recent_transactions'][number]['type'], date: r.created_at })),
          // The caller's own balance (admin holds none).
          my_credits: actor.role === 'admin' ? null : actor.credits,
          // System internals are for admin only.
          ...(actor.role === 'admin'
            ? {
                system_health: { database: app.db.dialect, status: 'ok', uptime_seconds: Math.round((Date.now() - startedAt) / 1000) },
                performance: { db_query_ms: dbLatencyMs, memory_mb: Math.round(process.memoryUsage().rss / 1_048_576) },
              }
            : {}),
        },
      };
    },
  );
};

export default dashboardRoutes;
