/**
 * Promotions and discounts cannot be farmed (docs/domain.md#bonuses: a promotion's bonus is earned by credits
 * that stay bought). Give and take-back cycles under every shape that mints or discounts: user promos
 * (manager > reseller > dealer), the credit levels (admin > manager), global discounts (renewals and
 * the recovery of their months), with split recoveries, recover-from-history and bonus spent on
 * renewals in between, then a property test of random sequences. After each, nothing came from
 * nothing: summed over the system, what was put in (admin allocations) plus the bonus still kept
 * equals what is held plus what was spent, and no user keeps more bonus than the credits it still
 * bought could have earned under the promotions in force (whatever way they were split).
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { CREDITS, HIERARCHY } from '../../src/contract';
import { checkLedger } from '../../server/ledger/check';
import { postChanges } from '../../server/ledger/post';
import { linkRecovery, planRecovery } from '../../server/credits/allocations';
import * as allocationBonuses from '../../server/db/migrations/0019_allocation_bonuses';
import { updateSystemSettings } from '../../server/settings';
import { type Client, type TestContext, describeEachDatabase, userId } from './harness';
import { createAccount } from './accountFixtures';
import { type Created, balance, createDealer, createManager, createReseller } from './hierarchyFixtures';

/** The server the branches of this file live on; its promos are this file's. */
const SERVER = 2;

const add = (credits: number) => ({ action: 'renew', credits });
const recover = (credits: number) => ({ action: 'recover', credits });

/** Every user promo tier this suite ever made active: the most bonus a split of credits could earn. */
const tiersEver: Array<[number, number]> = [];

