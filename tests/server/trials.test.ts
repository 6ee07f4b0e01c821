/**
 * One free trial per device (MAC) per period, across servers and branches, a
 * daily number of trials per creator, and trials inside the credit-operation rate limit.
 */
import { beforeEach, expect, it } from 'vitest';
import { ACCOUNTS, CREDITS, SYSTEM_SETTING_DEFAULTS, formatMac } from '../../src/contract';
import { newAccountRow } from '../../server/accounts/store';
import * as trialsMigration from '../../server/db/migrations/0018_trials';
import { updateSystemSettings } from '../../server/settings';
import { DAY, uniqueMac } from './accountFixtures';
import { type Client, type TestContext, describeEachDatabase } from './harness';

let logins = 0;
const trialBody = (mac: string, extra: Record<string, unknown> = {}) => {
  logins += 1;
  return { login: `trial${Date.now().toString(36)}${logins}`, full_name: `Trial ${logins}`, password: 'stbpass1', mac_address: mac, is_trial: true, ...extra };
};
const startTrial = (client: Client, mac: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  client.post('/accounts', trialBody(mac, extra), headers);

const deviceUsed = (days: number = SYSTEM_SETTING_DEFAULTS.trial_period_days) => ({ mac_address: [ACCOUNTS.trialDeviceUsed(days)] });

/** Live and deleted accounts with this MAC, and the TRIAL entries naming them. */
async function trialsOn(ctx: TestContext, mac: string) {
  const accounts = await ctx.db.kysely.selectFrom('accounts').select(['id', 'deleted_at', 'is_trial']).where('mac_address', '=', mac).execute();
  const ids = accounts.map((a) => a.id);
  const entries = ids.length
    ? await ctx.db.kysely.selectFrom('credit_transactions').select('id').where('type', '=', 'TRIAL').where('account_id', 'in', ids).execute()
    : [];
  return { accounts, live: accounts.filter((a) => a.deleted_at === null), entries };
}

/** Moves the device's stored trial back in time (what waiting out the period would do). */
async function ageTrial(ctx: TestContext, mac: string, days: number) {
  await ctx.db.kysely
    .updateTable('trial_devices')
    .set({ started_at: new Date(Date.now() - days * DAY).toISOString() })
    .where('mac_address', '=', mac)
    .execute();
}

/** Servers beyond the two seeded ones, for creations on many servers at once. */
async function extraServers(ctx: TestContext, count: number): Promise<number[]> {
  const now = new Date().toISOString();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const { id } = await ctx.db.kysely
      .insertInto('servers')
      .values({
        name: `Trial Server ${Date.now()}-${i}`,
        db_host: '127.0.0.1',
        db_name: 'stalker_db',
        db_username: 'stalker',
        db_password_enc: null,
        db_port: '3306',
        status: 'active',
        connection_status: 'online',
        last_checked_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(id);
  }
  return ids;
}

describeEachDatabase(
  'one trial per device',
  (ctx) => {
    beforeEach(async () => {
      await updateSystemSettings(ctx.db.kysely, { enable_trials: true, trial_period_days: 30, trials_per_day: 1000 });
    });

    it('create, delete, re-create on one MAC: the device keeps its one trial, in any notation', async () => {
      const dealer = await ctx.as('dealer');
      const mac = uniqueMac();
      const statuses: number[] = [];
      for (let round = 0; round < 6; round++) {
        const res = await startTrial(dealer, round % 2 ? formatMac(mac).toLowerCase() : mac);
        statuses.push(res.status);
        if (res.status === 201) {
          expect(res.body.data.is_trial).toBe(true);
          expect((await dealer.delete(`/accounts/${res.body.data.id}`)).status).toBe(204);
        } else {
          expect(res.body.errors, JSON.stringify(res.body)).toEqual(deviceUsed());
        }
      }
      expect(statuses).toEqual([201, 422, 422, 422, 422, 422]);
      const { accounts, live, entries } = await trialsOn(ctx, mac);
      expect([accounts.length, live.length, entries.length]).toEqual([1, 0, 1]);
    });

    it('15 parallel trials on one MAC, across servers, branches and roles: exactly one', async () => {
      const servers = await extraServers(ctx, 13);
      const mac = uniqueMac();
      const [admin, dealer, dealer2] = await Promise.all([ctx.as('admin'), ctx.as('dealer'), ctx.as('dealer2')]);
      const results = await Promise.all([startTrial(dealer, mac), startTrial(dealer2, mac), ...servers.map((server_id) => startTrial(admin, mac, { server_id }))]);
      const created = results.filter((r) => r.status === 201);
      expect(created, JSON.stringify(results.map((r) => [r.status, r.body]))).toHaveLength(1);
      for (const refused of results.filter((r) => r.status !== 201)) {
        expect(refused.status).toBe(422);
        expect(refused.body.errors).toEqual(deviceUsed());
      }
      const { accounts, entries } = await trialsOn(ctx, mac);
      expect([accounts.length, entries.length]).toEqual([1, 1]);
    });

    it('holds across servers and dealers of different branches; a paid account on the device is still allowed', async () => {
      const [admin, dealer, dealer2] = await Promise.all([ctx.as('admin'), ctx.as('dealer'), ctx.as('dealer2')]);
      const mac = uniqueMac();
      const first = await startTrial(dealer, mac);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.body.data.server_id).toBe(1);
      // dealer2 sells on the backup server, in another manager's branch.
      const other = await startTrial(dealer2, mac);
      expect(other.status).toBe(422);
      expect(other.body.errors).toEqual(deviceUsed());
      const byAdmin = await startTrial(admin, mac, { server_id: 2 });
      expect(byAdmin.body.errors).toEqual(deviceUsed());
      // The rule is about free trials: the device may still be sold months.
      const paid = await dealer2.post('/accounts', { ...trialBody(mac), is_trial: false, months: 1 });
      expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    });

    it('moving a trial account to another MAC frees neither device', async () => {
      const [dealer, dealer2] = await Promise.all([ctx.as('dealer'), ctx.as('dealer2')]);
      const [a, b] = [uniqueMac(), uniqueMac()];
      const trial = await startTrial(dealer, a);
      expect(trial.status).toBe(201);
      const moved = await dealer.put(`/accounts/${trial.body.data.id}`, { mac_address: b });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body.data.mac_address).toBe(formatMac(b));
      // A is free on the server now, but had its trial; B now has one.
      expect((await startTrial(dealer, a)).body.errors).toEqual(deviceUsed());
      expect((await startTrial(dealer2, b)).body.errors).toEqual(deviceUsed());
      // A trial account cannot be moved onto a device that already had a trial either.
      const c = uniqueMac();
      expect((await startTrial(dealer2, c)).status).toBe(201);
      const onto = await dealer.put(`/accounts/${trial.body.data.id}`, { mac_address: c });
      expect(onto.status).toBe(422);
      expect(onto.body.errors).toEqual(deviceUsed());
      expect((await dealer.get(`/accounts/${trial.body.data.id}`)).body.data.mac_address).toBe(formatMac(b));
    });

    it('converting (renewing) a trial does not give the device another one', async () => {
      const [dealer, dealer2] = await Promise.all([ctx.as('dealer'), ctx.as('dealer2')]);
      const mac = uniqueMac();
      const trial = await startTrial(dealer, mac);
      expect(trial.status).toBe(201);
      const renewed = await dealer.post(`/accounts/${trial.body.data.id}/credits`, { action: 'renew', months: 1 });
      expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
      expect(renewed.body.data.is_trial).toBe(false);
      expect((await startTrial(dealer2, mac)).body.errors).toEqual(deviceUsed());
      expect((await dealer.delete(`/accounts/${trial.body.data.id}`)).status).toBe(204);
      expect((await startTrial(dealer, mac)).body.errors).toEqual(deviceUsed());
    });

    it('after the period the device may have a trial again; the period is the setting', async () => {
      const [admin, dealer, dealer2] = await Promise.all([ctx.as('admin'), ctx.as('dealer'), ctx.as('dealer2')]);
      const mac = uniqueMac();
      const first = await startTrial(dealer, mac);
      expect(first.status).toBe(201);
      expect((await dealer.delete(`/accounts/${first.body.data.id}`)).status).toBe(204);

      await ageTrial(ctx, mac, 29);
      expect((await startTrial(dealer2, mac)).body.errors).toEqual(deviceUsed(30));
      await ageTrial(ctx, mac, 31);
      const again = await startTrial(dealer2, mac);
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      // ...and that trial holds the device anew.
      expect((await startTrial(dealer, mac)).body.errors).toEqual(deviceUsed(30));

      // Ten days ago: refused under 30 days, allowed once the admin sets 7.
      const other = uniqueMac();
      expect((await startTrial(dealer, other)).status).toBe(201);
      await ageTrial(ctx, other, 10);
      expect((await startTrial(dealer2, other)).body.errors).toEqual(deviceUsed(30));
      expect((await admin.put('/system-settings/trial-period-days', { trial_period_days: 60 })).status).toBe(200);
      expect((await startTrial(dealer2, other)).body.errors).toEqual(deviceUsed(60));
      expect((await admin.put('/system-settings/trial-period-days', { trial_period_days: 7 })).status).toBe(200);
      expect((await startTrial(dealer2, other)).status).toBe(201);
    });

    it('a retry with the same Idempotency-Key replays the trial instead of refusing it', async () => {
      const dealer = await ctx.as('dealer');
      const mac = uniqueMac();
      const body = trialBody(mac);
      const headers = { 'idempotency-key': `trial-${mac}` };
      const first = await dealer.post('/accounts', body, headers);
      expect(first.status).toBe(201);
      const retry = await dealer.post('/accounts', body, headers);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect((await trialsOn(ctx, mac)).accounts).toHaveLength(1);
    });
  },
  { creditOpsPerMinute: 100_000 },
);

