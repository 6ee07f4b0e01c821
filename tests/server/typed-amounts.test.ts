/**
 * The amount that moves is exactly the amount typed or picked,
 * or nothing. A direct call is held to the rule the panel checks the field with (the contract's
 * creditAmountIssue over what the option lookups answer) and refused with the same message on the
 * same field, moving nothing; every amount the lookups offer is taken as it is.
 */
import { expect, it } from 'vitest';
import {
  CREDITS,
  CREDIT_OPTIONS_SETTING,
  type CreditAmountRules,
  type CreditOptionsResponse,
  type CreditOptionsSettings,
  HIERARCHY,
  MANAGER_ALLOCATION_MAX,
  type RecoveryOptionsResponse,
  creditAmountIssue,
  defaultCreditOptionsSettings,
} from '../../src/contract';
import { putSetting } from '../../server/settings';
import { type Client, type TestContext, describeEachDatabase } from './harness';
import { PASSWORD, balance, createBranch, createManager, createReseller, uniqueName } from './hierarchyFixtures';

const add = (credits: number) => ({ action: 'renew', credits });
const recover = (credits: number) => ({ action: 'recover', credits });

/** The Add Credits dialog's rules for a non-admin giver holding `ownPaid` paid credits (features/credits/AddCreditsDialog.tsx). */
const addRules = (data: CreditOptionsResponse, ownPaid: number): CreditAmountRules => ({
  min: data.min_credits,
  max: data.max_credits,
  step: data.step,
  balance: ownPaid,
  offered: data.options.map((o) => o.value),
});

/** The Recover dialog's rule (features/credits/RecoverCreditsDialog.tsx): 1 or more, at most the available paid credits. */
const recoverRules = (data: RecoveryOptionsResponse): CreditAmountRules => ({
  min: 1,
  balance: data.available_paid_credits,
  overBalance: (_amount, available) => CREDITS.cannotRecover(available),
});

/** Every balance and the whole ledger: a refused call leaves all of it as it was. */
async function books(ctx: TestContext) {
  const db = ctx.db.kysely;
  const users = await db.selectFrom('users').select(['id', 'credits', 'bonus_credits']).orderBy('id').execute();
  const entries = await db.selectFrom('credit_transactions').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { users, entries: Number(entries.n) };
}

