import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ACCESS, CREDITS, type CreditOptionsResponse, HIERARCHY, MAX_BALANCE, bonusOf } from '../../src/contract';
import { lockUsers } from '../../server/credits/moves';
import * as allocationRecoveries from '../../server/db/migrations/0005_allocation_recoveries';
import { putSetting, updateSystemSettings } from '../../server/settings';
import { type TestContext, describeEachDatabase, userId } from './harness';
import { createAccount, uniqueMac } from './accountFixtures';
import { balance, createBranch, createDealer, createManager, createReseller, lastAudit, setBalanceByEntry, uniqueName } from './hierarchyFixtures';

const entriesOf = (ctx: TestContext, id: number) => ctx.db.kysely.selectFrom('credit_transactions').selectAll().where('user_id', '=', id).orderBy('id').execute();

const add = (credits: number, extra: Record<string, unknown> = {}) => ({ action: 'renew', credits, ...extra });
const recover = (credits: number) => ({ action: 'recover', credits });

/** A user promo on the Backup Server (id 2); the other tests work on the Main Server, which has none. */
async function promo(ctx: TestContext, credits_required: number, bonus_credits: number, is_active = 1, server_id = 2) {
  const now = new Date().toISOString();
  await ctx.db.kysely
    .insertInto('user_promos')
    .values({
      name: `Buy ${credits_required} get ${bonus_credits}`,
      description: null,
      server_id,
      credits_required,
      bonus_credits,
      is_active,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

describeEachDatabase(
  'credits: moves, bonus, errors, idempotency, options',
  (ctx) => {
    it('admin mints credits for a manager, with the credit-level bonus as its own entry', async () => {
      const admin = await ctx.as('admin');
      const m = await createManager(ctx);
      const res = await admin.post(`/managers/${m.id}/credits`, add(100));
      expect(res.status).toBe(200);
      expect(res.body.message).toBe(HIERARCHY.creditsAdded);
      expect(res.body.data).toMatchObject({
        credits: 100,
        bonus_credits: 20,
        actor_credits: null,
        user: { id: m.id, credits: 120, bonus_credits: 20, paid_credits: 100 },
      });
      const entries = await entriesOf(ctx, m.id);
      expect(entries.map((e) => [e.type, e.credits, e.bonus_credits, e.counterparty_id, e.balance_before, e.balance_after])).toEqual([
        ['PURCHASED', 100, 0, await userId(ctx, 'admin'), 0, 100],
        ['PURCHASED', 20, 20, null, 100, 120],
      ]);
      expect(entries[1].remarks).toBe('Credit level bonus for 100 credits');
      expect(res.body.data.transactions.map((t: { transaction_number: string }) => t.transaction_number)).toEqual(entries.map((e) => e.transaction_number));
      const audit = await lastAudit(ctx, 'credits', 'add', m.id);
      expect(audit).toMatchObject({ username: 'admin', target_username: m.username });
      expect(audit!.new_values).toContain('"credits":120');

      // The bonus the dialog showed must be the server's.
      const wrong = await admin.post(`/managers/${m.id}/credits`, add(50, { bonus_credits: 5 }));
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors).toEqual({ promo_credits: [CREDITS.promoCredits] });
      expect((await admin.post(`/managers/${m.id}/credits`, add(50, { bonus_credits: 10 }))).status).toBe(200);
      expect(await balance(ctx, m.id)).toEqual({ credits: 180, bonus_credits: 30 });
    });

    it('caps an admin allocation to a manager at 10,000 per call', async () => {
      const admin = await ctx.as('admin');
      const m = await createManager(ctx);
      const res = await admin.post(`/managers/${m.id}/credits`, add(10_001));
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ credits: [CREDITS.adminAllocationCap] });
      expect(await balance(ctx, m.id)).toEqual({ credits: 0, bonus_credits: 0 });
    });

    it('moves paid credits from a manager to its reseller, with the user promo of its server', async () => {
      await promo(ctx, 50, 10);
      await promo(ctx, 100, 30, 0); // inactive: ignored
      await promo(ctx, 20, 3, 1, 1); // another server: ignored for this branch
      const m = await createManager(ctx, 200, { server_id: 2 });
      const r = await createReseller(ctx, m.client);
      const before = await balance(ctx, m.id);

      const wrong = await m.client.post(`/resellers/${r.id}/credits`, add(60, { bonus_credits: 0 }));
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors).toEqual({ promo_credits: [CREDITS.promoCredits] });
      expect(await balance(ctx, m.id)).toEqual(before);

      const res = await m.client.post(`/resellers/${r.id}/credits`, add(60, { bonus_credits: 10 }));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ credits: 60, bonus_credits: 10, actor_credits: before.credits - 60 });
      expect(await balance(ctx, r.id)).toEqual({ credits: 70, bonus_credits: 10 });
      expect(await balance(ctx, m.id)).toEqual({ credits: before.credits - 60, bonus_credits: before.bonus_credits });
      const given = (await entriesOf(ctx, m.id)).at(-1)!;
      expect(given).toMatchObject({ type: 'USED', credits: -60, counterparty_id: r.id, remarks: `Credits added to ${r.username}` });
      const received = await entriesOf(ctx, r.id);
      expect(received.map((e) => [e.type, e.credits, e.bonus_credits, e.counterparty_id, e.remarks])).toEqual([
        ['PURCHASED', 60, 0, m.id, `Credits from ${m.username}`],
        ['PURCHASED', 10, 10, null, 'Promo bonus: Buy 50 get 10'],
      ]);

      // Below the smallest promo: no bonus. Promos switched off: none either.
      expect((await m.client.post(`/resellers/${r.id}/credits`, add(49, { bonus_credits: 0 }))).status).toBe(200);
      await updateSystemSettings(ctx.db.kysely, { enable_reseller_dealer_promos: false });
      try {
        expect((await m.client.post(`/resellers/${r.id}/credits`, add(60, { bonus_credits: 10 }))).status).toBe(422);
        const plain = await m.client.post(`/resellers/${r.id}/credits`, add(60));
        expect(plain.body.data.bonus_credits).toBe(0);
      } finally {
        await updateSystemSettings(ctx.db.kysely, { enable_reseller_dealer_promos: true });
        await ctx.db.kysely.deleteFrom('user_promos').where('server_id', '=', 1).execute();
      }
    });

    it('gives only paid credits: bonus cannot be passed on (paid_credits)', async () => {
      const m = await createManager(ctx, 100); // 100 paid + 20 bonus
      const r = await createReseller(ctx, m.client);
      const res = await m.client.post(`/resellers/${r.id}/credits`, add(101));
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ credits: [CREDITS.insufficientCredits(101, 100)], paid_credits: [CREDITS.paidCredits] });
      expect(await balance(ctx, m.id)).toEqual({ credits: 120, bonus_credits: 20 });
      expect(await entriesOf(ctx, r.id)).toEqual([]);
      expect((await m.client.post(`/resellers/${r.id}/credits`, add(100))).status).toBe(200);
      const none = await m.client.post(`/resellers/${r.id}/credits`, add(10));
      expect(none.body.errors).toEqual({ credits: [CREDITS.insufficientCredits(10, 0)], paid_credits: [CREDITS.paidCredits] });
      expect(await balance(ctx, m.id)).toEqual({ credits: 20, bonus_credits: 20 });
    });

    it('moves only to a direct, active child (recipient); elsewhere 404; admin may mint to anyone', async () => {
      const admin = await ctx.as('admin');
      const { manager, reseller, dealer } = await createBranch(ctx, { manager: 50, reseller: 20, dealer: 10 });
      const grandchild = await manager.client.post(`/dealers/${dealer.id}/credits`, add(10));
      expect(grandchild.status).toBe(422);
      expect(grandchild.body.errors).toEqual({ recipient: [CREDITS.recipient] });
      const grandRecover = await manager.client.post(`/dealers/${dealer.id}/credits`, recover(1));
      expect(grandRecover.body.errors).toEqual({ recipient: [CREDITS.recipient] });

      await manager.client.patch(`/resellers/${reseller.id}`, { is_active: false });
      const inactive = await manager.client.post(`/resellers/${reseller.id}/credits`, add(10));
      expect(inactive.body.errors).toEqual({ recipient: [CREDITS.recipient] });
      // Credits can still be recovered from an inactive child before it is deleted.
      expect((await manager.client.post(`/resellers/${reseller.id}/credits`, recover(5))).status).toBe(200);
      await manager.client.patch(`/resellers/${reseller.id}`, { is_active: true });

      expect((await manager.client.post(`/resellers/${await userId(ctx, 'reseller2')}/credits`, add(10))).status).toBe(404);
      expect((await manager.client.post(`/resellers/${dealer.id}/credits`, add(10))).status).toBe(404);

      const before = await balance(ctx, dealer.id);
      const minted = await admin.post(`/dealers/${dealer.id}/credits`, add(7));
      expect(minted.status).toBe(200);
      expect(await balance(ctx, dealer.id)).toEqual({ credits: before.credits + 7, bonus_credits: 0 });
    });

    it('answers 403 to a caller whose role may not move credits on that level', async () => {
      const cases: Array<[string, string]> = [
        ['dealer', `/dealers/${await userId(ctx, 'dealer')}/credits`],
        ['reseller', `/resellers/${await userId(ctx, 'reseller')}/credits`],
        ['manager', `/managers/${await userId(ctx, 'manager')}/credits`],
        ['dealer', `/resellers/${await userId(ctx, 'reseller')}/credits`],
      ];
      for (const [who, url] of cases) {
        const res = await (await ctx.as(who)).post(url, add(1));
        expect(res.status, `${who} ${url}`).toBe(403);
        expect(res.body).toEqual({ message: ACCESS.forbidden });
      }
    });

    it('validates the payload and the minimum amount of a non-admin move', async () => {
      const { manager, reseller } = await createBranch(ctx, { manager: 100 });
      const zero = await manager.client.post(`/resellers/${reseller.id}/credits`, add(0));
      expect(zero.body.errors).toEqual({ credits: [HIERARCHY.minimumCreditLimit(10)] });
      const action = await manager.client.post(`/resellers/${reseller.id}/credits`, { action: 'gift', credits: 5 });
      expect(action.body.errors).toEqual({ action: [HIERARCHY.actionInvalid] });
      await updateSystemSettings(ctx.db.kysely, { minimum_credit_limit: 20 });
      try {
        const small = await manager.client.post(`/resellers/${reseller.id}/credits`, add(10));
        expect(small.body.errors).toEqual({ credits: [HIERARCHY.minimumCreditLimit(20)] });
        expect((await (await ctx.as('admin')).post(`/resellers/${reseller.id}/credits`, add(10))).status).toBe(200);
        const options = await manager.client.get(`/credit-options/allocation?user_id=${reseller.id}`);
        expect(options.body.data.options.every((o: { value: number }) => o.value >= 20)).toBe(true);
      } finally {
        await updateSystemSettings(ctx.db.kysely, { minimum_credit_limit: 0 });
      }
    });

    it('recovers paid credits; any part of an allocation takes back the whole bonus it earned', async () => {
      const admin = await ctx.as('admin');
      const m = await createManager(ctx, 100); // 120 = 100 paid + 20 bonus, one allocation
      const options = await admin.get(`/managers/${m.id}/credits/recovery-options`);
      expect(options.status).toBe(200);
      expect(options.body.data).toMatchObject({
        available_paid_credits: 100,
        bonus_credits_to_zero: 20,
        message: `${HIERARCHY.recoveryAvailable(100)} ${HIERARCHY.recoveryBonusWarning(20)}`,
      });
      expect(options.body.data.options.at(-1)).toEqual({
        value: 100,
        display_text: '100 credits (also removes 20 bonus)',
        bonus_credits: 20,
        total_credits: 120,
        share: 'All paid credits',
      });
      // The configured amounts up to the paid credits, then the shares of them, apart; each reaches
      // the one allocation, so each takes back its bonus.
      expect(options.body.data.options.map((o: { value: number; share?: string; bonus_credits: number }) => [o.value, o.share ?? null, o.bonus_credits])).toEqual([
        [10, null, 20],
        [25, null, 20],
        [50, null, 20],
        [75, '75% of the paid credits', 20],
        [100, 'All paid credits', 20],
      ]);
      expect((await admin.get(`/credit-options/recovery/${m.id}`)).body.data).toEqual(options.body.data);

      const part = await admin.post(`/managers/${m.id}/credits`, recover(40));
      expect(part.status).toBe(200);
      expect(part.body.message).toBe(HIERARCHY.creditsRecovered);
      expect(part.body.data).toMatchObject({ credits: 40, bonus_credits: 20 });
      expect(await balance(ctx, m.id)).toEqual({ credits: 60, bonus_credits: 0 });
      const tooMuch = await admin.post(`/managers/${m.id}/credits`, recover(61));
      expect(tooMuch.status).toBe(422);
      expect(tooMuch.body.errors).toEqual({ credits: [CREDITS.cannotRecover(60)], paid_credits: [CREDITS.cannotRecover(60)] });
      // The bonus comes back once: the rest of the allocation takes back nothing more.
      const all = await admin.post(`/managers/${m.id}/credits`, recover(60));
      expect(all.body.data).toMatchObject({ credits: 60, bonus_credits: 0, user: { credits: 0, bonus_credits: 0 } });
      const entries = (await entriesOf(ctx, m.id)).slice(-3);
      // Admin burns: no entry on the admin side.
      expect(entries.map((e) => [e.type, e.credits, e.bonus_credits, e.counterparty_id, e.remarks])).toEqual([
        ['RECOVERED', -40, 0, await userId(ctx, 'admin'), 'Credits recovered by admin'],
        ['RECOVERED', -20, -20, null, CREDITS.bonusTakenBack],
        ['RECOVERED', -60, 0, await userId(ctx, 'admin'), 'Credits recovered by admin'],
      ]);
      expect(
        await ctx.db.kysely
          .selectFrom('credit_transactions')
          .select('id')
          .where('user_id', '=', await userId(ctx, 'admin'))
          .execute(),
      ).toEqual([]);
      const none = await admin.get(`/managers/${m.id}/credits/recovery-options`);
      expect(none.body.data).toMatchObject({ options: [], available_paid_credits: 0, message: HIERARCHY.recoveryNone });
      expect(await lastAudit(ctx, 'credits', 'recover', m.id)).toBeTruthy();
    });

    it('a parent recovers from its child: both sides get a RECOVERED entry', async () => {
      const { manager, reseller } = await createBranch(ctx, { reseller: 30 });
      const before = await balance(ctx, manager.id);
      const res = await manager.client.post(`/resellers/${reseller.id}/credits`, recover(12));
      expect(res.status).toBe(200);
      expect(res.body.data.actor_credits).toBe(before.credits + 12);
      expect((await entriesOf(ctx, reseller.id)).at(-1)).toMatchObject({ type: 'RECOVERED', credits: -12, counterparty_id: manager.id });
      expect((await entriesOf(ctx, manager.id)).at(-1)).toMatchObject({ type: 'RECOVERED', credits: 12, counterparty_id: reseller.id });
      const notChild = await manager.client.get(`/credit-options/recovery/${(await createDealer(ctx, reseller.client)).id}`);
      expect(notChild.body.errors).toEqual({ recipient: [CREDITS.recipient] });
    });

    it('replays an Idempotency-Key: nothing moves twice, even when sent concurrently', async () => {
      const { manager, reseller } = await createBranch(ctx, { manager: 100 });
      const key = { 'idempotency-key': `k-${reseller.id}` };
      const first = await manager.client.post(`/resellers/${reseller.id}/credits`, add(10), key);
      expect(first.status).toBe(200);
      const count = (await entriesOf(ctx, reseller.id)).length;
      const again = await manager.client.post(`/resellers/${reseller.id}/credits`, add(10), key);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await entriesOf(ctx, reseller.id)).length).toBe(count);
      expect((await balance(ctx, reseller.id)).credits).toBe(10);

      const other = await manager.client.post(`/resellers/${reseller.id}/credits`, add(11), key);
      expect(other.status).toBe(422);
      expect(other.body.errors).toEqual({ idempotency_key: [HIERARCHY.idempotencyMismatch] });

      const burst = { 'idempotency-key': `burst-${reseller.id}` };
      const answers = await Promise.all(Array.from({ length: 6 }, () => manager.client.post(`/resellers/${reseller.id}/credits`, add(13), burst)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const numbers = new Set(answers.map((a) => JSON.stringify(a.body.data.transactions)));
      expect(numbers.size).toBe(1);
      expect((await balance(ctx, reseller.id)).credits).toBe(23);
    });

    it('no balance may exceed MAX_BALANCE: mints, moves and recoveries into it answer 422 errors.credits', async () => {
      const admin = await ctx.as('admin');
      const { manager, reseller, dealer } = await createBranch(ctx, { manager: 100, reseller: 50, dealer: 10 });
      const capped = { credits: [CREDITS.balanceCap(MAX_BALANCE)] };
      await setBalanceByEntry(ctx, reseller.id, MAX_BALANCE - 9);
      const entries = (await entriesOf(ctx, reseller.id)).length;
      const others = [await balance(ctx, manager.id), await balance(ctx, dealer.id)];

      const mint = await admin.post(`/resellers/${reseller.id}/credits`, add(10));
      expect(mint.status).toBe(422);
      expect(mint.body).toEqual({ message: CREDITS.balanceCap(MAX_BALANCE), errors: capped });
      const give = await manager.client.post(`/resellers/${reseller.id}/credits`, add(10));
      expect(give.body.errors).toEqual(capped);
      const recovered = await reseller.client.post(`/dealers/${dealer.id}/credits`, recover(10));
      expect(recovered.body.errors).toEqual(capped);
      expect((await entriesOf(ctx, reseller.id)).length).toBe(entries);
      expect([await balance(ctx, manager.id), await balance(ctx, dealer.id)]).toEqual(others);

      // Up to the cap is fine; spending from above it too.
      expect((await admin.post(`/resellers/${reseller.id}/credits`, add(9))).status).toBe(200);
      expect((await balance(ctx, reseller.id)).credits).toBe(MAX_BALANCE);
      expect((await admin.post(`/resellers/${reseller.id}/credits`, add(1))).body.errors).toEqual(capped);
      expect((await reseller.client.post(`/dealers/${dealer.id}/credits`, add(10))).status).toBe(200);

      // Near the 32-bit column limit (set by hand, above the cap): a clear 422, never an overflow 500.
      await setBalanceByEntry(ctx, dealer.id, 2_147_000_000);
      const huge = await admin.post(`/dealers/${dealer.id}/credits`, add(1_000_000));
      expect(huge.status).toBe(422);
      expect(huge.body.errors).toEqual(capped);
      expect((await balance(ctx, dealer.id)).credits).toBe(2_147_000_000);
      expect((await admin.post(`/dealers/${dealer.id}/credits`, recover(1_000_000))).status).toBe(200);
    });

    it('offers allocation amounts: credit levels for admin to manager, credit options otherwise', async () => {
      const admin = await ctx.as('admin');
      const m = await createManager(ctx, 100); // paid 100
      const levels = await admin.get(`/credit-options/allocation?user_id=${m.id}`);
      expect(levels.status).toBe(200);
      expect(levels.body.data).toMatchObject({ user_credits: null, min_credits: 1, max_credits: 10000 });
      expect(levels.body.data.options).toHaveLength(21);
      expect(levels.body.data.options[9]).toEqual({ value: 10, display_text: '10 credits + 2 bonus', bonus_credits: 2, total_credits: 12 });

      const r = await createReseller(ctx, m.client);
      const mine = await m.client.get(`/credit-options/allocation?user_id=${r.id}&server_id=1`);
      expect(mine.body.data).toMatchObject({ user_credits: 120, min_credits: 10, max_credits: 100, step: 1 });
      // The configured presets, then apart the amounts computed from the balance, named.
      expect(mine.body.data.options.map((o: { value: number; share?: string }) => [o.value, o.share ?? null])).toEqual([
        [10, null],
        [25, null],
        [50, null],
        [75, '75% of your balance'],
        [100, 'All your credits'],
      ]);
      expect(mine.body.data.options[0]).toEqual({ value: 10, display_text: '10 credits', bonus_credits: 0, total_credits: 10 });

      // Admin to a reseller: the credit options, uncapped (admin holds no balance).
      const adminToReseller = await admin.get(`/credit-options/allocation?user_id=${r.id}`);
      expect(adminToReseller.body.data).toMatchObject({ user_credits: null, min_credits: 10, max_credits: 10000 });
      expect(adminToReseller.body.data.options.map((o: { value: number }) => o.value)).toEqual([10, 25, 50, 100, 200, 500, 1000, 2000, 5000]);
      // Without a recipient, admin gets the offers for its own children: managers, by credit level.
      expect((await admin.get('/credit-options/allocation')).body.data.options).toEqual(levels.body.data.options);
      // A user not created yet: role names the recipient's level (admin creating a reseller).
      const forNewReseller = await admin.get('/credit-options/allocation?role=reseller');
      const values = (res: { body: { data: { options: Array<{ value: number }> } } }) => res.body.data.options.map((o) => o.value);
      expect(values(forNewReseller)).toEqual(values(adminToReseller));
      expect(values(forNewReseller)).not.toEqual(values(levels));
      expect((await admin.get('/credit-options/allocation?role=admin')).status).toBe(422);

      await putSetting(ctx.db.kysely, 'credit_options', { is_active: false });
      try {
        const fallback = await m.client.get(`/credit-options/allocation?user_id=${r.id}`);
        const values = fallback.body.data.options.map((o: { value: number }) => o.value);
        expect(values[0]).toBe(10);
        expect(values.at(-1)).toBe(100);
        expect(values).toHaveLength(19);
        const adminFallback = await admin.get(`/credit-options/allocation?user_id=${r.id}`);
        expect(adminFallback.body.data.options.at(-1).value).toBe(2000);
      } finally {
        await putSetting(ctx.db.kysely, 'credit_options', {});
      }

      // The bonus each option would get comes from the recipient server's promos.
      const m2 = await createManager(ctx, 100, { server_id: 2 });
      const r2 = await createReseller(ctx, m2.client);
      const promoOptions = await m2.client.get(`/credit-options/allocation?user_id=${r2.id}`);
      const fifty = promoOptions.body.data.options.find((o: { value: number }) => o.value === 50);
      expect(fifty).toEqual({ value: 50, display_text: '50 credits + 10 bonus', bonus_credits: 10, total_credits: 60 });
      expect((await m.client.get(`/credit-options/allocation?user_id=${r2.id}`)).status).toBe(404);
    });

    it('states the rule its bonus comes from, and a typed amount priced by it in the panel gets that bonus from the move', async () => {
      const admin = await ctx.as('admin');
      const m = await createManager(ctx, 500, { server_id: 2 });
      const levels: CreditOptionsResponse = (await admin.get(`/credit-options/allocation?user_id=${m.id}`)).body.data;
      expect(levels.bonus_rule).toEqual({ kind: 'ratio', ratio: 0.2 });
      for (const o of levels.options) expect(o.bonus_credits).toBe(bonusOf(levels.bonus_rule, o.value));
      // 37 is no level: the panel prices it with the stated rule, and the move agrees (else it refuses).
      const typed = bonusOf(levels.bonus_rule, 37);
      expect(typed).toBe(7);
      expect((await admin.post(`/managers/${m.id}/credits`, add(37, { bonus_credits: typed }))).body.data).toMatchObject({ credits: 37, bonus_credits: 7 });

      // The same promo as the first test (a duplicate changes nothing): 50 or more gives 10.
      await promo(ctx, 50, 10);
      await promo(ctx, 100, 30, 0); // inactive: not in the rule
      const r = await createReseller(ctx, m.client);
      const mine: CreditOptionsResponse = (await m.client.get(`/credit-options/allocation?user_id=${r.id}`)).body.data;
      expect(mine.bonus_rule?.kind).toBe('tiers');
      expect(mine.bonus_rule && 'tiers' in mine.bonus_rule && mine.bonus_rule.tiers.every((t) => t.credits_required !== 100)).toBe(true);
      for (const [amount, bonus] of [
        [37, 0],
        [63, 10],
      ]) {
        expect(bonusOf(mine.bonus_rule, amount)).toBe(bonus);
        const res = await m.client.post(`/resellers/${r.id}/credits`, add(amount, { bonus_credits: bonusOf(mine.bonus_rule, amount) }));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.bonus_credits).toBe(bonus);
      }

      // With the promos off the rule is none, and a typed amount earns nothing.
      await updateSystemSettings(ctx.db.kysely, { enable_promos: false });
      try {
        const off: CreditOptionsResponse = (await m.client.get(`/credit-options/allocation?user_id=${r.id}`)).body.data;
        expect(off.bonus_rule).toBeNull();
        expect((await admin.get(`/credit-options/allocation?user_id=${m.id}`)).body.data.bonus_rule).toBeNull();
      } finally {
        await updateSystemSettings(ctx.db.kysely, { enable_promos: true });
      }
    });

    it('lists a dealer recovery history and recovers one allocation once', async () => {
      const { reseller, dealer } = await createBranch(ctx, { reseller: 100 });
      const a = await reseller.client.post(`/dealers/${dealer.id}/credits`, add(30));
      await reseller.client.post(`/dealers/${dealer.id}/credits`, add(20));
      const firstId = a.body.data.transactions.find((t: { user_id: number }) => t.user_id === dealer.id).id;

      const history = await reseller.client.get(`/dealers/${dealer.id}/credits/recovery-history`);
      expect(history.status).toBe(200);
      expect(history.body.data.map((h: { credits: number; recoverable_credits: number; recovered: boolean }) => [h.credits, h.recoverable_credits, h.recovered])).toEqual(
        [
          [20, 20, false],
          [30, 30, false],
        ],
      );
      expect(history.body.data[1].from).toMatchObject({ id: reseller.id, role: 'reseller' });

      const res = await reseller.client.post(`/dealers/${dealer.id}/credits/recover-from-history`, { transaction_id: firstId });
      expect(res.status).toBe(200);
      expect(await balance(ctx, dealer.id)).toEqual({ credits: 20, bonus_credits: 0 });
      const after = await reseller.client.get(`/dealers/${dealer.id}/credits/recovery-history`);
      expect(after.body.data[1]).toMatchObject({ id: firstId, recovered: true, recoverable_credits: 0 });
      expect(typeof after.body.data[1].recovered_at).toBe('string');

      const twice = await reseller.client.post(`/dealers/${dealer.id}/credits/recover-from-history`, { transaction_id: firstId });
      expect(twice.body.errors).toEqual({ transaction_id: [HIERARCHY.historyAlreadyRecovered] });
      const foreign = (await entriesOf(ctx, reseller.id))[0].id;
      const bad = await reseller.client.post(`/dealers/${dealer.id}/credits/recover-from-history`, { transaction_id: foreign });
      expect(bad.body.errors).toEqual({ transaction_id: [HIERARCHY.historyInvalid] });
      expect(await lastAudit(ctx, 'credits', 'recover_from_history', dealer.id)).toBeTruthy();
    });

    it('recovery history counts every recovery and recovers what is left of an allocation, at most the paid balance', async () => {
      const { reseller, dealer } = await createBranch(ctx, { reseller: 200 });
      const give = async (credits: number): Promise<number> => {
        const res = await reseller.client.post(`/dealers/${dealer.id}/credits`, add(credits));
        expect(res.status).toBe(200);
        return res.body.data.transactions.find((t: { user_id: number }) => t.user_id === dealer.id).id;
      };
      const history = async () => {
        const res = await reseller.client.get(`/dealers/${dealer.id}/credits/recovery-history`);
        expect(res.status).toBe(200);
        return Object.fromEntries(
          res.body.data.map((h: { id: number; recovered: boolean; recovered_credits: number; recoverable_credits: number }) => [
            h.id,
            [h.recovered, h.recovered_credits, h.recoverable_credits],
          ]),
        );
      };
      const fromHistory = (id: number) => reseller.client.post(`/dealers/${dealer.id}/credits/recover-from-history`, { transaction_id: id });
      const a1 = await give(30);
      const a2 = await give(20);

      // A normal recovery takes back the newest allocations first; history shows it.
      expect((await reseller.client.post(`/dealers/${dealer.id}/credits`, recover(25))).status).toBe(200);
      expect(await history()).toEqual({ [a2]: [true, 20, 0], [a1]: [false, 5, 25] });
      const again = await fromHistory(a2);
      expect(again.status).toBe(422);
      expect(again.body.errors).toEqual({ transaction_id: [HIERARCHY.historyAlreadyRecovered] });
      expect(await balance(ctx, dealer.id)).toEqual({ credits: 25, bonus_credits: 0 });

      // The dealer spends 10: history offers what the paid balance allows, and recovers exactly that.
      const bought = await dealer.client.post('/accounts', { login: uniqueName('acct'), full_name: 'Spent', password: 'stbpass1', mac_address: uniqueMac(), months: 10 });
      expect(bought.status, JSON.stringify(bought.body)).toBe(201);
      expect(await history()).toEqual({ [a2]: [true, 20, 0], [a1]: [false, 5, 15] });
      const partial = await fromHistory(a1);
      expect(partial.status).toBe(200);
      expect(partial.body.data).toMatchObject({ credits: 15, user: { credits: 0 } });
      expect(await history()).toEqual({ [a2]: [true, 20, 0], [a1]: [false, 20, 0] });
      const empty = await fromHistory(a1);
      expect(empty.status).toBe(422);
      expect(empty.body.errors).toEqual({ paid_credits: [CREDITS.cannotRecover(0)] });

      // New credits make the rest of a1 recoverable; after that it is fully recovered, once.
      const a3 = await give(10);
      expect(await history()).toEqual({ [a3]: [false, 0, 10], [a2]: [true, 20, 0], [a1]: [false, 20, 10] });
      expect((await fromHistory(a1)).body.data.credits).toBe(10);
      expect(await history()).toEqual({ [a3]: [false, 0, 0], [a2]: [true, 20, 0], [a1]: [true, 30, 0] });
      expect((await fromHistory(a1)).body.errors).toEqual({ transaction_id: [HIERARCHY.historyAlreadyRecovered] });
      expect(await balance(ctx, dealer.id)).toEqual({ credits: 0, bonus_credits: 0 });
      const links = await ctx.db.kysely
        .selectFrom('allocation_recoveries')
        .select(['allocation_id', 'credits'])
        .where('allocation_id', 'in', [a1, a2, a3])
        .orderBy('id')
        .execute();
      expect(links).toEqual([
        { allocation_id: a2, credits: 20 },
        { allocation_id: a1, credits: 5 },
        { allocation_id: a1, credits: 15 },
        { allocation_id: a1, credits: 10 },
      ]);
    });

    it('a recovery takes back the newest allocations first, however many it spans', async () => {
      const { reseller, dealer } = await createBranch(ctx, { reseller: 250 });
      const given: number[] = [];
      for (let i = 0; i < 25; i++) {
        const res = await reseller.client.post(`/dealers/${dealer.id}/credits`, add(10));
        expect(res.status).toBe(200);
        given.push(res.body.data.transactions.find((t: { user_id: number }) => t.user_id === dealer.id).id);
      }
      // 225 of 250: the newest 22 allocations whole, 5 credits of the 23rd, the two oldest untouched.
      expect((await reseller.client.post(`/dealers/${dealer.id}/credits`, recover(225))).status).toBe(200);
      const links = await ctx.db.kysely
        .selectFrom('allocation_recoveries')
        .select(['allocation_id', 'credits'])
        .where('allocation_id', 'in', given)
        .orderBy('id')
        .execute();
      expect(links).toEqual([
        ...given
          .slice(3)
          .reverse()
          .map((id) => ({ allocation_id: id, credits: 10 })),
        { allocation_id: given[2], credits: 5 },
      ]);
      expect(await balance(ctx, dealer.id)).toEqual({ credits: 25, bonus_credits: 0 });
    });

    it('the migration links the recoveries already in the ledger exactly as the API links new ones', async () => {
      const db = ctx.db.kysely;
      const links = () =>
        db.selectFrom('allocation_recoveries').select(['allocation_id', 'recovery_id', 'credits']).orderBy('recovery_id').orderBy('allocation_id').execute();
      const live = await links();
      expect(live.length).toBeGreaterThan(5);
      await allocationRecoveries.down(db);
      await allocationRecoveries.up(db);
      expect(await links()).toEqual(live);
    });

    it("a move's answer counts the target's accounts, and an admin move leaves the admin's row unlocked (PostgreSQL)", async () => {
      const branch = await createBranch(ctx, { manager: 50, reseller: 20 });
      await createAccount(ctx, branch.dealer.username);
      const res = await (await ctx.as('admin')).post(`/managers/${branch.manager.id}/credits`, add(5));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.user).toMatchObject({ id: branch.manager.id, total_children: 1, total_accounts: 1 });
      if (ctx.kind !== 'postgres') return;
      const db = ctx.db.kysely;
      const adminId = await userId(ctx, 'admin');
      // While a move holds its users, another transaction can still lock the admin's row (NOWAIT fails at once otherwise), not the manager's.
      await db.transaction().execute(async (trx) => {
        await lockUsers(trx, [adminId, branch.manager.id]);
        const tryLock = (id: number) => db.transaction().execute((other) => sql`select id from users where id = ${id} for no key update nowait`.execute(other));
        await expect(tryLock(adminId)).resolves.toBeTruthy();
        await expect(tryLock(branch.manager.id)).rejects.toMatchObject({ code: '55P03' });
      });
    });
  },
  { creditOpsPerMinute: 10_000 },
);