describeEachDatabase(
  'trials per user per day',
  (ctx) => {
    beforeEach(async () => {
      await updateSystemSettings(ctx.db.kysely, { enable_trials: true, trial_period_days: 30, trials_per_day: 3 });
      await ctx.db.kysely.deleteFrom('trial_quotas').execute();
    });

    it('caps a creator at the setting per day; deleting gives nothing back; other creators count apart', async () => {
      const [dealer, dealer2] = await Promise.all([ctx.as('dealer'), ctx.as('dealer2')]);
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await startTrial(dealer, uniqueMac());
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ids.push(res.body.data.id);
      }
      const fourth = await startTrial(dealer, uniqueMac());
      expect(fourth.status).toBe(422);
      expect(fourth.body.errors).toEqual({ is_trial: [ACCOUNTS.trialDailyLimit(3)] });
      for (const id of ids) expect((await dealer.delete(`/accounts/${id}`)).status).toBe(204);
      expect((await startTrial(dealer, uniqueMac())).body.errors).toEqual({ is_trial: [ACCOUNTS.trialDailyLimit(3)] });
      // Another dealer has its own count; the dealer's paid accounts are not trials.
      expect((await startTrial(dealer2, uniqueMac())).status).toBe(201);
      expect((await dealer.post('/accounts', { ...trialBody(uniqueMac()), is_trial: false, months: 1 })).status).toBe(201);

      // The next day counts anew.
      await ctx.db.kysely
        .updateTable('trial_quotas')
        .set({ day: new Date(Date.now() - DAY).toISOString().slice(0, 10) })
        .execute();
      expect((await startTrial(dealer, uniqueMac())).status).toBe(201);
    });

    it('a refused trial (device already used) does not use up the day', async () => {
      const [dealer, dealer2] = await Promise.all([ctx.as('dealer'), ctx.as('dealer2')]);
      const used = uniqueMac();
      expect((await startTrial(dealer2, used)).status).toBe(201);
      for (let i = 0; i < 5; i++) expect((await startTrial(dealer, used)).body.errors).toEqual(deviceUsed());
      for (let i = 0; i < 3; i++) expect((await startTrial(dealer, uniqueMac())).status).toBe(201);
    });

    it('holds under 15 parallel trials of one dealer on distinct MACs: exactly the cap', async () => {
      await updateSystemSettings(ctx.db.kysely, { trials_per_day: 5 });
      const dealer = await ctx.as('dealer');
      const results = await Promise.all(Array.from({ length: 15 }, () => startTrial(dealer, uniqueMac())));
      expect(
        results.filter((r) => r.status === 201),
        JSON.stringify(results.map((r) => r.status)),
      ).toHaveLength(5);
      for (const refused of results.filter((r) => r.status !== 201)) {
        expect(refused.status).toBe(422);
        expect(refused.body.errors).toEqual({ is_trial: [ACCOUNTS.trialDailyLimit(5)] });
      }
    });

    it('0 trials per day means none, for every creator', async () => {
      const admin = await ctx.as('admin');
      expect((await admin.put('/system-settings/trials-per-day', { trials_per_day: 0 })).status).toBe(200);
      for (const username of ['dealer', 'reseller', 'dealer2']) {
        const res = await startTrial(await ctx.as(username), uniqueMac());
        expect(res.status, username).toBe(422);
        expect(res.body.errors).toEqual({ is_trial: [ACCOUNTS.trialDailyLimit(0)] });
      }
      const byAdmin = await startTrial(admin, uniqueMac(), { server_id: 1 });
      expect(byAdmin.body.errors).toEqual({ is_trial: [ACCOUNTS.trialDailyLimit(0)] });
    });
  },
  { creditOpsPerMinute: 100_000 },
);