async function setPromos(ctx: TestContext, tiers: Array<[number, number]>) {
  const db = ctx.db.kysely;
  await db.updateTable('user_promos').set({ is_active: 0 }).where('server_id', '=', SERVER).execute();
  const now = new Date().toISOString();
  for (const [credits_required, bonus_credits] of tiers) {
    tiersEver.push([credits_required, bonus_credits]);
    await db
      .insertInto('user_promos')
      .values({
        name: `Buy ${credits_required} get ${bonus_credits}`,
        description: null,
        server_id: SERVER,
        credits_required,
        bonus_credits,
        is_active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

/** The most bonus `credits` bought credits can earn, split into allocations any way (unbounded knapsack). */
function maxPromoBonus(credits: number): number {
  const best = new Array<number>(credits + 1).fill(0);
  for (let n = 1; n <= credits; n++) {
    best[n] = best[n - 1];
    for (const [required, bonus] of tiersEver) if (required <= n) best[n] = Math.max(best[n], best[n - required] + bonus);
  }
  return best[credits];
}

/** round(x * 0.2) <= x / 3 for every x >= 1, so no split of the credit levels earns more than a third. */
const maxLevelBonus = (credits: number) => Math.floor(credits / 3);

/**
 * The ledger, summed per user from its entries (not from the code's own link tables):
 * - net bought: paid credits received from the parent less paid credits it took back;
 * - bonus kept: bonus granted less bonus taken back, from the bonus balance or charged to the paid one.
 */
async function farmingInvariants(ctx: TestContext) {
  const db = ctx.db.kysely;
  const adminId = await userId(ctx, 'admin');
  const rows = await sql<{ user_id: number; role: string; bought: number; granted: number; taken: number; charged: number }>`
    select e.user_id, u.role,
      sum(case when e.counterparty_id = u.parent_id or (e.counterparty_id = ${adminId} and u.role = 'manager') then
        case when e.bonus_credits = 0 and e.account_id is null and (e.type = 'PURCHASED' or e.type = 'RECOVERED') then e.credits else 0 end else 0 end) as bought,
      sum(case when e.counterparty_id is null and e.account_id is null and e.bonus_credits > 0 then e.bonus_credits else 0 end) as granted,
      sum(case when e.counterparty_id is null and e.account_id is null and e.bonus_credits < 0 then -e.bonus_credits else 0 end) as taken,
      sum(case when e.counterparty_id is null and e.account_id is null and e.bonus_credits = 0 and e.credits < 0 then -e.credits else 0 end) as charged
    from credit_transactions e join users u on u.id = e.user_id
    group by e.user_id, u.role`.execute(db);
  let kept = 0;
  for (const r of rows.rows) {
    const bought = Number(r.bought);
    const bonusKept = Number(r.granted) - Number(r.taken) - Number(r.charged);
    kept += bonusKept;
    const earnable = r.role === 'manager' ? maxLevelBonus(bought) : maxPromoBonus(bought);
    expect(bonusKept, `user ${r.user_id} (${r.role}) keeps ${bonusKept} bonus with ${bought} credits still bought`).toBeLessThanOrEqual(earnable);
    expect(bonusKept, `user ${r.user_id} bonus kept`).toBeGreaterThanOrEqual(0);
  }
  // Summed over the system: admin allocations (net of admin recoveries) plus bonus kept = held + spent.
  const t = await sql<{ put_in: number; held: number; spent: number }>`
    select
      (select coalesce(sum(e.credits), 0) from credit_transactions e where e.counterparty_id = ${adminId} and e.account_id is null) as put_in,
      (select coalesce(sum(credits), 0) from users) as held,
      (select coalesce(sum(-credits), 0) from credit_transactions where account_id is not null) as spent`.execute(db);
  const { put_in, held, spent } = t.rows[0];
  expect(Number(put_in) + kept, 'admin allocations + bonus kept = held + spent').toBe(Number(held) + Number(spent));
  const { problems, bonuses } = await checkLedger(db);
  expect(problems).toEqual([]);
  expect(bonuses.promos.filter((p) => p.excess > 0)).toEqual([]);
}

async function branch(ctx: TestContext, manager = 500) {
  const m = await createManager(ctx, manager, { server_id: SERVER });
  const r = await createReseller(ctx, m.client);
  const d = await createDealer(ctx, r.client);
  return { m, r, d };
}

const ok = async (res: Promise<{ status: number; body: any }>, what = '') => {
  const done = await res;
  expect(done.status, `${what} ${JSON.stringify(done.body)}`).toBe(200);
  return done.body;
};

const allocationOf = (body: { data: { transactions: Array<{ id: number; user_id: number; bonus_credits: number }> } }, userIdOf: number) =>
  body.data.transactions.find((t) => t.user_id === userIdOf && t.bonus_credits === 0)!.id;

describeEachDatabase(
  'promotions cannot be farmed',
  (ctx) => {
    it('give 20 / take back 20 ten times under "buy 20, get 5": no bonus is left and none can be spent', async () => {
      await setPromos(ctx, [[20, 5]]);
      const { m, r } = await branch(ctx);
      await ok(m.client.post(`/resellers/${r.id}/credits`, add(10)));
      const before = await balance(ctx, m.id);
      for (let i = 0; i < 10; i++) {
        expect((await ok(m.client.post(`/resellers/${r.id}/credits`, add(20)))).data.bonus_credits).toBe(5);
        expect((await ok(m.client.post(`/resellers/${r.id}/credits`, recover(20)))).data.bonus_credits).toBe(5);
      }
      expect(await balance(ctx, m.id)).toEqual(before);
      expect(await balance(ctx, r.id)).toEqual({ credits: 10, bonus_credits: 0 });
      await farmingInvariants(ctx);
    });

    it('credit-level bonus: admin give / take back cycles leave a manager only the bonus of what it kept', async () => {
      const admin = await ctx.as('admin');
      const m = await createManager(ctx, 100, { server_id: SERVER }); // 100 + 20
      for (let i = 0; i < 5; i++) {
        await ok(admin.post(`/managers/${m.id}/credits`, add(100)));
        await ok(admin.post(`/managers/${m.id}/credits`, recover(100)));
      }
      // The newest allocation each time: the first one (100 + 20) stays bought, with its bonus.
      expect(await balance(ctx, m.id)).toEqual({ credits: 100 + 20, bonus_credits: 20 });
      await farmingInvariants(ctx);
    });

    it('split recoveries: twenty recoveries of 1 credit take back the whole bonus once, as one of 20 does', async () => {
      await setPromos(ctx, [[20, 5]]);
      const { m, r } = await branch(ctx);
      await ok(m.client.post(`/resellers/${r.id}/credits`, add(10)));
      await ok(m.client.post(`/resellers/${r.id}/credits`, add(20)));
      const taken: number[] = [];
      for (let i = 0; i < 20; i++) taken.push((await ok(m.client.post(`/resellers/${r.id}/credits`, recover(1)))).data.bonus_credits);
      expect(taken).toEqual([5, ...new Array(19).fill(0)]);
      expect(await balance(ctx, r.id)).toEqual({ credits: 10, bonus_credits: 0 });
      await farmingInvariants(ctx);
    });

    it('recover-from-history takes back the bonus of the allocation it names, not the others', async () => {
      await setPromos(ctx, [[20, 5]]);
      const { m, r, d } = await branch(ctx);
      await ok(m.client.post(`/resellers/${r.id}/credits`, add(100)));
      const first = allocationOf(await ok(r.client.post(`/dealers/${d.id}/credits`, add(20))), d.id);
      await ok(r.client.post(`/dealers/${d.id}/credits`, add(20)));
      expect(await balance(ctx, d.id)).toEqual({ credits: 50, bonus_credits: 10 });
      const history = await r.client.get(`/dealers/${d.id}/credits/recovery-history`);
      expect(history.body.data.find((h: { id: number }) => h.id === first)).toMatchObject({ recoverable_credits: 20, recovered: false });
      const res = await ok(r.client.post(`/dealers/${d.id}/credits/recover-from-history`, { transaction_id: first }));
      expect(res.data).toMatchObject({ credits: 20, bonus_credits: 5 });
      expect(await balance(ctx, d.id)).toEqual({ credits: 25, bonus_credits: 5 });
      // Again from the same allocation: nothing left of it, and nothing of its bonus.
      expect((await r.client.post(`/dealers/${d.id}/credits/recover-from-history`, { transaction_id: first })).body.errors).toEqual({
        transaction_id: [HIERARCHY.historyAlreadyRecovered],
      });
      await farmingInvariants(ctx);
    });

    it('bonus spent on renewals comes back from the paid credits; what they cannot cover is refused clearly', async () => {
      await setPromos(ctx, [[20, 5]]);
      const { m, r, d } = await branch(ctx);
      await ok(m.client.post(`/resellers/${r.id}/credits`, add(100)));
      await ok(r.client.post(`/dealers/${d.id}/credits`, add(20)));
      const account = await createAccount(ctx, d.username);
      // Bonus credits pay first: 3 of the 5 are spent.
      await ok((await ctx.as(d.username)).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 3 }));
      expect(await balance(ctx, d.id)).toEqual({ credits: 22, bonus_credits: 2 });

      const options = (await r.client.get(`/dealers/${d.id}/credits/recovery-options`)).body.data;
      expect(options).toMatchObject({
        available_paid_credits: 17,
        bonus_credits_to_zero: 2,
        message: `${HIERARCHY.recoveryAvailable(17)} ${HIERARCHY.recoveryBonusWarning(2)} ${HIERARCHY.recoveryBonusSpent(3)}`,
      });
      expect(options.options.at(-1)).toMatchObject({ value: 17, bonus_credits: 5, total_credits: 22 });
      expect(Math.max(...options.options.map((o: { value: number }) => o.value))).toBe(17);
      const history = (await r.client.get(`/dealers/${d.id}/credits/recovery-history`)).body.data;
      expect(history[0]).toMatchObject({ credits: 20, recoverable_credits: 17 });

      const refused = await r.client.post(`/dealers/${d.id}/credits`, recover(20));
      expect(refused.status).toBe(422);
      // Under the field, the Recover dialog's own rule (1 to the available paid credits); the toast says why.
      expect(refused.body.errors).toEqual({ credits: [CREDITS.cannotRecover(17)], paid_credits: [CREDITS.cannotRecoverSpentBonus(17, 3)] });
      const before = await balance(ctx, r.id);
      const res = await ok(r.client.post(`/dealers/${d.id}/credits`, recover(17)));
      expect(res.data).toMatchObject({ credits: 17, bonus_credits: 5, user: { credits: 0, bonus_credits: 0 } });
      expect(await balance(ctx, r.id)).toEqual({ credits: before.credits + 17, bonus_credits: before.bonus_credits });
      const entries = await ctx.db.kysely.selectFrom('credit_transactions').selectAll().where('user_id', '=', d.id).orderBy('id').execute();
      expect(entries.slice(-3).map((e) => [e.type, e.credits, e.bonus_credits, e.counterparty_id, e.remarks])).toEqual([
        ['RECOVERED', -17, 0, r.id, `Credits recovered by ${r.username}`],
        ['RECOVERED', -2, -2, null, CREDITS.bonusTakenBack],
        ['RECOVERED', -3, 0, null, CREDITS.spentBonusCharged],
      ]);
      await farmingInvariants(ctx);
    });

    it('the same with the whole bonus spent and no paid credit to spare: nothing can be recovered, and it says why', async () => {
      await setPromos(ctx, [[20, 5]]);
      const { m, r } = await branch(ctx);
      await ok(m.client.post(`/resellers/${r.id}/credits`, add(20)));
      const account = await createAccount(ctx, r.username);
      await ok((await ctx.as(r.username)).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 20 }));
      expect(await balance(ctx, r.id)).toEqual({ credits: 5, bonus_credits: 0 });
      const options = (await m.client.get(`/resellers/${r.id}/credits/recovery-options`)).body.data;
      expect(options).toMatchObject({ options: [], available_paid_credits: 0, message: `${HIERARCHY.recoveryNone} ${HIERARCHY.recoveryBonusSpent(5)}` });
      const refused = await m.client.post(`/resellers/${r.id}/credits`, recover(1));
      expect(refused.body.errors).toEqual({ credits: [CREDITS.cannotRecover(0)], paid_credits: [CREDITS.cannotRecoverSpentBonus(0, 5)] });
      await farmingInvariants(ctx);
    });

    it('global discount: renewing with it and recovering the months, again and again, gives nothing back beyond what was paid', async () => {
      await updateSystemSettings(ctx.db.kysely, { global_discounts_enabled: true });
      const admin = await ctx.as('admin');
      const discount = await admin.post('/global-discounts', { name: 'Farm year', server_id: SERVER, validity_months: 12, credits_required: 9 });
      expect(discount.status, JSON.stringify(discount.body)).toBe(201);
      await setPromos(ctx, [[20, 5]]);
      const { m, r, d } = await branch(ctx);
      await ok(m.client.post(`/resellers/${r.id}/credits`, add(100)));
      await ok(r.client.post(`/dealers/${d.id}/credits`, add(40)));
      const dealer = await ctx.as(d.username);
      const account = await createAccount(ctx, d.username);
      let last = await balance(ctx, d.id);
      for (let i = 0; i < 4; i++) {
        const renewed = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 12 });
        expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
        const back = await dealer.post(`/accounts/${account.id}/credits`, { action: 'recover', months: 11 });
        expect(back.status, JSON.stringify(back.body)).toBe(200);
        const now = await balance(ctx, d.id);
        expect(now.credits).toBeLessThanOrEqual(last.credits);
        last = now;
      }
      // And the dealer's parent takes back what it gave: the bonus goes with it, spent or not.
      const options = (await r.client.get(`/dealers/${d.id}/credits/recovery-options`)).body.data;
      if (options.available_paid_credits > 0) await ok(r.client.post(`/dealers/${d.id}/credits`, recover(options.available_paid_credits)));
      await ctx.db.kysely.deleteFrom('global_discounts').where('id', '=', discount.body.data.id).execute();
      await farmingInvariants(ctx);
    });

    it('property: any sequence of gives, recoveries (split, from history), renewals and promo changes mints nothing', async () => {
      const tiers = fc.constantFrom<Array<[number, number]>>(
        [[20, 5]],
        [
          [10, 3],
          [25, 10],
        ],
        [
          [5, 1],
          [50, 20],
        ],
      );
      const op = fc.oneof(
        fc.record({ kind: fc.constant('give' as const), to: fc.constantFrom('r' as const, 'd' as const), amount: fc.integer({ min: 1, max: 60 }) }),
        fc.record({ kind: fc.constant('take' as const), from: fc.constantFrom('r' as const, 'd' as const), amount: fc.integer({ min: 1, max: 60 }) }),
        fc.record({ kind: fc.constant('history' as const), pick: fc.nat() }),
        fc.record({ kind: fc.constant('renew' as const), who: fc.constantFrom('r' as const, 'd' as const), months: fc.integer({ min: 1, max: 6 }) }),
        fc.record({ kind: fc.constant('admin' as const), give: fc.boolean(), amount: fc.integer({ min: 1, max: 80 }) }),
        fc.record({ kind: fc.constant('promos' as const), tiers }),
      );
      await fc.assert(
        fc.asyncProperty(tiers, fc.array(op, { minLength: 4, maxLength: 14 }), async (start, ops) => {
          await setPromos(ctx, start);
          const admin = await ctx.as('admin');
          const { m, r, d } = await branch(ctx, 300);
          const accounts = { r: (await createAccount(ctx, r.username)).id, d: (await createAccount(ctx, d.username)).id };
          const clients: Record<'m' | 'r' | 'd', Created> = { m, r, d };
          const parentOf = (who: 'r' | 'd'): Client => (who === 'r' ? m.client : r.client);
          const path = (who: 'r' | 'd', id: number) => `/${who === 'r' ? 'resellers' : 'dealers'}/${id}/credits`;
          for (const o of ops) {
            let res: { status: number; body: any };
            if (o.kind === 'give') res = await parentOf(o.to).post(path(o.to, clients[o.to].id), add(o.amount));
            else if (o.kind === 'take') res = await parentOf(o.from).post(path(o.from, clients[o.from].id), recover(o.amount));
            else if (o.kind === 'history') {
              const list = (await r.client.get(`/dealers/${d.id}/credits/recovery-history`)).body.data as Array<{ id: number }>;
              if (list.length === 0) continue;
              res = await r.client.post(`/dealers/${d.id}/credits/recover-from-history`, { transaction_id: list[o.pick % list.length].id });
            } else if (o.kind === 'renew')
              res = await (await ctx.as(clients[o.who].username)).post(`/accounts/${accounts[o.who]}/credits`, { action: 'renew', months: o.months });
            else if (o.kind === 'admin') res = await admin.post(`/managers/${m.id}/credits`, o.give ? add(o.amount) : recover(o.amount));
            else {
              await setPromos(ctx, o.tiers);
              continue;
            }
            // Refused moves are fine (422: not enough, bonus period...); a 5xx never is.
            expect([200, 422], JSON.stringify({ o, body: res.body })).toContain(res.status);
          }
          await farmingInvariants(ctx);
        }),
        { numRuns: 12, seed: 25, endOnFailure: true },
      );
    }, 240_000);
  },
  { creditOpsPerMinute: 100_000 },
);

