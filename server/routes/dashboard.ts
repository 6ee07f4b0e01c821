/** Real dashboard figures for the caller's subtree (DESIGN.md: no fixed samples). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { type DashboardStats, apiErrorBody, dataOf, dashboardStatsEntity } from '../../src/contract';
import { nowIso } from '../db/values';
import { actorOf } from '../http/guard';
import { below, ownedWithin, within } from '../http/scope';

const query = z.object({
  date_from: z.iso.datetime({ offset: true }).optional(),
  date_to: z.iso.datetime({ offset: true }).optional(),
});

const startedAt = Date.now();

const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  app.get('/dashboard/stats', { config: { access: ['dashboard', 'list'] }, schema: { querystring: query, response: { 200: dataOf(dashboardStatsEntity), '4xx': apiErrorBody }, tags: ['dashboard'] } }, async (request) => {
    const actor = actorOf(request);
    const now = nowIso();
    const to = request.query.date_to ?? now;
    const from = request.query.date_from ?? new Date(Date.now() - 30 * 86_400_000).toISOString();
    const dbStarted = performance.now();

    const accounts = await db
      .selectFrom('accounts')
      .where(within(actor, 'owner_path'))
      .where('deleted_at', 'is', null)
      .select([
        sql<number>`count(*)`.as('total'),
        sql<number>`sum(case when status = 'active' and expiry_date > ${now} then 1 else 0 end)`.as('active'),
        sql<number>`sum(case when expiry_date is not null and expiry_date <= ${now} then 1 else 0 end)`.as('expired'),
      ])
      .executeTakeFirstOrThrow();
    const users = await db.selectFrom('users').where(below(actor, 'path')).where('status', '!=', 'deleted').select(['role', sql<number>`count(*)`.as('n')]).groupBy('role').execute();
    const count = (role: string) => Number(users.find((u) => u.role === role)?.n ?? 0);

    // Ledger entries of the subtree (the caller's own included), read without a join.
    const entries = () => db.selectFrom('credit_transactions as t').where(ownedWithin(actor, 't.user_id'));
    const inRange = await entries()
      .where('t.created_at', '>=', from)
      .where('t.created_at', '<=', to)
      .select([
        sql<number>`coalesce(sum(case when t.type = 'PURCHASED' and t.user_id != ${actor.id} then t.credits else 0 end), 0)`.as('sold'),
        sql<number>`coalesce(sum(case when t.type = 'USED' and t.account_id is not null then -t.credits else 0 end), 0)`.as('spent'),
      ])
      .executeTakeFirstOrThrow();
    const yearStart = `${new Date().getUTCFullYear()}-01-01T00:00:00.000Z`;
    const monthly = await entries()
      .where('t.created_at', '>=', yearStart)
      .where('t.type', '=', 'PURCHASED')
      .where('t.user_id', '!=', actor.id)
      .select([sql<string>`substr(t.created_at, 6, 2)`.as('month'), sql<number>`sum(t.credits)`.as('credits')])
      .groupBy(sql`substr(t.created_at, 6, 2)`)
      .execute();
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
        total_users: Number(accounts.total ?? 0),
        active_users: Number(accounts.active ?? 0),
        expired_users: Number(accounts.expired ?? 0),
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
  });
};

export default dashboardRoutes;
