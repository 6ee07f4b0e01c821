/**
 * Analytics (admin) and the dashboard per role, over the seeded demo data: the figures are checked
 * against the ledger and accounts as stored, and against what the seed put there.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ANALYTICS, FIELD_RULES } from '../../src/contract';
import { describeEachDatabase } from './harness';

describeEachDatabase('analytics', (ctx) => {
  it('is for admin only', async () => {
    for (const username of ['manager', 'reseller', 'dealer']) {
      const client = await ctx.as(username);
      for (const url of ['/analytics/credits-flow', '/analytics/renewals', '/analytics/expiring', '/analytics/top-users?role=dealer']) {
        expect((await client.get(url)).status, `${username} ${url}`).toBe(403);
      }
    }
  });

  it('sums the credits each role level received per month, as the ledger holds them', async () => {
    const admin = await ctx.as('admin');
    const flow = (await admin.get('/analytics/credits-flow')).body.data as Array<{ period: string; role: string; credits: number }>;
    const stored = await ctx.db.kysely
      .selectFrom('credit_transactions as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .where('t.type', '=', 'PURCHASED')
      .where('t.credits', '>', 0)
      .where('u.role', '!=', 'admin')
      .select(['u.role', sql<number>`sum(t.credits)`.as('credits')])
      .groupBy('u.role')
      .execute();
    for (const role of ['manager', 'reseller', 'dealer']) {
      const api = flow.filter((p) => p.role === role).reduce((sum, p) => sum + p.credits, 0);
      expect(api, role).toBe(Number(stored.find((s) => s.role === role)?.credits ?? 0));
    }
    // The seed: admin to managers 5000 + 2000, managers to resellers 1000 + 500, resellers to dealers 200 + 100.
    const thisMonth = new Date().toISOString().slice(0, 7);
    expect(flow.filter((p) => p.period === thisMonth).map((p) => [p.role, p.credits])).toEqual([
      ['dealer', 300],
      ['manager', 7000],
      ['reseller', 1500],
    ]);
    expect((await admin.get('/analytics/credits-flow?date_to=2000-01-01')).body.data).toEqual([]);
    const bad = await admin.get('/analytics/credits-flow?date_from=2020-02-01&date_to=2020-01-01');
    expect(bad.status).toBe(422);
    expect((await admin.get('/analytics/credits-flow?date_from=someday')).body.errors).toEqual({ date_from: [FIELD_RULES.validDate] });
  });

  it('counts paid renewals and new accounts per month, every month of the range present', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.get('/analytics/renewals?date_from=2024-11-01&date_to=2025-02-10');
    expect(res.body.data.map((p: { period: string }) => p.period)).toEqual(['2024-11', '2024-12', '2025-01', '2025-02']);
    const year = (await admin.get('/analytics/renewals')).body.data as Array<{ period: string; renewals: number; credits: number; new_accounts: number }>;
    expect(year.length).toBeGreaterThanOrEqual(12);
    const now = year.find((p) => p.period === new Date().toISOString().slice(0, 7))!;
    // Six accounts seeded, each bought for a month by its owner.
    expect(now).toMatchObject({ renewals: 6, credits: 6, new_accounts: 6 });
  });

  it("answers a range at the calendar's end or in the future, and refuses one longer than ten years", async () => {
    const admin = await ctx.as('admin');
    const last = await admin.get('/analytics/renewals?date_to=9999-12-31T23:59:59Z');
    expect(last.status).toBe(200);
    expect(last.body.data.at(-1)).toEqual({ period: '9999-12', renewals: 0, credits: 0, new_accounts: 0 });
    expect(last.body.data).toHaveLength(13);
    for (const url of ['/analytics/credits-flow', '/analytics/top-users?role=dealer']) {
      const future = await admin.get(`${url}${url.includes('?') ? '&' : '?'}date_from=9999-12-31&date_to=9999-12-31`);
      expect(future.status, url).toBe(200);
      expect(future.body.data, url).toEqual([]);
    }
    // A range that runs past now still counts what now holds.
    const thisMonth = new Date().toISOString().slice(0, 7);
    const open = (await admin.get(`/analytics/renewals?date_from=${thisMonth}-01&date_to=2030-12-31`)).body.data;
    expect(open[0]).toMatchObject({ period: thisMonth, renewals: 6 });
    const long = await admin.get(`/analytics/renewals?date_from=2000-01-01&date_to=2010-01-02`);
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual({ date_from: [ANALYTICS.rangeTooLong] });
    expect((await admin.get('/analytics/renewals?date_from=2000-01-01&date_to=2009-12-31')).body.data).toHaveLength(120);
  });

  it('counts accounts expiring within 7, 30 and 90 days and lists the soonest of a window', async () => {
    const admin = await ctx.as('admin');
    // Seeded expiries in days: 200, 5, -3, 40, 370, 90.
    const res = await admin.get('/analytics/expiring?days=90');
    expect(res.body.data.counts).toEqual({ days_7: 1, days_30: 1, days_90: 3 });
    expect(res.body.data.accounts.map((a: { login: string }) => a.login)).toEqual(['jane.smith', 'alice.w', 'eve.m']);
    expect(res.body.data.accounts[0].owner).toMatchObject({ username: 'dealer', role: 'dealer' });
    expect((await admin.get('/analytics/expiring?days=7')).body.data.accounts.map((a: { login: string }) => a.login)).toEqual(['jane.smith']);
    expect((await admin.get('/analytics/expiring?days=12')).status).toBe(422);
  });

  it('ranks resellers and dealers by the credits they spent', async () => {
    const admin = await ctx.as('admin');
    const dealers = (await admin.get('/analytics/top-users?role=dealer')).body.data;
    expect(dealers.map((d: { username: string; credits_spent: number; renewals: number }) => [d.username, d.credits_spent, d.renewals])).toEqual([
      ['dealer', 4, 4],
      ['dealer2', 1, 1],
    ]);
    const resellers = (await admin.get('/analytics/top-users?role=reseller&limit=1')).body.data;
    expect(resellers).toEqual([expect.objectContaining({ username: 'reseller', credits_spent: 201, renewals: 1 })]);
    expect((await admin.get('/analytics/top-users?role=manager')).status).toBe(422);
  });
});

describeEachDatabase('dashboard per role', (ctx) => {
  it('shows system internals to admin only, and each other role its own balance', async () => {
    const admin = (await (await ctx.as('admin')).get('/dashboard/stats')).body.data;
    expect(admin.system_health).toMatchObject({ database: ctx.kind, status: 'ok' });
    expect(typeof admin.performance.memory_mb).toBe('number');
    expect(admin.my_credits).toBeNull();
    for (const username of ['manager', 'reseller', 'dealer']) {
      const data = (await (await ctx.as(username)).get('/dashboard/stats')).body.data;
      expect(data, username).not.toHaveProperty('system_health');
      expect(data, username).not.toHaveProperty('performance');
      const balance = await ctx.db.kysely.selectFrom('users').select('credits').where('username', '=', username).executeTakeFirstOrThrow();
      expect(data.my_credits, username).toBe(balance.credits);
    }
  });
});