describeEachDatabase('check:ledger: bonus per promotion', (ctx) => {
  it('reports each promotion: granted = taken back + backed + excess, and flags farming of the old kind', async () => {
    await setPromos(ctx, [[20, 5]]);
    const { m, r } = await branch(ctx);
    await ok(m.client.post(`/resellers/${r.id}/credits`, add(10)));
    await ok(m.client.post(`/resellers/${r.id}/credits`, add(20)));
    await ok(m.client.post(`/resellers/${r.id}/credits`, recover(20)));
    await ok(m.client.post(`/resellers/${r.id}/credits`, add(20)));
    const promoId = (await ctx.db.kysely.selectFrom('user_promos').select('id').where('server_id', '=', SERVER).where('is_active', '=', 1).executeTakeFirstOrThrow()).id;
    const clean = await checkLedger(ctx.db.kysely);
    expect(clean.problems).toEqual([]);
    expect(clean.bonuses.promos.find((p) => p.promoId === promoId)).toEqual({
      source: 'promo',
      promoId,
      name: 'Buy 20 get 5',
      allocations: 2,
      granted: 10,
      takenBack: 5,
      backed: 5,
      excess: 0,
    });
    expect(clean.bonuses.promos.find((p) => p.source === 'level')).toMatchObject({ excess: 0 });

    // The old recovery: the credits go back, the bonus stays (as the code before did when paid credits were left).
    await ctx.db.kysely.transaction().execute(async (trx) => {
      const takes = await planRecovery(trx, r.id, 20);
      const entries = await postChanges(
        trx,
        [
          { userId: r.id, type: 'RECOVERED', credits: -20, counterpartyId: m.id, remarks: 'old recovery' },
          { userId: m.id, type: 'RECOVERED', credits: 20, counterpartyId: r.id, remarks: 'old recovery' },
        ],
        { actorId: m.id },
      );
      await linkRecovery(trx, entries.find((e) => e.user_id === r.id)!.id, takes);
    });
    const farmed = await checkLedger(ctx.db.kysely);
    expect(farmed.bonuses.promos.find((p) => p.promoId === promoId)).toMatchObject({ granted: 10, takenBack: 5, backed: 0, excess: 5 });
    expect(farmed.problems).toEqual([
      `Buy 20 get 5 (promo ${promoId}): 5 bonus credits kept by allocations whose credits were taken back (granted 10, taken back 5, backed by credits still bought 0)`,
    ]);

    // The migration ties the bonuses already in the ledger to their allocations as the API does.
    const db = ctx.db.kysely;
    const snapshot = async () => ({
      bonuses: await db.selectFrom('allocation_bonuses').select(['allocation_id', 'bonus_id', 'credits', 'source', 'promo_id']).orderBy('allocation_id').execute(),
      taken: await db.selectFrom('bonus_recoveries').select(['allocation_id', 'entry_id', 'credits']).orderBy('entry_id').orderBy('allocation_id').execute(),
    });
    const live = await snapshot();
    await allocationBonuses.down(db);
    await allocationBonuses.up(db);
    expect(await snapshot()).toEqual(live);
  });
});
