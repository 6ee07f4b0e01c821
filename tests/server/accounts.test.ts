/** End-user accounts: create, validation, list filters, scoping per role, password masking, lifecycle calls. */
import { expect, it } from 'vitest';
import { ACCOUNTS, CREDITS, ENTITY_FORM, FIELD_RULES, HIERARCHY, RENEWAL, formatMac } from '../../src/contract';
import { addMonths } from '../../server/accounts/dates';
import { updateSystemSettings } from '../../server/settings';
import { DAY, accountIdByLogin, accountRow, balance, createAccount, entriesFor, inDays, setAccount, uniqueMac } from './accountFixtures';
import { describeEachDatabase } from './harness';

const near = (iso: string | null, expected: number, toleranceMs = 60_000) => {
  expect(iso).not.toBeNull();
  expect(Math.abs(Date.parse(iso!) - expected)).toBeLessThan(toleranceMs);
};

describeEachDatabase(
  'accounts',
  (ctx) => {
    it('a dealer creates an account bought for 3 months: charged through the ledger, shown with every field', async () => {
      const dealer = await ctx.as('dealer');
      const before = await balance(ctx, 'dealer');
      const res = await dealer.post('/accounts', {
        login: 'new.customer',
        full_name: 'New Customer',
        password: 'portal-pw',
        mac_address: '00-1a-79-ab-cd-ef',
        months: 3,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const account = res.body.data;
      expect(account).toMatchObject({
        login: 'new.customer',
        full_name: 'New Customer',
        pwd_txt: 'portal-pw',
        mac_address: '00:1A:79:AB:CD:EF',
        status: 'active',
        is_active: true,
        is_trial: false,
        is_promo: false,
        bonus_months: 0,
        validity_months: 3,
        auto_renew_months: null,
        state: 'offline',
        server_id: 1,
        server: { id: 1, name: 'Main Server' },
        owner: { username: 'dealer', role: 'dealer' },
      });
      for (const key of ['id', 'expiry_date', 'created_at', 'auto_renew_end_date', 'last_active', 'ip_address', 'connection_status']) {
        expect(account).toHaveProperty(key);
      }
      near(account.expiry_date, addMonths(new Date(), 3).getTime());
      expect(res.body.renewal).toMatchObject({ months: 3, credits: 3 });
      expect(res.body.user_credits).toBe(before.credits - 3);
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits - 3);

      const stored = await accountRow(ctx, account.id);
      expect(stored.mac_address).toBe('001A79ABCDEF');
      const [entry] = await entriesFor(ctx, account.id);
      expect(entry).toMatchObject({ type: 'USED', credits: -3, remarks: 'Renewal of new.customer for 3 months' });
      near(entry.coverage_start, Date.now());
      expect(entry.coverage_end).toBe(account.expiry_date);

      const audit = await ctx.db.kysely.selectFrom('audit_logs').selectAll().where('module', '=', 'accounts').where('entity_id', '=', account.id).execute();
      expect(audit.map((a) => a.action)).toContain('create');
      expect(JSON.stringify(audit)).not.toContain('portal-pw');
    });

    it('validates the entity form: MAC required and well-formed, password, months 1-50, expiry not in the past', async () => {
      const dealer = await ctx.as('dealer');
      const base = { login: 'form.check', full_name: 'Form Check', password: 'pw', mac_address: uniqueMac() };
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ ...base, mac_address: undefined }, 'mac_address', ENTITY_FORM.macRequired],
        [{ ...base, mac_address: '' }, 'mac_address', ENTITY_FORM.macRequired],
        [{ ...base, mac_address: '00:1A:79:00:00' }, 'mac_address', ENTITY_FORM.invalidMac],
        [{ ...base, mac_address: '00:1A:79:00:00:0G' }, 'mac_address', ENTITY_FORM.invalidMac],
        [{ ...base, password: undefined }, 'password', ENTITY_FORM.passwordRequiredAccounts],
        [{ ...base, full_name: ' ' }, 'full_name', ENTITY_FORM.nameRequired],
        [{ ...base, login: '' }, 'login', ENTITY_FORM.usernameRequired],
        [{ ...base, months: 0 }, 'months', RENEWAL.invalidMonths.description],
        [{ ...base, months: 51 }, 'months', RENEWAL.invalidMonths.description],
        [{ ...base, months: 'abc' }, 'months', RENEWAL.invalidMonths.description],
        [{ ...base, expiry_date: '2020-01-01' }, 'expiry_date', ENTITY_FORM.expiryInPast],
        [{ ...base, expiry_date: inDays(30) }, 'expiry_date', ACCOUNTS.expiryAdminOnly],
        [{ ...base, is_trial: true, months: 2 }, 'months', ACCOUNTS.trialWithMonths],
        [{ ...base, server_id: 2 }, 'server_id', HIERARCHY.serverInvalid],
      ];
      for (const [body, field, message] of cases) {
        const res = await dealer.post('/accounts', body);
        expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(422);
        expect(res.body.errors[field], JSON.stringify(res.body)).toEqual([message]);
      }
      expect(await ctx.db.kysely.selectFrom('accounts').select('id').where('login', '=', 'form.check').executeTakeFirst()).toBeUndefined();
    });

    it('admin sets an expiry directly and may pick any server; an empty account has no expiry', async () => {
      const admin = await ctx.as('admin');
      const expiry = inDays(45);
      const res = await admin.post('/accounts', {
        login: 'admin.made',
        full_name: 'Admin Made',
        password: 'x',
        mac_address: uniqueMac(),
        server_id: 2,
        expiry_date: expiry,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toMatchObject({ server_id: 2, expiry_date: expiry, pwd_txt: '********' });
      const empty = await createAccount(ctx, 'reseller');
      expect(empty.expiry_date).toBeNull();
    });

    it('refuses an expiry date that is not on the calendar instead of rolling it over', async () => {
      const admin = await ctx.as('admin');
      const account = await createAccount(ctx, 'dealer');
      for (const bad of [
        '2099-02-30',
        '2099-02-29',
        '2099-04-31',
        '2099-02-30T10:00:00Z',
        '2099-06-31T00:00:00.000Z',
        '2099-01-01T24:00:00Z',
        '2099-00-10',
        '2099-13-01',
      ]) {
        const created = await admin.post('/accounts', {
          login: `cal.${Date.now()}`,
          full_name: 'Calendar',
          password: 'x',
          mac_address: uniqueMac(),
          server_id: 1,
          expiry_date: bad,
        });
        expect(created.status, bad).toBe(422);
        expect(created.body.errors, bad).toEqual({ expiry_date: [FIELD_RULES.validDate] });
        const updated = await admin.put(`/accounts/${account.id}`, { expiry_date: bad });
        expect(updated.status, bad).toBe(422);
        expect(updated.body.errors, bad).toEqual({ expiry_date: [FIELD_RULES.validDate] });
        const autoRenew = await admin.post(`/accounts/${account.id}/auto-renew`, { months: 1, auto_renew_end_date: bad });
        expect(autoRenew.body.errors, bad).toEqual({ auto_renew_end_date: [FIELD_RULES.validDate] });
      }
      expect((await accountRow(ctx, account.id)).expiry_date).toBeNull();
      // Leap day in a leap year, and the last day of a 31-day month, are real dates.
      const leap = await admin.put(`/accounts/${account.id}`, { expiry_date: '2096-02-29' });
      expect(leap.status, JSON.stringify(leap.body)).toBe(200);
      expect(leap.body.data.expiry_date).toBe('2096-02-29T23:59:59.999Z');
      const end = await admin.put(`/accounts/${account.id}`, { expiry_date: '2099-12-31T10:30:00Z' });
      expect(end.body.data.expiry_date).toBe('2099-12-31T10:30:00.000Z');
    });

    it('refuses a MAC address already used on the same server, in any notation; another server may reuse it', async () => {
      const mac = uniqueMac();
      await createAccount(ctx, 'dealer', { mac_address: mac });
      const dotted = `${mac.slice(0, 4)}.${mac.slice(4, 8)}.${mac.slice(8)}`.toLowerCase();
      const again = await (await ctx.as('reseller')).post('/accounts', { login: 'dup.mac', full_name: 'Dup', password: 'x', mac_address: dotted });
      expect(again.status).toBe(422);
      expect(again.body.errors.mac_address).toEqual([ACCOUNTS.macTaken]);
      const other = await (await ctx.as('dealer2')).post('/accounts', { login: 'dup.mac', full_name: 'Dup', password: 'x', mac_address: dotted });
      expect(other.status, JSON.stringify(other.body)).toBe(201);
      expect(other.body.data.mac_address).toBe(formatMac(mac));
      const sameLogin = await (await ctx.as('dealer2')).post('/accounts', { login: 'dup.mac', full_name: 'Dup', password: 'x', mac_address: uniqueMac() });
      expect(sameLogin.body.errors.login).toEqual([ACCOUNTS.loginTaken]);
    });

    it('shows pwd_txt in plain text only to reseller and dealer callers', async () => {
      const id = await accountIdByLogin(ctx, 'john.doe');
      for (const [user, expected] of [
        ['admin', '********'],
        ['manager', '********'],
        ['reseller', 'stb1234'],
        ['dealer', 'stb1234'],
      ] as const) {
        const one = await (await ctx.as(user)).get(`/accounts/${id}`);
        expect(one.status).toBe(200);
        expect(one.body.data.pwd_txt, user).toBe(expected);
        const list = await (await ctx.as(user)).get('/accounts?filter[search]=john.doe');
        expect(list.body.data.find((a: { id: number }) => a.id === id).pwd_txt, user).toBe(expected);
      }
    });

    it('scopes accounts to the caller subtree: outside it every call is 404', async () => {
      const johnId = await accountIdByLogin(ctx, 'john.doe');
      const carlId = await accountIdByLogin(ctx, 'carl.r');
      const eveId = await accountIdByLogin(ctx, 'eve.m');
      const idsOf = async (user: string) => ((await (await ctx.as(user)).get('/accounts?per_page=100')).body.data as Array<{ id: number }>).map((a) => a.id);
      expect(await idsOf('dealer')).toContain(johnId);
      expect(await idsOf('dealer')).not.toContain(carlId);
      expect(await idsOf('reseller')).toEqual(expect.arrayContaining([johnId, carlId]));
      expect(await idsOf('reseller')).not.toContain(eveId);
      expect(await idsOf('manager')).toEqual(expect.arrayContaining([johnId, carlId]));
      expect(await idsOf('manager2')).toContain(eveId);
      expect(await idsOf('manager2')).not.toContain(johnId);
      expect(await idsOf('admin')).toEqual(expect.arrayContaining([johnId, carlId, eveId]));

      const before = await accountRow(ctx, johnId);
      for (const user of ['dealer2', 'reseller2', 'manager2']) {
        const client = await ctx.as(user);
        const calls = [
          client.get(`/accounts/${johnId}`),
          client.put(`/accounts/${johnId}`, { full_name: 'Hacked' }),
          client.patch(`/accounts/${johnId}`, { is_active: false }),
          client.post(`/accounts/${johnId}/credits`, { action: 'renew', months: 1 }),
          client.post(`/accounts/${johnId}/reset-device`),
          client.get(`/accounts/${johnId}/stb-info`),
          client.get(`/accounts/${johnId}/transactions`),
          client.get(`/accounts/${johnId}/messages`),
          client.post(`/accounts/${johnId}/auto-renew`, { months: 1 }),
          client.post('/accounts/bulk-suspend', { account_ids: [johnId] }),
          client.post('/accounts/bulk-renew', { account_ids: [johnId], months: 1 }),
          client.post('/accounts/bulk-message', { account_ids: [johnId], message: 'hi' }),
          client.delete(`/accounts/${johnId}`),
        ];
        for (const res of await Promise.all(calls)) expect(res.status, `${user}: ${JSON.stringify(res.body)}`).toBe(404);
      }
      // A dealer cannot reach its reseller's own account either.
      expect((await (await ctx.as('dealer')).get(`/accounts/${carlId}`)).status).toBe(404);
      expect(await accountRow(ctx, johnId)).toEqual(before);
    });

    it('lists with the expiry filters, search on login, name and MAC, status and trial filters, and sorts', async () => {
      const dealer = await ctx.as('dealer');
      const logins = async (query: string) => {
        const res = await dealer.get(`/accounts?per_page=100&${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.data as Array<{ login: string }>).map((a) => a.login);
      };
      // Seed: jane +5 days, bob -3 days, alice +40 days, john +200 days.
      expect(await logins('filter[expiry]=expired')).toEqual(['bob.jones']);
      expect(await logins('filter[expiry]=7')).toEqual(['jane.smith']);
      expect(await logins('filter[expiry]=30')).toEqual(['jane.smith']);
      expect((await logins('filter[expiry]=60')).sort()).toEqual(['alice.w', 'jane.smith']);
      expect((await logins('filter[expiry]=90')).sort()).toEqual(['alice.w', 'jane.smith']);
      expect(await logins('filter[expiry]=365')).toEqual(expect.arrayContaining(['alice.w', 'jane.smith', 'john.doe']));
      expect(await logins('filter[expiry]=365')).not.toContain('bob.jones');
      const bad = await dealer.get('/accounts?filter[expiry]=8');
      expect(bad.status).toBe(422);

      expect(await logins(`filter[expiry_date_before]=${encodeURIComponent(inDays(0))}`)).toEqual(['bob.jones']);
      expect(await logins(`filter[expiry_date_after]=${encodeURIComponent(inDays(100))}`)).toContain('john.doe');
      expect(await logins(`filter[expiry_date_after]=${encodeURIComponent(inDays(100))}`)).not.toContain('jane.smith');

      expect(await logins('filter[search]=JANE')).toEqual(['jane.smith']);
      expect(await logins('filter[search]=Alice%20Walk')).toEqual(['alice.w']);
      expect(await logins(`filter[search]=${encodeURIComponent('00:1a:79:00:00:03')}`)).toEqual(['bob.jones']);
      expect(await logins('search=001A79000002')).toEqual(['jane.smith']);

      const seeded = ['alice.w', 'bob.jones', 'jane.smith', 'john.doe'];
      const sorted = (await logins('sort=login')).filter((l) => seeded.includes(l));
      expect(sorted).toEqual(seeded);
      const desc = (await logins('sort=login&order=desc')).filter((l) => seeded.includes(l));
      expect(desc).toEqual([...seeded].reverse());
      const byExpiry = (await logins('sort=expiry_date&order=asc')).filter((l) => seeded.includes(l));
      expect(byExpiry).toEqual(['bob.jones', 'jane.smith', 'alice.w', 'john.doe']);
      for (const key of ['full_name', 'created_at']) expect((await dealer.get(`/accounts?sort=${key}`)).status).toBe(200);

      const janeId = await accountIdByLogin(ctx, 'jane.smith');
      await setAccount(ctx, janeId, { status: 'suspended' });
      expect(await logins('filter[status]=suspended')).toEqual(['jane.smith']);
      await setAccount(ctx, janeId, { status: 'active' });
      const trial = await (
        await ctx.as('dealer')
      ).post('/accounts', { login: 'trial.filter', full_name: 'Trial', password: 'x', mac_address: uniqueMac(), is_trial: true });
      expect(trial.status, JSON.stringify(trial.body)).toBe(201);
      expect(await logins('filter[is_trial]=1')).toEqual(['trial.filter']);
      const page = await dealer.get('/accounts?per_page=2&page=1&sort=login');
      expect(page.body.meta).toMatchObject({ per_page: 2, current_page: 1 });
      expect(page.body.data).toHaveLength(2);
    });

    it('updates, toggles status, resets the device, shows STB info and deletes (soft) an account', async () => {
      const dealer = await ctx.as('dealer');
      const account = await createAccount(ctx, 'dealer');
      const newMac = uniqueMac();
      const put = await dealer.put(`/accounts/${account.id}`, { full_name: 'Renamed', mac_address: newMac.toLowerCase(), password: '' });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.data).toMatchObject({ full_name: 'Renamed', mac_address: formatMac(newMac), pwd_txt: 'stbpass1' });
      // The search finds the account by its new name and MAC only (the search index follows the row).
      const found = async (term: string) =>
        (await dealer.get(`/accounts?per_page=100&filter[search]=${encodeURIComponent(term)}`)).body.data.map((a: { id: number }) => a.id);
      expect(await found('RENAMED')).toContain(account.id);
      expect(await found(String(account.full_name))).not.toContain(account.id);
      expect(await found(formatMac(newMac))).toEqual([account.id]);
      expect(await found(String(account.mac_address))).not.toContain(account.id);
      const pw = await dealer.put(`/accounts/${account.id}`, { password: 'changed' });
      expect(pw.body.data.pwd_txt).toBe('changed');
      const expiryByDealer = await dealer.put(`/accounts/${account.id}`, { expiry_date: inDays(400) });
      expect(expiryByDealer.body.errors.expiry_date).toEqual([ACCOUNTS.expiryAdminOnly]);

      const off = await dealer.patch(`/accounts/${account.id}`, { is_active: false });
      expect(off.body.data).toMatchObject({ status: 'inactive', is_active: false });
      const suspended = await dealer.patch(`/accounts/${account.id}`, { status: 'suspended' });
      expect(suspended.body.data.status).toBe('suspended');
      expect((await dealer.patch(`/accounts/${account.id}`, {})).status).toBe(422);
      await dealer.patch(`/accounts/${account.id}`, { is_active: true });

      await setAccount(ctx, account.id, {
        ip_address: '10.0.0.7',
        state: 'online',
        last_active: inDays(0),
        device_info: JSON.stringify({ stb_type: 'MAG254', serial_number: 'SN1' }),
      });
      const info = await dealer.get(`/accounts/${account.id}/stb-info`);
      expect(info.body.data).toMatchObject({ stb_type: 'MAG254', serial_number: 'SN1', ip_address: '10.0.0.7', state: 'online', mac_address: formatMac(newMac) });
      const shown = await dealer.get(`/accounts/${account.id}`);
      expect(shown.body.data).toMatchObject({ state: 'online', ip_address: '10.0.0.7' });
      const reset = await dealer.post(`/accounts/${account.id}/reset-device`);
      expect(reset.status).toBe(200);
      expect(reset.body.data).toMatchObject({ state: 'offline', ip_address: null });
      expect((await dealer.get(`/accounts/${account.id}/stb-info`)).body.data.stb_type).toBeNull();

      const del = await dealer.delete(`/accounts/${account.id}`);
      expect(del.status).toBe(204);
      expect((await dealer.get(`/accounts/${account.id}`)).status).toBe(404);
      expect((await dealer.get('/accounts?per_page=100')).body.data.map((a: { id: number }) => a.id)).not.toContain(account.id);
      expect(await found('RENAMED')).not.toContain(account.id);
      // Its MAC address is free again on the server.
      const reuse = await dealer.post('/accounts', { login: account.login, full_name: 'Again', password: 'x', mac_address: newMac });
      expect(reuse.status, JSON.stringify(reuse.body)).toBe(201);
      const actions = (await ctx.db.kysely.selectFrom('audit_logs').select('action').where('module', '=', 'accounts').where('entity_id', '=', account.id).execute()).map(
        (a) => a.action,
      );
      expect(actions).toEqual(expect.arrayContaining(['create', 'update', 'status', 'reset_device', 'delete']));
    });

    it('creates a trial account when trials are enabled and the creator holds the minimum', async () => {
      const dealer = await ctx.as('dealer');
      const body = () => ({ login: `trial${Date.now()}`, full_name: 'Trial User', password: 'x', mac_address: uniqueMac(), is_trial: true });
      await updateSystemSettings(ctx.db.kysely, { enable_trials: false });
      const off = await dealer.post('/accounts', body());
      expect(off.status).toBe(422);
      expect(off.body.errors.is_trial).toEqual([ACCOUNTS.trialsDisabled]);

      const { credits } = await balance(ctx, 'dealer');
      await updateSystemSettings(ctx.db.kysely, { enable_trials: true, minimum_credits_trial_user_creation: credits + 1, trial_days: 3 });
      const poor = await dealer.post('/accounts', body());
      expect(poor.body.errors.credits).toEqual([HIERARCHY.minimumToCreate(credits + 1, ACCOUNTS.trialWhat)]);
      // Admin is exempt from the minimum.
      expect((await (await ctx.as('admin')).post('/accounts', { ...body(), server_id: 1 })).status).toBe(201);

      await updateSystemSettings(ctx.db.kysely, { minimum_credits_trial_user_creation: credits });
      const ok = await dealer.post('/accounts', body());
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body.data.is_trial).toBe(true);
      near(ok.body.data.expiry_date, Date.now() + 3 * DAY);
      const entries = await entriesFor(ctx, ok.body.data.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ type: 'TRIAL', credits: 0 });
      expect((await balance(ctx, 'dealer')).credits).toBe(credits);
      await updateSystemSettings(ctx.db.kysely, { minimum_credits_trial_user_creation: 0, trial_days: 7 });
    });

    it('lists the ledger entries of an account, only those on balances inside the caller subtree', async () => {
      const account = await createAccount(ctx, 'dealer', { months: 2 });
      // The reseller renews the dealer's account with its own credits.
      const renew = await (await ctx.as('reseller')).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
      expect(renew.status, JSON.stringify(renew.body)).toBe(200);
      const asReseller = await (await ctx.as('reseller')).get(`/accounts/${account.id}/transactions`);
      expect(asReseller.status).toBe(200);
      expect(asReseller.body.data).toHaveLength(2);
      const row = asReseller.body.data[0];
      for (const key of ['transaction_number', 'type', 'credits', 'account', 'coverage_start', 'coverage_end', 'remarks', 'date', 'balance_before', 'balance_after']) {
        expect(row).toHaveProperty(key);
      }
      expect(row.account).toBe(account.login);
      const asDealer = await (await ctx.as('dealer')).get(`/accounts/${account.id}/transactions`);
      expect(asDealer.body.data).toHaveLength(1);
      expect(asDealer.body.data[0]).toMatchObject({ type: 'USED', credits: -2, user: { username: 'dealer' } });
    });

    it('suspends and activates in bulk, all or nothing on scope', async () => {
      const dealer = await ctx.as('dealer');
      const a = await createAccount(ctx, 'dealer');
      const b = await createAccount(ctx, 'dealer');
      const eve = await accountIdByLogin(ctx, 'eve.m');
      const outside = await dealer.post('/accounts/bulk-suspend', { account_ids: [a.id, eve] });
      expect(outside.status).toBe(404);
      expect((await accountRow(ctx, a.id)).status).toBe('active');
      const empty = await dealer.post('/accounts/bulk-suspend', { account_ids: [] });
      expect(empty.body.errors.account_ids).toEqual([ACCOUNTS.accountIdsRequired]);

      const res = await dealer.post('/accounts/bulk-suspend', { account_ids: [a.id, b.id, a.id] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.message).toBe(ACCOUNTS.bulkDone(2, 'suspended'));
      expect((await accountRow(ctx, a.id)).status).toBe('suspended');
      expect((await accountRow(ctx, b.id)).status).toBe('suspended');
      await dealer.post('/accounts/bulk-activate', { account_ids: [a.id, b.id] });
      expect((await accountRow(ctx, b.id)).status).toBe('active');
    });

    it('sends a message to the selected accounts and lists it per account', async () => {
      const dealer = await ctx.as('dealer');
      const a = await createAccount(ctx, 'dealer');
      const b = await createAccount(ctx, 'dealer');
      const res = await dealer.post('/accounts/bulk-message', { account_ids: [a.id, b.id], message: 'Maintenance tonight at 03:00' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.sent).toBe(2);
      const list = await dealer.get(`/accounts/${b.id}/messages`);
      expect(list.body.meta.total).toBe(1);
      expect(list.body.data[0]).toMatchObject({ account_id: b.id, message: 'Maintenance tonight at 03:00', sender: { username: 'dealer' } });
      const blank = await dealer.post('/accounts/bulk-message', { account_ids: [a.id], message: '  ' });
      expect(blank.body.errors.message).toEqual([ACCOUNTS.messageRequired]);
    });

    it('sets and clears auto-renew', async () => {
      const dealer = await ctx.as('dealer');
      const a = await createAccount(ctx, 'dealer', { months: 1 });
      await setAccount(ctx, a.id, { auto_renew_failed_at: inDays(-1), auto_renew_error: 'old failure' });
      const on = await dealer.post(`/accounts/${a.id}/auto-renew`, { months: 3, auto_renew_end_date: inDays(365) });
      expect(on.status, JSON.stringify(on.body)).toBe(200);
      expect(on.body.data).toMatchObject({ auto_renew_months: 3, auto_renew_failed_at: null, auto_renew_error: null });
      expect(on.body.data.auto_renew_end_date).not.toBeNull();
      expect((await dealer.post(`/accounts/${a.id}/auto-renew`, { months: 51 })).body.errors.months).toEqual([RENEWAL.invalidMonths.description]);
      expect((await dealer.post(`/accounts/${a.id}/auto-renew`, { months: 2, auto_renew_end_date: '2020-01-01' })).body.errors.auto_renew_end_date).toEqual([
        ACCOUNTS.autoRenewEndPast,
      ]);
      const off = await dealer.post(`/accounts/${a.id}/auto-renew`, { months: 0 });
      expect(off.body.data).toMatchObject({ auto_renew_months: null, auto_renew_end_date: null });
      const offNull = await dealer.post(`/accounts/${a.id}/auto-renew`, { months: null });
      expect(offNull.status).toBe(200);
    });

    it('reseller-only user search across its subtree by login, name and MAC', async () => {
      const reseller = await ctx.as('reseller');
      const byLogin = await reseller.get('/user-search?search=john');
      expect(byLogin.status).toBe(200);
      expect(byLogin.body.data.map((a: { login: string }) => a.login)).toEqual(['john.doe']);
      const byMac = await reseller.get(`/user-search?search=${encodeURIComponent('00:1A:79:00:00:05')}`);
      expect(byMac.body.data.map((a: { login: string }) => a.login)).toEqual(['carl.r']);
      const byName = await reseller.get('/user-search?search=walker&per_page=5&page=1');
      expect(byName.body.data.map((a: { login: string }) => a.login)).toEqual(['alice.w']);
      expect(byName.body.meta).toMatchObject({ total: 1, per_page: 5 });
      expect((await (await ctx.as('reseller2')).get('/user-search?search=john')).body.data).toEqual([]);
      for (const user of ['admin', 'manager', 'dealer']) expect((await (await ctx.as(user)).get('/user-search?search=john')).status).toBe(403);
    });

    it('replays a renewal sent twice with the same Idempotency-Key and refuses the key with another body', async () => {
      const dealer = await ctx.as('dealer');
      const account = await createAccount(ctx, 'dealer');
      const before = await balance(ctx, 'dealer');
      const key = `renew-${Date.now()}`;
      const first = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 2 }, { 'idempotency-key': key });
      const second = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 2 }, { 'idempotency-key': key });
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits - 2);
      expect(await entriesFor(ctx, account.id)).toHaveLength(1);
      const other = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 3 }, { 'idempotency-key': key });
      expect(other.status).toBe(422);
      expect(other.body.errors.idempotency_key).toEqual([HIERARCHY.idempotencyMismatch]);
    });

    it('refuses a renewal with the insufficient-credits message under errors.credits', async () => {
      const dealer = await ctx.as('dealer');
      const account = await createAccount(ctx, 'dealer');
      await updateSystemSettings(ctx.db.kysely, { default_credits: 1000 });
      const { credits } = await balance(ctx, 'dealer');
      const res = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
      await updateSystemSettings(ctx.db.kysely, { default_credits: 1 });
      expect(res.status).toBe(422);
      expect(res.body.errors.credits).toEqual([CREDITS.insufficientCredits(1000, credits)]);
      expect((await accountRow(ctx, account.id)).expiry_date).toBeNull();
      expect(await entriesFor(ctx, account.id)).toHaveLength(0);
    });
  },
  { creditOpsPerMinute: 10_000 },
);

describeEachDatabase(
  'account credit operations rate limit',
  (ctx) => {
    it('limits renewals per actor like every credit operation', async () => {
      const account = await createAccount(ctx, 'dealer');
      const dealer = await ctx.as('dealer');
      expect((await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 })).status).toBe(200);
      expect((await dealer.post('/accounts/bulk-renew', { account_ids: [account.id], months: 1 })).status).toBe(200);
      const third = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
      expect(third.status).toBe(422);
      expect(third.body.errors.rate_limit).toEqual([CREDITS.rateLimit.description]);
      expect(await entriesFor(ctx, account.id)).toHaveLength(2);
      // Another actor has its own budget; an account without months is no credit operation.
      expect((await (await ctx.as('reseller')).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 })).status).toBe(200);
      await createAccount(ctx, 'dealer');
    });
  },
  { creditOpsPerMinute: 2 },
);
