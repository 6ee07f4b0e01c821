/**
 * Renewal maths and pricing: extension from the current expiry or from now, calendar months,
 * default price, global discounts (uses, validity window, switch), the promo bonus period, bonus
 * credits spent first, admin renewals, recovery of unused months, and bulk renew all or nothing.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, BULK_MAX, CREDITS, RENEWAL } from '../../src/contract';
import { addMonths, inBonusPeriod, renewalStart, reverseCoverage, wholeMonthsBetween } from '../../server/accounts/dates';
import { inTransaction } from '../../server/db/transaction';
import { nowIso } from '../../server/db/values';
import { postChanges } from '../../server/ledger/post';
import { updateSystemSettings } from '../../server/settings';
import { accountRow, balance, createAccount, entriesFor, inDays, setAccount, uniqueMac, userId } from './accountFixtures';
import { type TestContext, describeEachDatabase } from './harness';
import { balance as balanceOf, createBranch, insertAccounts } from './hierarchyFixtures';

describe('calendar months', () => {
  it('adds months clamping to the last day of shorter months', () => {
    expect(addMonths(new Date('2025-01-31T10:00:00Z'), 1).toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2024-01-31T10:00:00Z'), 1).toISOString()).toBe('2024-02-29T10:00:00.000Z');
    expect(addMonths(new Date('2025-03-15T00:00:00Z'), 12).toISOString()).toBe('2026-03-15T00:00:00.000Z');
    expect(addMonths(new Date('2025-12-31T00:00:00Z'), 2).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(addMonths(new Date('2025-03-31T00:00:00Z'), -1).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });

  it('counts whole unused months', () => {
    const from = new Date('2025-01-15T00:00:00Z');
    expect(wholeMonthsBetween(from, new Date('2025-01-14T00:00:00Z'))).toBe(0);
    expect(wholeMonthsBetween(from, new Date('2025-02-14T23:59:59Z'))).toBe(0);
    expect(wholeMonthsBetween(from, new Date('2025-02-15T00:00:00Z'))).toBe(1);
    expect(wholeMonthsBetween(from, new Date('2027-01-20T00:00:00Z'))).toBe(24);
  });

  it('starts a renewal at the expiry when it is in the future, else now', () => {
    const now = new Date('2025-06-01T00:00:00Z');
    expect(renewalStart('2025-07-01T00:00:00.000Z', now).toISOString()).toBe('2025-07-01T00:00:00.000Z');
    expect(renewalStart('2025-05-01T00:00:00.000Z', now)).toBe(now);
    expect(renewalStart(null, now)).toBe(now);
  });

  it('keeps a promo account in its bonus period until one month before expiry', () => {
    const now = new Date('2025-06-01T00:00:00Z');
    expect(inBonusPeriod({ is_promo: 1, expiry_date: '2025-09-01T00:00:00.000Z' }, now)).toBe(true);
    expect(inBonusPeriod({ is_promo: 1, expiry_date: '2025-06-20T00:00:00.000Z' }, now)).toBe(false);
    expect(inBonusPeriod({ is_promo: 0, expiry_date: '2025-09-01T00:00:00.000Z' }, now)).toBe(false);
  });

  it('steps back over recorded renewals on their own calendar, so recovering undoes renewing', () => {
    const d = (iso: string) => new Date(iso);
    const renewal = { id: 1, start: d('2030-12-31T12:00:00Z'), end: d('2031-06-30T12:00:00Z'), paidBy: 'dealer' };
    const back = reverseCoverage(d('2031-06-30T12:00:00Z'), 6, [renewal]);
    expect(back.target.toISOString()).toBe('2030-12-31T12:00:00.000Z');
    expect(back.stretches).toEqual([{ paidBy: 'dealer', months: 6, liveMonths: 6, start: d('2030-12-31T12:00:00Z'), end: d('2031-06-30T12:00:00Z') }]);
    // Part of it, then the rest: still back on the 31st.
    const part = reverseCoverage(d('2031-06-30T12:00:00Z'), 2, [renewal]);
    expect(part.target.toISOString()).toBe('2031-04-30T12:00:00.000Z');
    const marker = { id: 2, start: part.target, end: d('2031-06-30T12:00:00Z'), paidBy: null };
    const rest = reverseCoverage(part.target, 4, [renewal, marker]);
    expect(rest.target.toISOString()).toBe('2030-12-31T12:00:00.000Z');
    expect(rest.stretches).toMatchObject([{ paidBy: 'dealer', months: 4, liveMonths: 4 }]);

    // Newest first over two payers, with an unpaid month on top (an admin renewal writes no entry).
    const second = { id: 3, start: d('2031-06-30T12:00:00Z'), end: d('2031-09-30T12:00:00Z'), paidBy: 'reseller' };
    const mixed = reverseCoverage(d('2031-10-30T12:00:00Z'), 5, [renewal, second]);
    expect(mixed.stretches.map((s) => [s.paidBy, s.months, s.start.toISOString()])).toEqual([
      [null, 1, '2031-09-30T12:00:00.000Z'],
      ['reseller', 3, '2031-06-30T12:00:00.000Z'],
      ['dealer', 1, '2031-05-31T12:00:00.000Z'],
    ]);
    // Months a later recovery reversed are not paid any more, whoever covered them again for free.
    const reversed = { id: 4, start: d('2031-06-30T12:00:00Z'), end: d('2031-09-30T12:00:00Z'), paidBy: null };
    expect(reverseCoverage(d('2031-09-30T12:00:00Z'), 3, [renewal, second, reversed]).stretches).toMatchObject([{ paidBy: null, months: 3 }]);
    // Nothing recorded: plain calendar months.
    expect(reverseCoverage(d('2031-03-15T00:00:00Z'), 2, []).target.toISOString()).toBe('2031-01-15T00:00:00.000Z');
  });
});

async function addDiscount(
  ctx: TestContext,
  values: Partial<{
    server_id: number;
    validity_months: number;
    credits_required: number;
    is_active: number;
    valid_from: string | null;
    valid_until: string | null;
    max_uses: number | null;
    current_uses: number;
    name: string;
  }>,
) {
  const now = nowIso();
  const row = await ctx.db.kysely
    .insertInto('global_discounts')
    .values({
      name: values.name ?? 'Test discount',
      description: null,
      server_id: values.server_id ?? 1,
      validity_months: values.validity_months ?? 12,
      credits_required: values.credits_required ?? 9,
      discount_percentage: 0,
      is_active: values.is_active ?? 1,
      valid_from: values.valid_from ?? null,
      valid_until: values.valid_until ?? null,
      max_uses: values.max_uses ?? null,
      current_uses: values.current_uses ?? 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes a user's bonus credits (a write-off entry), so paid amounts in a test are exact. */