describeEachDatabase('trials in the credit-operation rate limit', (ctx) => {
  it('the 31st credit operation in a minute is refused, trials and renewals alike', async () => {
    expect(ctx.config.creditOpsPerMinute).toBe(30);
    await updateSystemSettings(ctx.db.kysely, { enable_trials: true, trials_per_day: 1000 });
    const dealer = await ctx.as('dealer');
    const account = await ctx.db.kysely.selectFrom('accounts').select('id').where('login', '=', 'john.doe').executeTakeFirstOrThrow();
    expect((await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 })).status).toBe(200);
    for (let i = 2; i <= 30; i++) {
      const res = await startTrial(dealer, uniqueMac());
      expect(res.status, `operation ${i}: ${JSON.stringify(res.body)}`).toBe(201);
    }
    const mac = uniqueMac();
    const limited = await startTrial(dealer, mac);
    expect(limited.status).toBe(422);
    expect(limited.body.errors).toEqual({ rate_limit: [CREDITS.rateLimit.description] });
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect((await trialsOn(ctx, mac)).accounts).toHaveLength(0);
    const renewal = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
    expect(renewal.body.errors).toEqual({ rate_limit: [CREDITS.rateLimit.description] });
    // Another creator has its own budget.
    expect((await startTrial(await ctx.as('dealer2'), uniqueMac())).status).toBe(201);
  });
});