describeEachDatabase(
  'credits: rate limit',
  (ctx) => {
    it('answers 422 errors.rate_limit past the per-actor limit; replays still answer', async () => {
      const manager = await ctx.as('manager');
      const reseller = await userId(ctx, 'reseller');
      const key = { 'idempotency-key': 'rl-1' };
      expect((await manager.post(`/resellers/${reseller}/credits`, add(10), key)).status).toBe(200);
      expect((await manager.post(`/resellers/${reseller}/credits`, add(10))).status).toBe(200);
      expect((await manager.post(`/resellers/${reseller}/credits`, recover(1))).status).toBe(200);
      const limited = await manager.post(`/resellers/${reseller}/credits`, add(10));
      expect(limited.status).toBe(422);
      expect(limited.body.errors).toEqual({ rate_limit: [CREDITS.rateLimit.description] });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await manager.post(`/resellers/${reseller}/credits`, add(10), key)).status).toBe(200);
      // Per actor: another user is not affected.
      expect((await (await ctx.as('reseller')).post(`/dealers/${await userId(ctx, 'dealer')}/credits`, add(10))).status).toBe(200);
    });
  },
  { creditOpsPerMinute: 3 },
);

describeEachDatabase('transactions', (ctx) => {
  it('lists the ledger newest first with the entry row shape and the user chain', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.get('/transactions?per_page=50');
    expect(res.status).toBe(200);
    const dates = res.body.data.map((t: { date: string }) => t.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const row = res.body.data.find(
      (t: { user: { username: string }; type: string; account: string | null }) => t.user.username === 'dealer' && t.type === 'USED' && t.account,
    );
    expect(Object.keys(row).sort()).toEqual(
      [
        'id',
        'transaction_number',
        'type',
        'credits',
        'bonus_credits',
        'account',
        'account_id',
        'coverage_start',
        'coverage_end',
        'remarks',
        'date',
        'created_at',
        'balance_before',
        'balance_after',
        'user',
        'counterparty',
        'manager',
        'reseller',
        'dealer',
      ].sort(),
    );
    expect(row).toMatchObject({
      user: { username: 'dealer', role: 'dealer' },
      manager: { id: await userId(ctx, 'manager') },
      reseller: { id: await userId(ctx, 'reseller') },
      dealer: { id: await userId(ctx, 'dealer') },
    });
    expect(typeof row.coverage_end).toBe('string');
    const legacy = await admin.get('/api/transactions?per_page=50');
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual(res.body);
    expect((await ctx.anonymous.get('/api/transactions')).status).toBe(401);
  });

  it('filters by type (legacy codes too), date range and search', async () => {
    const admin = await ctx.as('admin');
    const ids = async (query: string) => {
      const res = await admin.get(`/transactions?per_page=100&${query}`);
      expect(res.status, query).toBe(200);
      return res.body.data.map((t: { id: number }) => t.id).sort();
    };
    const purchased = await admin.get('/transactions?per_page=100&filter[type]=PURCHASED');
    expect(purchased.body.data.length).toBeGreaterThan(0);
    expect(purchased.body.data.every((t: { type: string }) => t.type === 'PURCHASED')).toBe(true);
    expect(await ids('filter[type]=CRDT')).toEqual(await ids('filter[type]=PURCHASED'));
    expect(await ids('filter[type]=DBIT')).toEqual(await ids('filter[type]=USED'));
    expect(await ids('filter[type]=RCDT')).toEqual(await ids('filter[type]=RECOVERED'));
    expect((await admin.get('/transactions?filter[type]=BOGUS')).status).toBe(422);

    const all = await ids('');
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await ids(`filter[date_from]=${today}&filter[date_to]=${today}`)).toEqual(all);
    expect(await ids(`date_from=${today}&date_to=${today}`)).toEqual(all);
    expect(await ids(`date_from=${tomorrow}`)).toEqual([]);
    expect(await ids(`filter[date_to]=${yesterday}`)).toEqual([]);
    expect((await admin.get('/transactions?date_from=not-a-date')).status).toBe(422);

    const one = purchased.body.data[0];
    expect(await ids(`filter[search]=${one.transaction_number}`)).toEqual([one.id]);
    const byLogin = await admin.get('/transactions?search=john.doe');
    expect(byLogin.body.data.length).toBeGreaterThan(0);
    expect(byLogin.body.data.every((t: { account: string | null }) => t.account === 'john.doe')).toBe(true);
    const byUser = await admin.get('/transactions?per_page=100&filter[search]=dealer2');
    expect(
      byUser.body.data.every((t: { user: { username: string }; counterparty: { username: string } | null }) =>
        [t.user.username, t.counterparty?.username].includes('dealer2'),
      ),
    ).toBe(true);
  });

  it('shows each caller the entries of its subtree, its own included', async () => {
    const dealer = await ctx.as('dealer');
    const mine = await dealer.get('/transactions?per_page=100');
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.every((t: { user: { username: string } }) => t.user.username === 'dealer')).toBe(true);

    const manager = await ctx.as('manager');
    const branch = await manager.get('/transactions?per_page=100');
    const users = new Set(branch.body.data.map((t: { user: { username: string } }) => t.user.username));
    expect([...users].sort()).toEqual(['dealer', 'manager', 'reseller']);
    const manager2 = await ctx.as('manager2');
    const other = await manager2.get('/transactions?per_page=100');
    expect(new Set(other.body.data.map((t: { user: { username: string } }) => t.user.username))).toEqual(new Set(['manager2', 'reseller2', 'dealer2']));
  });

  it('lists the entries of one manager, reseller, dealer or account', async () => {
    const admin = await ctx.as('admin');
    for (const [resource, username] of [
      ['managers', 'manager'],
      ['resellers', 'reseller'],
      ['dealers', 'dealer'],
    ]) {
      const id = await userId(ctx, username);
      const res = await admin.get(`/${resource}/${id}/transactions`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      expect(res.body.data.every((t: { user: { id: number } }) => t.user.id === id)).toBe(true);
    }
    const account = await ctx.db.kysely.selectFrom('accounts').select('id').where('login', '=', 'john.doe').executeTakeFirstOrThrow();
    const dealer = await ctx.as('dealer');
    const res = await dealer.get(`/accounts/${account.id}/transactions`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every((t: { account: string }) => t.account === 'john.doe')).toBe(true);
    const reseller = await ctx.as('reseller');
    expect((await reseller.get(`/dealers/${await userId(ctx, 'dealer')}/transactions`)).status).toBe(200);
    expect((await reseller.get(`/resellers/${await userId(ctx, 'reseller')}/transactions`)).status).toBe(403);
  });
});