async function lookup(client: Client, url: string) {
  const res = await client.get(url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Credit options in steps of 5 up to 100 (the defaults otherwise), for the off-step and over-maximum cases. */
const STEPPED: CreditOptionsSettings = { ...defaultCreditOptionsSettings(), min_credits: 10, max_credits: 100, increment_step: 5, preset_amounts: [10, 25, 50] };

async function withCreditOptions(ctx: TestContext, settings: CreditOptionsSettings, body: () => Promise<void>) {
  await putSetting(ctx.db.kysely, CREDIT_OPTIONS_SETTING, settings);
  try {
    await body();
  } finally {
    await putSetting(ctx.db.kysely, CREDIT_OPTIONS_SETTING, {});
  }
}

describeEachDatabase(
  'typed amounts: the API moves the amount as typed within the panel rules, or nothing, with the panel message',
  (ctx) => {
    /** Sends `body` and expects the refusal the panel shows under the field, with nothing moved. */
    async function refused(client: Client, url: string, body: unknown, message: string, extra: Record<string, string[]> = {}) {
      const before = await books(ctx);
      const res = await client.post(url, body);
      expect(res.status, `${url} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body).toEqual({ message, errors: { credits: [message], ...extra } });
      expect(await books(ctx)).toEqual(before);
    }

    it('Add Credits: 0, 5, 7, 9 and more than the paid credits are refused with the rule the dialog checks; every offered amount moves as it is', async () => {
      const { manager, reseller } = await createBranch(ctx, { manager: 100 });
      const url = `/resellers/${reseller.id}/credits`;
      const options: CreditOptionsResponse = await lookup(manager.client, `/credit-options/allocation?user_id=${reseller.id}`);
      const rules = addRules(options, 100);
      for (const amount of [0, 5, 7, 9, -5]) {
        expect(creditAmountIssue(amount, rules)).toBe(HIERARCHY.minimumCreditLimit(10));
        await refused(manager.client, url, add(amount), HIERARCHY.minimumCreditLimit(10));
      }
      expect(creditAmountIssue(101, rules)).toBe(CREDITS.insufficientCredits(101, 100));
      await refused(manager.client, url, add(101), CREDITS.insufficientCredits(101, 100), { paid_credits: [CREDITS.paidCredits] });
      // Bonus credits are not paid credits: 120 held, 100 paid.
      expect(await balance(ctx, manager.id)).toEqual({ credits: 120, bonus_credits: 20 });
      await refused(manager.client, url, add(120), CREDITS.insufficientCredits(120, 100), { paid_credits: [CREDITS.paidCredits] });

      // Each offered amount, then a typed one within the rules, moves exactly that (taken back after each).
      const offered = options.options.map((o) => o.value);
      expect(offered).toEqual([10, 25, 50, 75, 100]);
      for (const amount of [...offered, 11, 99]) {
        expect(creditAmountIssue(amount, rules)).toBeUndefined();
        const res = await manager.client.post(url, add(amount));
        expect(res.status, `${amount}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.data).toMatchObject({ credits: amount, bonus_credits: 0, actor_credits: 120 - amount });
        expect(await balance(ctx, reseller.id)).toEqual({ credits: amount, bonus_credits: 0 });
        expect((await manager.client.post(url, recover(amount))).status).toBe(200);
      }
    });

    it('Add Credits in steps: an amount off the step or above the maximum is refused, an offered one off the step is taken', async () => {
      await withCreditOptions(ctx, STEPPED, async () => {
        // 97 paid: the options reach "All your credits" (97, off the step) below the maximum of 100.
        const small = await createBranch(ctx, { manager: 97 });
        const url = `/resellers/${small.reseller.id}/credits`;
        const options: CreditOptionsResponse = await lookup(small.manager.client, `/credit-options/allocation?user_id=${small.reseller.id}`);
        expect(options).toMatchObject({ min_credits: 10, max_credits: 97, step: 5 });
        const rules = addRules(options, 97);
        for (const [amount, message] of [
          [5, HIERARCHY.minimumCreditLimit(10)],
          [12, CREDITS.amountStep(5)],
          [96, CREDITS.amountStep(5)],
          [98, CREDITS.insufficientCredits(98, 97)],
        ] as const) {
          expect(creditAmountIssue(amount, rules)).toBe(message);
          await refused(small.manager.client, url, add(amount), message, amount > 97 ? { paid_credits: [CREDITS.paidCredits] } : {});
        }
        const offered = options.options.map((o) => o.value);
        expect(offered).toContain(97);
        for (const amount of offered) {
          const res = await small.manager.client.post(url, add(amount));
          expect(res.status, `${amount}: ${JSON.stringify(res.body)}`).toBe(200);
          expect(res.body.data.credits).toBe(amount);
          expect((await small.manager.client.post(url, recover(amount))).status).toBe(200);
        }

        // 300 paid: the maximum, 100, is below the balance.
        const large = await createBranch(ctx, { manager: 300 });
        const largeUrl = `/resellers/${large.reseller.id}/credits`;
        const largeOptions: CreditOptionsResponse = await lookup(large.manager.client, `/credit-options/allocation?user_id=${large.reseller.id}`);
        expect(largeOptions).toMatchObject({ max_credits: 100 });
        expect(creditAmountIssue(105, addRules(largeOptions, 300))).toBe(CREDITS.maximumAmount(100));
        await refused(large.manager.client, largeUrl, add(105), CREDITS.maximumAmount(100));
        await refused(large.manager.client, largeUrl, add(300), CREDITS.maximumAmount(100));
        expect((await large.manager.client.post(largeUrl, add(100))).body.data).toMatchObject({ credits: 100 });
        expect((await large.manager.client.post(largeUrl, add(15))).body.data).toMatchObject({ credits: 15 });
      });
    });

    it("a new reseller's initial credits: the same rules and messages on its credits field, and no user is created", async () => {
      const manager = await createManager(ctx, 60);
      const options: CreditOptionsResponse = await lookup(manager.client, '/credit-options/allocation?role=reseller');
      const rules = addRules(options, 60);
      const create = (credits: number, username = uniqueName('res')) => ({ name: 'Typed', username, password: PASSWORD, credits });
      const refusedCreate = async (credits: number, message: string) => {
        const username = uniqueName('res');
        const before = await books(ctx);
        const res = await manager.client.post('/resellers', create(credits, username));
        expect(res.status, JSON.stringify(res.body)).toBe(422);
        expect(res.body).toEqual({ message, errors: { credits: [message] } });
        expect(await books(ctx)).toEqual(before);
        expect(await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()).toBeUndefined();
      };
      for (const amount of [5, 7, 9]) {
        expect(creditAmountIssue(amount, rules)).toBe(HIERARCHY.minimumCreditLimit(10));
        await refusedCreate(amount, HIERARCHY.minimumCreditLimit(10));
      }
      await refusedCreate(61, CREDITS.insufficientCredits(61, 60));
      await withCreditOptions(ctx, STEPPED, async () => {
        await refusedCreate(12, CREDITS.amountStep(5));
        // All 60 paid credits are offered (a multiple of the step either way).
        const stepped: CreditOptionsResponse = await lookup(manager.client, '/credit-options/allocation?role=reseller');
        expect(stepped.options.map((o) => o.value)).toContain(60);
      });
      // 0 gives nothing; an amount within the rules moves exactly that.
      expect((await manager.client.post('/resellers', create(0))).status).toBe(201);
      const made = await manager.client.post('/resellers', create(11));
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body.data).toMatchObject({ credits: 11, bonus_credits: 0 });
      expect(await balance(ctx, manager.id)).toEqual({ credits: 72 - 11, bonus_credits: 12 });
    });

    it("a new dealer's initial credits from its reseller: refused below the minimum, taken as typed within it", async () => {
      const { reseller } = await createBranch(ctx, { reseller: 40 });
      const create = (credits: number) => ({ name: 'Typed', username: uniqueName('dlr'), password: PASSWORD, credits });
      const before = await books(ctx);
      const low = await reseller.client.post('/dealers', create(9));
      expect(low.body).toEqual({ message: HIERARCHY.minimumCreditLimit(10), errors: { credits: [HIERARCHY.minimumCreditLimit(10)] } });
      expect(await books(ctx)).toEqual(before);
      const made = await reseller.client.post('/dealers', create(13));
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body.data.credits).toBe(13);
      expect(await balance(ctx, reseller.id)).toEqual({ credits: 27, bonus_credits: 0 });
    });

    it('Recover: any whole number from 1 to the available paid credits moves as typed; 0 and more are refused with the dialog message', async () => {
      const { manager, reseller } = await createBranch(ctx, { reseller: 60 });
      const url = `/resellers/${reseller.id}/credits`;
      const options: RecoveryOptionsResponse = await lookup(manager.client, `/resellers/${reseller.id}/credits/recovery-options`);
      expect(options.available_paid_credits).toBe(60);
      const rules = recoverRules(options);
      for (const amount of [0, -3]) {
        expect(creditAmountIssue(amount, rules)).toBe(HIERARCHY.minimumCreditLimit(1));
        await refused(manager.client, url, recover(amount), HIERARCHY.minimumCreditLimit(1));
      }
      expect(creditAmountIssue(61, rules)).toBe(CREDITS.cannotRecover(60));
      await refused(manager.client, url, recover(61), CREDITS.cannotRecover(60), { paid_credits: [CREDITS.cannotRecover(60)] });

      // 5, 7 and 9 are within a recovery's rule: each moves exactly that, and is given back.
      for (const amount of [5, 7, 9]) {
        expect(creditAmountIssue(amount, rules)).toBeUndefined();
        const res = await manager.client.post(url, recover(amount));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.credits).toBe(amount);
        expect(await balance(ctx, reseller.id)).toEqual({ credits: 60 - amount, bonus_credits: 0 });
        // Given back as 10, the least the manager may give.
        expect((await manager.client.post(url, recover(10 - amount))).status).toBe(200);
        expect((await manager.client.post(url, add(10))).status).toBe(200);
      }
      // Every offered amount is taken as it is.
      for (const option of options.options) {
        const res = await manager.client.post(url, recover(option.value));
        expect(res.status, `${option.value}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.data.credits).toBe(option.value);
        expect((await manager.client.post(url, add(option.value))).status).toBe(200);
      }
      expect(await balance(ctx, reseller.id)).toEqual({ credits: 60, bonus_credits: 0 });
    });

    it("admin keeps its own rules: any amount from 1 to a manager (with the allocation cap) or below; 0 is refused with the dialog's message", async () => {
      const admin = await ctx.as('admin');
      const manager = await createManager(ctx);
      const reseller = await createReseller(ctx, admin, 0, { manager: manager.id });
      const adminRules: CreditAmountRules = { min: 1 };
      for (const url of [`/managers/${manager.id}/credits`, `/resellers/${reseller.id}/credits`]) {
        expect(creditAmountIssue(0, adminRules)).toBe(HIERARCHY.minimumCreditLimit(1));
        await refused(admin, url, add(0), HIERARCHY.minimumCreditLimit(1));
        for (const amount of [5, 7, 9]) {
          const res = await admin.post(url, add(amount));
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.data.credits).toBe(amount);
        }
      }
      await refused(admin, `/managers/${manager.id}/credits`, add(MANAGER_ALLOCATION_MAX + 1), CREDITS.adminAllocationCap);
    });

    it('the balance rule holds against the balance as locked: two adds racing for the same paid credits, one moves and one is refused', async () => {
      const { manager, reseller } = await createBranch(ctx, { manager: 100 });
      const url = `/resellers/${reseller.id}/credits`;
      const answers = await Promise.all([manager.client.post(url, add(60)), manager.client.post(url, add(60))]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
      const loser = answers.find((a) => a.status === 422)!;
      expect(loser.body.errors).toEqual({ credits: [CREDITS.insufficientCredits(60, 40)], paid_credits: [CREDITS.paidCredits] });
      expect(await balance(ctx, reseller.id)).toEqual({ credits: 60, bonus_credits: 0 });
      expect(await balance(ctx, manager.id)).toEqual({ credits: 60, bonus_credits: 20 });
    });
  },
  { creditOpsPerMinute: 10_000 },
);