describeEachDatabase('trial history carried into the trial limits (migration 0018)', (ctx) => {
  it('the trials made before the migration keep their devices and count in the day', async () => {
    await updateSystemSettings(ctx.db.kysely, { enable_trials: true, trial_period_days: 30, trials_per_day: 1000 });
    const [dealer, dealer2] = await Promise.all([ctx.as('dealer'), ctx.as('dealer2')]);
    const [live, deleted, converted, old, paid] = [uniqueMac(), uniqueMac(), uniqueMac(), uniqueMac(), uniqueMac()];
    expect((await startTrial(dealer, live)).status).toBe(201);
    const gone = await startTrial(dealer, deleted);
    expect((await dealer.delete(`/accounts/${gone.body.data.id}`)).status).toBe(204);
    const renewed = await startTrial(dealer, converted);
    expect((await dealer.post(`/accounts/${renewed.body.data.id}/credits`, { action: 'renew', months: 1 })).status).toBe(200);
    expect((await dealer.post('/accounts', { ...trialBody(paid), is_trial: false, months: 1 })).status).toBe(201);
    // A trial account 40 days old, written before the panel kept TRIAL entries.
    const owner = await ctx.db.kysely.selectFrom('users').select(['id', 'path']).where('username', '=', 'dealer').executeTakeFirstOrThrow();
    const longAgo = new Date(Date.now() - 40 * DAY).toISOString();
    await ctx.db.kysely
      .insertInto('accounts')
      .values(
        newAccountRow({
          owner_id: owner.id,
          owner_path: owner.path,
          server_id: 1,
          login: `old${old}`,
          full_name: 'Old Trial',
          pwd_txt: 'x',
          mac_address: old,
          expiry_date: longAgo,
          status: 'active',
          is_trial: 1,
          created_at: longAgo,
        }),
      )
      .execute();

    // The database as it was before 0018, migrated again.
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await trialsMigration.down(trx);
      await trialsMigration.up(trx);
    });
    const devices = await ctx.db.kysely.selectFrom('trial_devices').select(['mac_address', 'started_at']).execute();
    const known = new Map(devices.map((d) => [d.mac_address, d.started_at]));
    expect([live, deleted, converted, old].every((mac) => known.has(mac))).toBe(true);
    expect(known.has(paid)).toBe(false);
    expect(known.get(old)).toBe(longAgo);
    const quota = await ctx.db.kysely.selectFrom('trial_quotas').select(['creator_id', 'n']).execute();
    expect(quota).toEqual([{ creator_id: owner.id, n: 3 }]);

    for (const mac of [live, deleted, converted]) expect((await startTrial(dealer2, mac)).body.errors, mac).toEqual(deviceUsed());
    expect((await startTrial(dealer2, old)).status).toBe(201);
    expect((await startTrial(dealer2, paid)).status).toBe(201);
  });
});
