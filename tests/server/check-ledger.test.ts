/**
 * `npm run check:ledger` (server/ledger/check.ts) on a ledger written through the API: every rule
 * holds and the figures add up; with the database's guards taken away by hand, it finds the damage.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { checkLedger } from '../../server/ledger/check';
import { describeEachDatabase } from './harness';
import { createBranch } from './hierarchyFixtures';

describeEachDatabase('check:ledger', (ctx) => {
  it('passes on a ledger the API wrote, with figures that add up', async () => {
    const admin = await ctx.as('admin');
    const { manager, reseller, dealer } = await createBranch(ctx, { manager: 300, reseller: 100, dealer: 40 });
    expect((await reseller.client.post(`/dealers/${dealer.id}/credits`, { action: 'recover', credits: 10 })).status).toBe(200);
    expect((await admin.post(`/managers/${manager.id}/credits`, { action: 'recover', credits: 25 })).status).toBe(200);
    const account = await dealer.client.post('/accounts', { login: `chk${Date.now()}`, full_name: 'Check', password: 'x', mac_address: '02:AA:BB:CC:DD:EE', months: 2 });
    expect(account.status, JSON.stringify(account.body)).toBe(201);

    const { figures, problems } = await checkLedger(ctx.db.kysely);
    expect(problems).toEqual([]);
    expect(figures.minted - figures.burned).toBe(figures.held + figures.spent);
    expect(figures.burned).toBeGreaterThanOrEqual(25);
    expect(figures.spent).toBeGreaterThan(0);
    expect(figures.transfers).toBeGreaterThanOrEqual(3);
    const held = await ctx.db.kysely.selectFrom('users').select(sql<number>`sum(credits)`.as('s')).executeTakeFirstOrThrow();
    expect(figures.held).toBe(Number(held.s));
  });

  it('reports balances that disagree with their entries, broken chains and unpaired moves', async () => {
    const db = ctx.db.kysely;
    const { reseller, dealer } = await createBranch(ctx, { reseller: 50, dealer: 20 });
    // Only an operator who removes the guards can do this; the check must then see it.
    if (ctx.kind === 'postgres') await sql`alter table users disable trigger users_balance_from_ledger`.execute(db);
    else await sql`drop trigger users_balance_from_ledger`.execute(db);
    await sql`update users set credits = credits + 7 where id = ${dealer.id}`.execute(db);
    const { problems } = await checkLedger(db);
    expect(problems.join('\n')).toContain(`user ${dealer.id}: balance`);
    expect(problems.join('\n')).toMatch(/minted .* but held/);
    await sql`update users set credits = credits - 7 where id = ${dealer.id}`.execute(db);

    await sql`insert into ledger_operations (id, kind, entries, created_at) values ('check-op', 'adjustment', 1, '2024-01-01T00:00:00.000Z')`.execute(db);
    await sql`insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, counterparty_id, operation_id, created_at)
      values ('TXN-CHECK-1', ${reseller.id}, 'USED', 0, 0, 3, 3, ${dealer.id}, 'check-op', '2024-01-01T00:00:00.000Z')`.execute(db);
    const after = (await checkLedger(db)).problems.join('\n');
    expect(after).toMatch(/starts at 3, the previous one ended at/);
    expect(after).toMatch(/without that user's entry in operation check-op/);
  });
});