async function dropBonus(ctx: TestContext, id: number) {
  const { bonus_credits: bonus } = await balanceOf(ctx, id);
  if (bonus === 0) return;
  await inTransaction(ctx.db.kysely, (trx) =>
    postChanges(trx, [{ userId: id, type: 'RECOVERED', credits: -bonus, bonusCredits: -bonus, remarks: 'Test: bonus removed' }], { actorId: null }),
  );
}

async function giveBonus(ctx: TestContext, id: number, bonus: number) {
  await inTransaction(ctx.db.kysely, (trx) =>
    postChanges(trx, [{ userId: id, type: 'PURCHASED', credits: bonus, bonusCredits: bonus, remarks: 'Promo bonus: test' }], { actorId: null }),
  );
}

/** A fresh manager > reseller > dealer branch holding paid credits only. */
async function paidBranch(ctx: TestContext, credits: { manager?: number; reseller?: number; dealer?: number }) {
  const branch = await createBranch(ctx, credits);
  for (const user of [branch.manager, branch.reseller, branch.dealer]) await dropBonus(ctx, user.id);
  return branch;
}

/** Every user's balance equals the sum of its entries, and no entry leaves a negative balance. */
async function ledgerHolds(ctx: TestContext, ids: number[]) {
  for (const id of ids) {
    const entries = await ctx.db.kysely.selectFrom('credit_transactions').selectAll().where('user_id', '=', id).orderBy('id').execute();
    const b = await balanceOf(ctx, id);
    expect(
      entries.reduce((sum, e) => sum + e.credits, 0),
      `user ${id}`,
    ).toBe(b.credits);
    expect(
      entries.reduce((sum, e) => sum + e.bonus_credits, 0),
      `user ${id} bonus`,
    ).toBe(b.bonus_credits);
    let previous = 0;
    for (const e of entries) {
      expect(e.balance_before).toBe(previous);
      expect(e.balance_after).toBe(e.balance_before + e.credits);
      previous = e.balance_after;
    }
  }
}

const near = (iso: string | null, expected: Date, toleranceMs = 60_000) => {
  expect(iso).not.toBeNull();
  expect(Math.abs(Date.parse(iso!) - expected.getTime())).toBeLessThan(toleranceMs);
};

