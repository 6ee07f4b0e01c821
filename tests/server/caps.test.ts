/**
 * Limits a user above sets on a member: live accounts of its branch (created or moved in), trials its
 * branch starts per day, credits it gives per day. Enforced under bursts, set only from above, shown
 * to the member with what it uses.
 */
import { expect, it } from 'vitest';
import { FIELD_RULES } from '../../src/contract';
import { CAPS, CAP_LIMITS } from '../../src/contract';
import { updateSystemSettings } from '../../server/settings';
import { uniqueMac } from './accountFixtures';
import { type Client, describeEachDatabase } from './harness';
import { createDealer, createManager, createReseller, insertAccounts } from './hierarchyFixtures';

let n = 0;
const newAccount = (extra: Record<string, unknown> = {}) => {
  n += 1;
  return { login: `capped${Date.now().toString(36)}${n}`, full_name: `Capped ${n}`, password: 'stbpass1', mac_address: uniqueMac(), ...extra };
};
const add = (credits: number) => ({ action: 'renew', credits });

describeEachDatabase('member caps', (ctx) => {
  async function branch() {
    const manager = await createManager(ctx, 500);
    const reseller = await createReseller(ctx, manager.client, 400);
    const dealer = await createDealer(ctx, reseller.client, 0);
    const dealer2 = await createDealer(ctx, reseller.client, 0);
    return { manager, reseller, dealer, dealer2 };
  }
  const setCaps = (by: Client, id: number, caps: Record<string, unknown>) =>
    by.put(`/hierarchy/caps/${id}`, { max_accounts: null, trials_per_day: null, credits_per_day: null, ...caps });

  it("keeps a branch's live accounts within its cap, whoever below creates them, and lifts it when cleared", async () => {
    const b = await branch();
    await insertAccounts(ctx, b.dealer.id, 2);
    const set = await setCaps(b.manager.client, b.reseller.id, { max_accounts: 3 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.message).toBe(CAPS.saved(b.reseller.username));
    expect(set.body.data).toMatchObject({ caps: { max_accounts: 3 }, usage: { accounts: 2 } });

    expect((await b.dealer2.client.post('/accounts', newAccount())).status).toBe(201);
    const over = await b.dealer.client.post('/accounts', newAccount());
    expect(over.status, JSON.stringify(over.body)).toBe(409);
    expect(over.body.message).toBe(CAPS.accountsReached(b.reseller.username, 3));
    const over2 = await b.reseller.client.post('/accounts', newAccount());
    expect(over2.status).toBe(409);
    expect((await b.reseller.client.get('/hierarchy/my-caps')).body.data).toMatchObject({ caps: { max_accounts: 3 }, usage: { accounts: 3 } });

    expect((await setCaps(b.manager.client, b.reseller.id, { max_accounts: null })).status).toBe(200);
    expect((await b.dealer.client.post('/accounts', newAccount())).status).toBe(201);
  });

  it('lets exactly as many through as the cap allows when created at once', async () => {
    const b = await branch();
    await setCaps(b.reseller.client, b.dealer.id, { max_accounts: 2 });
    const results = await Promise.all(Array.from({ length: 5 }, () => b.dealer.client.post('/accounts', newAccount())));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409]);
    expect((await b.dealer.client.get('/accounts')).body.meta.total).toBe(2);
  });

  it('counts accounts moved into a capped branch, not those moved inside it', async () => {
    const b = await branch();
    const inside = await insertAccounts(ctx, b.dealer.id, 2);
    await setCaps(b.reseller.client, b.dealer2.id, { max_accounts: 1 });
    const two = await b.reseller.client.post('/accounts/move', { account_ids: inside, to_owner_id: b.dealer2.id });
    expect(two.status, JSON.stringify(two.body)).toBe(409);
    expect(two.body.message).toBe(CAPS.accountsReached(b.dealer2.username, 1));
    expect((await b.reseller.client.post('/accounts/move', { account_ids: [inside[0]], to_owner_id: b.dealer2.id })).status).toBe(200);
    // The reseller's own cap: a move between its dealers adds nothing to its branch.
    await setCaps(b.manager.client, b.reseller.id, { max_accounts: 2 });
    await setCaps(b.reseller.client, b.dealer2.id, { max_accounts: null });
    expect((await b.reseller.client.post('/accounts/move', { account_ids: [inside[1]], to_owner_id: b.dealer2.id })).status).toBe(200);
  });

  it('keeps the trials a branch starts in a day within its cap', async () => {
    const b = await branch();
    await updateSystemSettings(ctx.db.kysely, { enable_trials: true, trial_period_days: 30, trials_per_day: 1000 });
    await setCaps(b.manager.client, b.reseller.id, { trials_per_day: 2 });
    expect((await b.dealer.client.post('/accounts', newAccount({ is_trial: true }))).status).toBe(201);
    expect((await b.dealer2.client.post('/accounts', newAccount({ is_trial: true }))).status).toBe(201);
    const third = await b.dealer.client.post('/accounts', newAccount({ is_trial: true }));
    expect(third.status, JSON.stringify(third.body)).toBe(422);
    expect(third.body.errors.is_trial).toEqual([CAPS.trialsReached(b.reseller.username, 2)]);
    // Paid accounts are not trials.
    expect((await b.dealer.client.post('/accounts', newAccount())).status).toBe(201);
    expect((await b.reseller.client.get('/hierarchy/my-caps')).body.data.usage.trials_today).toBe(2);
  });

  it('keeps the credits a member gives its children in a day within its cap', async () => {
    const b = await branch();
    await setCaps(b.manager.client, b.reseller.id, { credits_per_day: 30 });
    expect((await b.reseller.client.post(`/dealers/${b.dealer.id}/credits`, add(20))).status).toBe(200);
    const over = await b.reseller.client.post(`/dealers/${b.dealer2.id}/credits`, add(20));
    expect(over.status, JSON.stringify(over.body)).toBe(422);
    expect(over.body.errors.paid_credits).toEqual([CAPS.creditsReached(30, 10)]);
    expect((await b.reseller.client.post(`/dealers/${b.dealer2.id}/credits`, add(10))).status).toBe(200);
    expect((await b.reseller.client.get('/hierarchy/my-caps')).body.data.usage.credits_given_today).toBe(30);
    // The manager giving to the capped reseller is not the reseller giving.
    expect((await b.manager.client.post(`/resellers/${b.reseller.id}/credits`, add(20))).status).toBe(200);
  });

  it('is set only from above, within the subtree, with per-field messages', async () => {
    const b = await branch();
    const other = await branch();
    expect((await setCaps(b.dealer.client, b.dealer.id, { max_accounts: 1 })).status).toBe(403);
    expect((await setCaps(b.reseller.client, b.reseller.id, { max_accounts: 1 })).status).toBe(404);
    expect((await setCaps(b.reseller.client, other.dealer.id, { max_accounts: 1 })).status).toBe(404);
    expect((await b.reseller.client.get(`/hierarchy/caps/${other.dealer.id}`)).status).toBe(404);
    expect((await b.reseller.client.get(`/hierarchy/caps/${b.manager.id}`)).status).toBe(404);
    for (const [field, value, max] of [
      ['max_accounts', -1, CAP_LIMITS.maxAccounts],
      ['trials_per_day', 'abc', CAP_LIMITS.trialsPerDay],
      ['credits_per_day', 1.5, CAP_LIMITS.creditsPerDay],
      ['max_accounts', CAP_LIMITS.maxAccounts + 1, CAP_LIMITS.maxAccounts],
    ] as const) {
      const res = await setCaps(b.reseller.client, b.dealer.id, { [field]: value });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      const label = { max_accounts: CAPS.maxAccounts, trials_per_day: CAPS.trialsPerDay, credits_per_day: CAPS.creditsPerDay }[field];
      expect(res.body.errors[field]).toEqual([FIELD_RULES.between(label, 0, max)]);
    }
    // Nothing was stored by the refusals; the audit log has the one change made.
    expect((await b.reseller.client.get(`/hierarchy/caps/${b.dealer.id}`)).body.data.caps).toEqual({ max_accounts: null, trials_per_day: null, credits_per_day: null });
    await setCaps(b.reseller.client, b.dealer.id, { credits_per_day: 0 });
    const audit = await ctx.db.kysely.selectFrom('audit_logs').selectAll().where('action', '=', 'caps').where('entity_id', '=', b.dealer.id).execute();
    expect(audit).toHaveLength(1);
  });
});