describeEachDatabase(
  'renewals',
  (ctx) => {
    const renew = async (user: string, id: number, months: number) => (await ctx.as(user)).post(`/accounts/${id}/credits`, { action: 'renew', months });

    it('extends a future expiry by calendar months and charges months x default_credits', async () => {
      const account = await createAccount(ctx, 'dealer');
      const expiry = '2031-01-31T12:00:00.000Z';
      await setAccount(ctx, account.id, { expiry_date: expiry });
      const before = await balance(ctx, 'dealer');
      const res = await renew('dealer', account.id, 1);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.expiry_date).toBe('2031-02-28T12:00:00.000Z');
      expect(res.body.renewal).toMatchObject({ months: 1, credits: 1, coverage_start: expiry, coverage_end: '2031-02-28T12:00:00.000Z', discount_id: null });
      expect(res.body.message).toBe(ACCOUNTS.renewed);
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits - 1);

      await updateSystemSettings(ctx.db.kysely, { default_credits: 2 });
      const twice = await renew('dealer', account.id, 3);
      await updateSystemSettings(ctx.db.kysely, { default_credits: 1 });
      expect(twice.body.renewal.credits).toBe(6);
      expect(twice.body.data.expiry_date).toBe('2031-05-28T12:00:00.000Z');
      expect(twice.body.user_credits).toBe(before.credits - 7);
      const entries = await entriesFor(ctx, account.id);
      expect(entries.map((e) => [e.type, e.credits, e.coverage_start, e.coverage_end])).toEqual([
        ['USED', -1, expiry, '2031-02-28T12:00:00.000Z'],
        ['USED', -6, '2031-02-28T12:00:00.000Z', '2031-05-28T12:00:00.000Z'],
      ]);
    });

    it('extends an expired or empty account from now', async () => {
      const expired = await createAccount(ctx, 'dealer');
      await setAccount(ctx, expired.id, { expiry_date: inDays(-40) });
      const res = await renew('dealer', expired.id, 2);
      near(res.body.renewal.coverage_start, new Date());
      near(res.body.data.expiry_date, addMonths(new Date(), 2));

      const empty = await createAccount(ctx, 'dealer');
      expect(empty.expiry_date).toBeNull();
      const res2 = await renew('dealer', empty.id, 5);
      near(res2.body.data.expiry_date, addMonths(new Date(), 5));
    });

    it('takes months 1 to 50 only', async () => {
      const account = await createAccount(ctx, 'dealer');
      for (const months of [0, 51, -1, 1.5, 'x', null]) {
        const res = await (await ctx.as('dealer')).post(`/accounts/${account.id}/credits`, { action: 'renew', months });
        expect(res.status).toBe(422);
        expect(res.body.errors.months).toEqual([RENEWAL.invalidMonths.description]);
      }
      const res = await (await ctx.as('dealer')).post(`/accounts/${account.id}/credits`, { action: 'extend', months: 1 });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['action']);
      expect((await renew('dealer', account.id, 50)).status).toBe(200);
    });

    it('refuses what the actor cannot pay and changes nothing', async () => {
      const account = await createAccount(ctx, 'dealer2');
      const { credits } = await balance(ctx, 'dealer2');
      await updateSystemSettings(ctx.db.kysely, { default_credits: 3 });
      const res = await renew('dealer2', account.id, 50);
      await updateSystemSettings(ctx.db.kysely, { default_credits: 1 });
      expect(credits).toBeLessThan(150);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ credits: [CREDITS.insufficientCredits(150, credits)] });
      expect((await balance(ctx, 'dealer2')).credits).toBe(credits);
      expect((await accountRow(ctx, account.id)).expiry_date).toBeNull();
    });

    it('prices with a matching global discount while it has uses left, and marks the promo account', async () => {
      await updateSystemSettings(ctx.db.kysely, { global_discounts_enabled: true });
      const discountId = await addDiscount(ctx, { validity_months: 12, credits_required: 9, max_uses: 1, name: 'Year for 9' });
      const a = await createAccount(ctx, 'dealer');
      const b = await createAccount(ctx, 'dealer');
      const before = await balance(ctx, 'dealer');

      const quote = await (await ctx.as('dealer')).post('/global-discounts/calculate-credits', { server_id: 1, months: 12 });
      expect(quote.status, JSON.stringify(quote.body)).toBe(200);
      expect(quote.body.data).toMatchObject({
        credits: 9,
        discount_id: discountId,
        price_per_month: 0.75,
        regular_credits: 12,
        savings: 3,
        is_promo: true,
        bonus_months: 3,
        sufficient: true,
      });

      const first = await renew('dealer', a.id, 12);
      expect(first.body.renewal).toMatchObject({ credits: 9, discount_id: discountId });
      expect(first.body.data).toMatchObject({ is_promo: true, bonus_months: 3, validity_months: 12 });
      const used = await ctx.db.kysely.selectFrom('global_discounts').select('current_uses').where('id', '=', discountId).executeTakeFirstOrThrow();
      expect(used.current_uses).toBe(1);

      // No uses left: the regular price applies.
      const second = await renew('dealer', b.id, 12);
      expect(second.body.renewal).toMatchObject({ credits: 12, discount_id: null });
      expect(second.body.data.is_promo).toBe(false);
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits - 21);
      const after = await (await ctx.as('dealer')).post('/global-discounts/calculate-credits', { server_id: 1, months: 12 });
      expect(after.body.data).toMatchObject({ credits: 12, discount_id: null });
      // Other months never match a 12-month discount.
      const six = await (await ctx.as('dealer')).post('/global-discounts/calculate-credits', { months: 6 });
      expect(six.body.data).toMatchObject({ credits: 6, discount_id: null, server_id: 1 });
    });

    it('ignores discounts outside their validity window, inactive, of another server, or switched off', async () => {
      const cases: Array<[string, Parameters<typeof addDiscount>[1]]> = [
        ['not yet valid', { valid_from: inDays(2) }],
        ['expired', { valid_until: inDays(-1) }],
        ['inactive', { is_active: 0 }],
        ['other server', { server_id: 2 }],
        ['uses exhausted', { max_uses: 3, current_uses: 3 }],
      ];
      for (const [name, values] of cases) {
        await addDiscount(ctx, { ...values, validity_months: 7, credits_required: 2, name });
      }
      const a = await createAccount(ctx, 'dealer');
      expect((await renew('dealer', a.id, 7)).body.renewal).toMatchObject({ credits: 7, discount_id: null });

      const inWindow = await addDiscount(ctx, { validity_months: 7, credits_required: 5, valid_from: inDays(-1), valid_until: inDays(1), name: 'window' });
      await updateSystemSettings(ctx.db.kysely, { global_discounts_enabled: false });
      const off = await renew('dealer', a.id, 7);
      expect(off.body.renewal).toMatchObject({ credits: 7, discount_id: null });
      const current = await (await ctx.as('dealer')).get('/global-discounts/current-server');
      expect(current.body).toMatchObject({ data: [], enabled: false });
      await updateSystemSettings(ctx.db.kysely, { global_discounts_enabled: true });
      const b = await createAccount(ctx, 'dealer');
      expect((await renew('dealer', b.id, 7)).body.renewal).toMatchObject({ credits: 5, discount_id: inWindow });
      // 7 months for 5 credits: 2 bonus months.
      expect((await accountRow(ctx, b.id)).bonus_months).toBe(2);

      const list = await (await ctx.as('dealer')).get('/global-discounts/current-server');
      expect(list.status).toBe(200);
      const names = list.body.data.map((d: { name: string }) => d.name);
      expect(names).toContain('window');
      for (const [name] of cases) expect(names).not.toContain(name);
      expect(list.body.server).toEqual({ id: 1, name: 'Main Server' });
      expect(list.body.discounts).toEqual(list.body.data);
      const other = await (await ctx.as('dealer')).get('/global-discounts/server/2');
      expect(other.body.data.map((d: { name: string }) => d.name)).toEqual(['other server']);
      expect((await (await ctx.as('dealer')).get('/global-discounts/server/999')).status).toBe(404);
      const admin = await (await ctx.as('admin')).get('/global-discounts/current-server?server_id=2');
      expect(admin.body.server).toEqual({ id: 2, name: 'Backup Server' });
    });

    it('refuses to renew a promo account in its bonus period, until one month before expiry', async () => {
      const a = await createAccount(ctx, 'reseller');
      await setAccount(ctx, a.id, { is_promo: 1, bonus_months: 3, expiry_date: inDays(200) });
      const blocked = await renew('reseller', a.id, 1);
      expect(blocked.status).toBe(422);
      expect(blocked.body.errors.months).toEqual([ACCOUNTS.bonusPeriod]);
      await setAccount(ctx, a.id, { expiry_date: inDays(20) });
      const ok = await renew('reseller', a.id, 1);
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.data).toMatchObject({ is_promo: false, bonus_months: 0 });
    });

    it('spends bonus credits before paid ones', async () => {
      const dealerId = await userId(ctx, 'dealer');
      await inTransaction(ctx.db.kysely, (trx) =>
        postChanges(trx, [{ userId: dealerId, type: 'PURCHASED', credits: 2, bonusCredits: 2, remarks: 'Promo bonus: test' }], { actorId: null }),
      );
      const before = await balance(ctx, 'dealer');
      expect(before.bonus_credits).toBeGreaterThanOrEqual(2);
      const a = await createAccount(ctx, 'dealer');
      await renew('dealer', a.id, 3);
      const [entry] = await entriesFor(ctx, a.id);
      expect(entry).toMatchObject({ credits: -3, bonus_credits: -Math.min(before.bonus_credits, 3) });
      const after = await balance(ctx, 'dealer');
      expect(after.credits).toBe(before.credits - 3);
      expect(after.bonus_credits).toBe(Math.max(0, before.bonus_credits - 3));
    });

    it('lets admin renew without spending anything and without a ledger entry', async () => {
      const a = await createAccount(ctx, 'dealer');
      const dealerBefore = await balance(ctx, 'dealer');
      const res = await renew('admin', a.id, 4);
      expect(res.status).toBe(200);
      expect(res.body.renewal).toMatchObject({ credits: 0, transaction_number: null });
      expect(res.body.user_credits).toBeNull();
      near(res.body.data.expiry_date, addMonths(new Date(), 4));
      expect(await entriesFor(ctx, a.id)).toHaveLength(0);
      expect(await balance(ctx, 'dealer')).toEqual(dealerBefore);
      const audit = await ctx.db.kysely.selectFrom('audit_logs').select(['action', 'username']).where('entity_id', '=', a.id).where('action', '=', 'renew').execute();
      expect(audit).toEqual([{ action: 'renew', username: 'admin' }]);
    });

    it('recovers unused whole months, refunding what was paid for them, never more', async () => {
      const a = await createAccount(ctx, 'dealer', { months: 6 });
      const expiry = (await accountRow(ctx, a.id)).expiry_date!;
      const [bought6] = await entriesFor(ctx, a.id);
      const before = await balance(ctx, 'dealer');
      const tooMany = await (await ctx.as('dealer')).post(`/accounts/${a.id}/credits`, { action: 'recover', months: 7 });
      expect(tooMany.status).toBe(422);
      expect(tooMany.body.errors.months).toEqual([ACCOUNTS.recoverTooMany(5)]);

      const res = await (await ctx.as('dealer')).post(`/accounts/${a.id}/credits`, { action: 'recover', months: 2 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.message).toBe(ACCOUNTS.recovered);
      const paid6 = -(bought6.credits - bought6.bonus_credits);
      expect(res.body.renewal).toMatchObject({ months: 2, credits: Math.min(2, paid6), coverage_end: expiry });
      // Four of the six months bought stay, on the renewal's own calendar.
      expect(res.body.data.expiry_date).toBe(addMonths(new Date(bought6.coverage_start!), 4).toISOString());
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits + Math.min(2, paid6));
      const entries = await entriesFor(ctx, a.id);
      expect(entries.at(-1)).toMatchObject({ type: 'RECOVERED', credits: Math.min(2, paid6), bonus_credits: 0, account_id: a.id });

      // Bought 12 months for 9 credits: 11 months back refund their share (8.25 -> 8), not 11.
      await updateSystemSettings(ctx.db.kysely, { global_discounts_enabled: true });
      const discountId = await addDiscount(ctx, { validity_months: 12, credits_required: 9, name: 'Recover cap' });
      const b = await createAccount(ctx, 'dealer');
      await dropBonus(ctx, await userId(ctx, 'dealer'));
      const bought = await renew('dealer', b.id, 12);
      expect(bought.body.renewal.discount_id).toBe(discountId);
      await ctx.db.kysely.updateTable('global_discounts').set({ is_active: 0 }).where('id', '=', discountId).execute();
      const mid = await balance(ctx, 'dealer');
      const big = await (await ctx.as('dealer')).post(`/accounts/${b.id}/credits`, { action: 'recover', months: 11 });
      expect(big.body.renewal.credits).toBe(8);
      expect((await balance(ctx, 'dealer')).credits).toBe(mid.credits + 8);
      // An expiry set by hand inside months already taken back: shortening goes on, refunds do not.
      await setAccount(ctx, b.id, { expiry_date: inDays(70) });
      const more = await (await ctx.as('dealer')).post(`/accounts/${b.id}/credits`, { action: 'recover', months: 1 });
      expect(more.status).toBe(200);
      expect(more.body.renewal.credits).toBe(0);
      expect((await balance(ctx, 'dealer')).credits).toBe(mid.credits + 8);
      const expired = await createAccount(ctx, 'dealer');
      const none = await (await ctx.as('dealer')).post(`/accounts/${expired.id}/credits`, { action: 'recover', months: 1 });
      expect(none.body.errors.months).toEqual([ACCOUNTS.recoverTooMany(0)]);
    });

    it('refunds recovered months to the user who paid for them, not to the caller', async () => {
      const { manager, reseller, dealer } = await paidBranch(ctx, { manager: 20, reseller: 20, dealer: 30 });
      const account = (
        await dealer.client.post('/accounts', { login: `payer${Date.now()}`, full_name: 'Payer Test', password: 'stbpass1', mac_address: uniqueMac(), months: 6 })
      ).body.data;
      const after6 = await balanceOf(ctx, dealer.id);
      expect(after6.credits).toBe(24);
      const managerBefore = await balanceOf(ctx, manager.id);
      const resellerBefore = await balanceOf(ctx, reseller.id);

      const res = await manager.client.post(`/accounts/${account.id}/credits`, { action: 'recover', months: 5 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.renewal.credits).toBe(5);
      expect(await balanceOf(ctx, dealer.id)).toEqual({ credits: 29, bonus_credits: 0 });
      expect(await balanceOf(ctx, manager.id)).toEqual(managerBefore);
      expect(await balanceOf(ctx, reseller.id)).toEqual(resellerBefore);
      expect(res.body.user_credits).toBe(managerBefore.credits);
      const refund = (await entriesFor(ctx, account.id)).at(-1)!;
      expect(refund).toMatchObject({
        type: 'RECOVERED',
        user_id: dealer.id,
        credits: 5,
        bonus_credits: 0,
        account_id: account.id,
        actor_id: manager.id,
        counterparty_id: null,
      });
      expect(refund.transaction_number).toBe(res.body.renewal.transaction_number);

      // Outside the caller's subtree: 404, nothing moves.
      const other = await (await ctx.as('manager2')).post(`/accounts/${account.id}/credits`, { action: 'recover', months: 1 });
      expect(other.status).toBe(404);
      expect(await balanceOf(ctx, dealer.id)).toEqual({ credits: 29, bonus_credits: 0 });
      await ledgerHolds(ctx, [manager.id, reseller.id, dealer.id]);
    });

    it('refunds each payer its own months, newest first; months nobody paid for refund nothing', async () => {
      const { manager, reseller, dealer } = await paidBranch(ctx, { manager: 10, reseller: 20, dealer: 20 });
      const account = (await dealer.client.post('/accounts', { login: `mixed${Date.now()}`, full_name: 'Mixed Payers', password: 'stbpass1', mac_address: uniqueMac() }))
        .body.data;
      await setAccount(ctx, account.id, { expiry_date: '2031-03-15T00:00:00.000Z' });
      const start = { manager: await balanceOf(ctx, manager.id), reseller: await balanceOf(ctx, reseller.id), dealer: await balanceOf(ctx, dealer.id) };
      expect((await dealer.client.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 2 })).status).toBe(200);
      expect((await reseller.client.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 3 })).status).toBe(200);
      expect((await renew('admin', account.id, 1)).status).toBe(200);
      expect((await accountRow(ctx, account.id)).expiry_date).toBe('2031-09-15T00:00:00.000Z');
      const recover = async (months: number) => {
        const res = await manager.client.post(`/accounts/${account.id}/credits`, { action: 'recover', months });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.renewal;
      };

      // The admin's month is on top: free, so nothing comes back and no entry is written.
      const entriesBefore = (await entriesFor(ctx, account.id)).length;
      expect(await recover(1)).toMatchObject({ credits: 0, transaction_number: null, coverage_start: '2031-08-15T00:00:00.000Z' });
      expect(await entriesFor(ctx, account.id)).toHaveLength(entriesBefore);
      // Then the reseller's three months and one of the dealer's two.
      expect(await recover(4)).toMatchObject({ credits: 4, coverage_start: '2031-04-15T00:00:00.000Z' });
      const refunds = (await entriesFor(ctx, account.id)).slice(entriesBefore);
      expect(refunds.map((e) => [e.type, e.user_id, e.credits, e.coverage_start, e.coverage_end])).toEqual(
        [
          ['RECOVERED', reseller.id, 3, '2031-05-15T00:00:00.000Z', '2031-08-15T00:00:00.000Z'],
          ['RECOVERED', dealer.id, 1, '2031-04-15T00:00:00.000Z', '2031-05-15T00:00:00.000Z'],
        ].sort((x, y) => (x[1] as number) - (y[1] as number)),
      );
      expect((await balanceOf(ctx, reseller.id)).credits).toBe(start.reseller.credits);
      expect((await balanceOf(ctx, dealer.id)).credits).toBe(start.dealer.credits - 1);
      expect(await recover(1)).toMatchObject({ credits: 1 });
      // Back to the expiry nobody paid for: further months refund nothing.
      expect(await recover(1)).toMatchObject({ credits: 0, coverage_start: '2031-02-15T00:00:00.000Z' });
      expect(await balanceOf(ctx, dealer.id)).toEqual(start.dealer);
      expect(await balanceOf(ctx, reseller.id)).toEqual(start.reseller);
      expect(await balanceOf(ctx, manager.id)).toEqual(start.manager);
      await ledgerHolds(ctx, [manager.id, reseller.id, dealer.id]);
    });

    it('does not refund months again once they came back and were covered for free', async () => {
      const { manager, dealer } = await paidBranch(ctx, { dealer: 20 });
      const account = (await dealer.client.post('/accounts', { login: `twice${Date.now()}`, full_name: 'Twice', password: 'stbpass1', mac_address: uniqueMac() })).body
        .data;
      await setAccount(ctx, account.id, { expiry_date: '2031-01-10T00:00:00.000Z' });
      await dealer.client.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 6 });
      await dealer.client.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 6 });
      expect((await balanceOf(ctx, dealer.id)).credits).toBe(8);
      const recover = async (months: number) => (await manager.client.post(`/accounts/${account.id}/credits`, { action: 'recover', months })).body.renewal;
      expect(await recover(6)).toMatchObject({ credits: 6 });
      // The admin gives the same six months back for free; taking them again refunds nothing.
      await renew('admin', account.id, 6);
      expect(await recover(6)).toMatchObject({ credits: 0 });
      expect((await balanceOf(ctx, dealer.id)).credits).toBe(14);
      // The first six months are still the dealer's.
      expect(await recover(6)).toMatchObject({ credits: 6, coverage_start: '2031-01-10T00:00:00.000Z' });
      expect((await balanceOf(ctx, dealer.id)).credits).toBe(20);
      await ledgerHolds(ctx, [manager.id, dealer.id]);
    });

    it('returns only the paid part of recovered months: spent bonus credits are forfeited', async () => {
      const { reseller, dealer } = await paidBranch(ctx, { dealer: 10 });
      await giveBonus(ctx, dealer.id, 2);
      const account = (
        await dealer.client.post('/accounts', { login: `bonus${Date.now()}`, full_name: 'Bonus', password: 'stbpass1', mac_address: uniqueMac(), months: 3 })
      ).body.data;
      const [used] = await entriesFor(ctx, account.id);
      expect(used).toMatchObject({ credits: -3, bonus_credits: -2 });
      expect(await balanceOf(ctx, dealer.id)).toEqual({ credits: 9, bonus_credits: 0 });
      // The bonus paid for the first months, the paid credit for the last one.
      const last = await reseller.client.post(`/accounts/${account.id}/credits`, { action: 'recover', months: 1 });
      expect(last.body.renewal.credits).toBe(1);
      const rest = await reseller.client.post(`/accounts/${account.id}/credits`, { action: 'recover', months: 1 });
      expect(rest.status).toBe(200);
      expect(rest.body.renewal.credits).toBe(0);
      expect(await balanceOf(ctx, dealer.id)).toEqual({ credits: 10, bonus_credits: 0 });
      const refunds = (await entriesFor(ctx, account.id)).filter((e) => e.type === 'RECOVERED');
      expect(refunds.map((e) => [e.user_id, e.credits, e.bonus_credits])).toEqual([
        [dealer.id, 1, 0],
        [dealer.id, 0, 0],
      ]);
      await ledgerHolds(ctx, [reseller.id, dealer.id]);
    });

    it('recovering undoes renewing exactly, month ends included', async () => {
      const { dealer } = await paidBranch(ctx, { dealer: 30 });
      const account = (await dealer.client.post('/accounts', { login: `monthend${Date.now()}`, full_name: 'Month End', password: 'stbpass1', mac_address: uniqueMac() }))
        .body.data;
      await setAccount(ctx, account.id, { expiry_date: '2030-12-31T12:00:00.000Z' });
      const act = async (action: 'renew' | 'recover', months: number) => {
        const res = await dealer.client.post(`/accounts/${account.id}/credits`, { action, months });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.data.expiry_date;
      };
      expect(await act('renew', 6)).toBe('2031-06-30T12:00:00.000Z');
      expect(await act('recover', 6)).toBe('2030-12-31T12:00:00.000Z');
      expect(await act('renew', 6)).toBe('2031-06-30T12:00:00.000Z');
      expect(await act('recover', 2)).toBe('2031-04-30T12:00:00.000Z');
      expect(await act('recover', 4)).toBe('2030-12-31T12:00:00.000Z');
      expect(await act('renew', 2)).toBe('2031-02-28T12:00:00.000Z');
      expect(await act('renew', 1)).toBe('2031-03-28T12:00:00.000Z');
      expect(await act('recover', 3)).toBe('2030-12-31T12:00:00.000Z');
      expect((await balanceOf(ctx, dealer.id)).credits).toBe(30);
    });

    it('renews concurrently for the same payer without refusing (bonus read under the payer lock)', { timeout: 60_000 }, async () => {
      const { dealer } = await paidBranch(ctx, { dealer: 60 });
      const create = (months?: number) =>
        dealer.client.post('/accounts', {
          login: `race${Date.now()}${Math.random().toString(36).slice(2, 8)}`,
          full_name: 'Race',
          password: 'stbpass1',
          mac_address: uniqueMac(),
          ...(months ? { months } : {}),
        });
      const accounts: number[] = [];
      for (let i = 0; i < 3; i++) accounts.push((await create()).body.data.id);
      let expected = 60;
      for (let round = 0; round < 10; round++) {
        await giveBonus(ctx, dealer.id, 1);
        expected += 1;
        const single = (id: number) => dealer.client.post(`/accounts/${id}/credits`, { action: 'renew', months: 1 });
        const pair =
          round % 3 === 0
            ? [single(accounts[0]), single(accounts[1])]
            : round % 3 === 1
              ? [single(accounts[0]), dealer.client.post('/accounts/bulk-renew', { account_ids: [accounts[2]], months: 1 })]
              : [create(1), single(accounts[1])];
        const answers = await Promise.all(pair);
        expect(
          answers.map((a) => [a.status, a.body.errors ?? null]),
          `round ${round}`,
        ).toEqual([
          [round % 3 === 2 ? 201 : 200, null],
          [200, null],
        ]);
        expected -= 2;
        expect(await balanceOf(ctx, dealer.id), `round ${round}`).toEqual({ credits: expected, bonus_credits: 0 });
      }
      await ledgerHolds(ctx, [dealer.id]);
    });

    it('a discount valid until a bare date applies through the whole of that day', async () => {
      await updateSystemSettings(ctx.db.kysely, { global_discounts_enabled: true });
      const today = new Date().toISOString().slice(0, 10);
      const admin = await ctx.as('admin');
      const created = await admin.post('/global-discounts', { name: 'Ends today', server_id: 1, validity_months: 9, credits_required: 8, valid_until: today });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data.valid_until).toBe(`${today}T23:59:59.999Z`);
      const a = await createAccount(ctx, 'dealer');
      expect((await renew('dealer', a.id, 9)).body.renewal).toMatchObject({ credits: 8, discount_id: created.body.data.id });

      // A row holding the bare date (written by other means) still covers its day.
      const bare = await addDiscount(ctx, { validity_months: 11, credits_required: 10, valid_until: today, name: 'Bare date' });
      const quote = await (await ctx.as('dealer')).post('/global-discounts/calculate-credits', { server_id: 1, months: 11 });
      expect(quote.body.data).toMatchObject({ credits: 10, discount_id: bare });
      const b = await createAccount(ctx, 'dealer');
      expect((await renew('dealer', b.id, 11)).body.renewal).toMatchObject({ credits: 10, discount_id: bare });
      // Yesterday's bare date is over.
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await ctx.db.kysely.updateTable('global_discounts').set({ valid_until: yesterday }).where('id', '=', bare).execute();
      const c = await createAccount(ctx, 'dealer');
      expect((await renew('dealer', c.id, 11)).body.renewal).toMatchObject({ credits: 11, discount_id: null });
    });

    it('bulk renew is all or nothing: one unaffordable account changes nothing', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await createAccount(ctx, 'dealer2', { months: 1 })).id);
      const { credits } = await balance(ctx, 'dealer2');
      const rowsBefore = await Promise.all(ids.map((id) => accountRow(ctx, id)));
      const entriesBefore = await ctx.db.kysely.selectFrom('credit_transactions').select('id').execute();
      // Each account costs more than a third of the balance: the third one cannot be paid.
      const months = Math.min(50, Math.floor(credits / 3) + 1);
      await updateSystemSettings(ctx.db.kysely, { default_credits: Math.ceil((credits / 3 + 1) / months) });
      const price = months * Math.ceil((credits / 3 + 1) / months);
      const res = await (await ctx.as('dealer2')).post('/accounts/bulk-renew', { account_ids: ids, months });
      await updateSystemSettings(ctx.db.kysely, { default_credits: 1 });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errors.credits).toEqual([CREDITS.insufficientCredits(price * 3, credits)]);
      expect((await balance(ctx, 'dealer2')).credits).toBe(credits);
      expect(await Promise.all(ids.map((id) => accountRow(ctx, id)))).toEqual(rowsBefore);
      expect(await ctx.db.kysely.selectFrom('credit_transactions').select('id').execute()).toHaveLength(entriesBefore.length);

      // One account in its bonus period refuses the whole batch too.
      await setAccount(ctx, ids[1], { is_promo: 1, expiry_date: inDays(300) });
      const promo = await (await ctx.as('dealer2')).post('/accounts/bulk-renew', { account_ids: ids, months: 1 });
      expect(promo.status).toBe(422);
      expect(promo.body.errors.months[0]).toContain(ACCOUNTS.bonusPeriod);
      expect((await balance(ctx, 'dealer2')).credits).toBe(credits);
      await setAccount(ctx, ids[1], { is_promo: 0, expiry_date: rowsBefore[1].expiry_date });
    });

    it('bulk renew charges once per account (duplicates ignored)', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await createAccount(ctx, 'dealer', { months: 1 })).id);
      const before = await balance(ctx, 'dealer');
      const expiries = await Promise.all(ids.map(async (id) => (await accountRow(ctx, id)).expiry_date!));
      const res = await (await ctx.as('dealer')).post('/accounts/bulk-renew', { account_ids: [...ids, ids[0]], months: 2 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.message).toBe(ACCOUNTS.bulkDone(3, 'renewed'));
      expect(res.body.data.credits).toBe(6);
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits - 6);
      for (const [i, id] of ids.entries()) {
        expect((await accountRow(ctx, id)).expiry_date).toBe(addMonths(new Date(expiries[i]), 2).toISOString());
        expect((await entriesFor(ctx, id)).filter((e) => e.type === 'USED')).toHaveLength(2);
      }
      // The message the Bulk Renew field shows for the same months (one contract rule).
      for (const months of [0, 51, 1.5, '2.5', null]) {
        const refused = await (await ctx.as('dealer')).post('/accounts/bulk-renew', { account_ids: ids, months });
        expect(refused.status, JSON.stringify(months)).toBe(422);
        expect(refused.body.errors.months).toEqual([RENEWAL.invalidMonths.description]);
      }
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits - 6);
    });

    it(`bulk renews ${BULK_MAX} accounts in one call, all or nothing, one entry each`, async () => {
      const price = BULK_MAX; // one month at the default price of 1 credit
      const branch = await paidBranch(ctx, { dealer: price + price / 2 });
      const ids = await insertAccounts(ctx, branch.dealer.id, BULK_MAX);
      const res = await branch.dealer.client.post('/accounts/bulk-renew', { account_ids: ids, months: 1 });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      expect(res.body.message).toBe(ACCOUNTS.bulkDone(BULK_MAX, 'renewed'));
      expect(res.body.data.credits).toBe(price);
      expect(res.body.data.accounts).toHaveLength(BULK_MAX);
      expect(new Set(res.body.data.renewals.map((r: { transaction_number: string }) => r.transaction_number)).size).toBe(BULK_MAX);
      expect((await balanceOf(ctx, branch.dealer.id)).credits).toBe(price / 2);
      const used = await ctx.db.kysely
        .selectFrom('credit_transactions')
        .select(['account_id', 'credits'])
        .where('user_id', '=', branch.dealer.id)
        .where('type', '=', 'USED')
        .execute();
      expect(used).toHaveLength(BULK_MAX);
      expect(new Set(used.map((e) => e.account_id))).toEqual(new Set(ids));
      await ledgerHolds(ctx, [branch.dealer.id]);

      // The same again cannot be paid: nothing changes, not even the accounts that could have been.
      const expiries = await ctx.db.kysely.selectFrom('accounts').select('expiry_date').where('id', 'in', ids).orderBy('id').execute();
      const refused = await branch.dealer.client.post('/accounts/bulk-renew', { account_ids: ids, months: 1 });
      expect(refused.status).toBe(422);
      expect(refused.body.errors.credits).toEqual([CREDITS.insufficientCredits(price, price / 2)]);
      expect(await ctx.db.kysely.selectFrom('accounts').select('expiry_date').where('id', 'in', ids).orderBy('id').execute()).toEqual(expiries);
      expect((await balanceOf(ctx, branch.dealer.id)).credits).toBe(price / 2);

      // Paid for this time, but the last account is in its bonus period: not one of the others changes either.
      await ctx.db.kysely.updateTable('accounts').set({ expiry_date: null }).where('id', 'in', ids).execute();
      await inTransaction(ctx.db.kysely, (trx) =>
        postChanges(trx, [{ userId: branch.dealer.id, type: 'PURCHASED', credits: price, remarks: 'Test: credits' }], { actorId: null }),
      );
      await setAccount(ctx, ids[BULK_MAX - 1], { is_promo: 1, expiry_date: inDays(300) });
      const promo = await branch.dealer.client.post('/accounts/bulk-renew', { account_ids: ids, months: 1 });
      expect(promo.status).toBe(422);
      expect(promo.body.errors.months[0]).toContain(ACCOUNTS.bonusPeriod);
      const unrenewed = await ctx.db.kysely.selectFrom('accounts').select('id').where('id', 'in', ids).where('expiry_date', 'is', null).execute();
      expect(unrenewed).toHaveLength(BULK_MAX - 1);
      expect((await balanceOf(ctx, branch.dealer.id)).credits).toBe(price / 2 + price);
      await ledgerHolds(ctx, [branch.dealer.id]);

      const tooMany = await branch.dealer.client.post('/accounts/bulk-renew', { account_ids: [...ids, ids[0] + BULK_MAX * 10], months: 1 });
      expect(tooMany.status).toBe(422);
      expect(tooMany.body.errors.account_ids).toEqual([ACCOUNTS.bulkTooMany(BULK_MAX)]);
    });

    it('keeps every balance equal to the sum of its ledger entries', async () => {
      for (const username of ['dealer', 'dealer2', 'reseller', 'manager']) {
        const id = await userId(ctx, username);
        const sum = await ctx.db.kysely
          .selectFrom('credit_transactions')
          .select((eb) => [
            eb.fn.coalesce(eb.fn.sum<number>('credits'), eb.lit(0)).as('credits'),
            eb.fn.coalesce(eb.fn.sum<number>('bonus_credits'), eb.lit(0)).as('bonus'),
          ])
          .where('user_id', '=', id)
          .executeTakeFirstOrThrow();
        const b = await balance(ctx, username);
        expect(Number(sum.credits), username).toBe(b.credits);
        expect(Number(sum.bonus), username).toBe(b.bonus_credits);
      }
    });
  },
  { creditOpsPerMinute: 10_000 },
);
