/**
 * The `ministra` driver against the MariaDB on 127.0.0.1:3306: every run builds a database of its
 * own holding Ministra 5.x's `users` table (shared/notes/middleware.md) and points a server at it.
 * Accounts created, renewed, recovered, suspended, activated, edited, reset and deleted through the
 * API land in that table; MAC checks and creation see subscribers only the middleware holds; a server
 * that cannot be reached or that refuses a write costs no credit and changes nothing; the import
 * command adopts the middleware's subscribers. Skipped with the reason printed when no MariaDB
 * answers; CI sets REQUIRE_MARIADB=true so a missing one fails instead.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import mysql, { type Connection, type RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNTS, plural } from '../../src/contract';
import { Provisioners } from '../../server/provisioning';
import { applyImport, planImport } from '../../server/provisioning/import';
import { checkServer } from '../../server/provisioning/check';
import { accountRow, balance, entriesFor, uniqueMac } from './accountFixtures';
import { closedPort, describeEachDatabase, userId } from './harness';
import { MARIADB, USERS_TABLE, mariadbAdmin } from './ministraFixtures';

const admin = await mariadbAdmin('the Ministra driver tests');

type Subscriber = RowDataPacket & Record<string, any>;

const colonMac = (bare: string) => bare.match(/.{2}/g)!.join(':');
const epoch = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

if (admin) {
  afterAll(async () => admin.end());

  describeEachDatabase('ministra driver', (ctx) => {
    const database = `ministra_${randomBytes(5).toString('hex')}`;
    let serverId = 0;
    let deadServerId = 0;
    let middleware: Connection;
    let serial = 0;

    const subscriber = async (where: string, value: unknown): Promise<Subscriber | undefined> => {
      const [rows] = await middleware.query<Subscriber[]>(
        `SELECT *, UNIX_TIMESTAMP(expire_billing_date) AS expiry_epoch, MD5(CONCAT(MD5('stbpass1'), id)) AS default_hash FROM users WHERE ${where} = ?`,
        [value],
      );
      return rows[0];
    };
    const createOn = async (username: string, extra: Record<string, unknown> = {}) => {
      serial += 1;
      return (await ctx.as(username)).post('/accounts', {
        login: `stb${serial}${randomBytes(2).toString('hex')}`,
        full_name: `Box Owner ${serial}`,
        password: 'stbpass1',
        mac_address: uniqueMac(),
        server_id: serverId,
        months: 1,
        ...extra,
      });
    };
    const create = async (username = 'dealer', extra: Record<string, unknown> = {}) => {
      const res = await createOn(username, extra);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data as { id: number; login: string; full_name: string; mac_address: string; expiry_date: string };
    };

    beforeAll(async () => {
      await admin.query(`CREATE DATABASE \`${database}\``);
      middleware = await mysql.createConnection({ ...MARIADB, database });
      await middleware.query(USERS_TABLE);
      const root = await ctx.as('admin');
      const made = await root.post('/servers', { name: 'Ministra', driver: 'ministra', db_host: '127.0.0.1', db_port: 3306, db_username: 'root', db_name: database });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body.data.driver).toBe('ministra');
      serverId = made.body.data.id;
      const dead = await root.post('/servers', {
        name: 'Ministra down',
        driver: 'ministra',
        db_host: '127.0.0.1',
        db_port: await closedPort(),
        db_username: 'root',
        db_name: database,
      });
      deadServerId = dead.body.data.id;
      // The demo branch (manager > reseller > dealer) works on the Ministra server.
      await ctx.db.kysely.updateTable('users').set({ server_id: serverId }).where('username', '=', 'manager').execute();
    });
    afterAll(async () => {
      await middleware?.end();
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    });

    it("creates the subscriber: login, fname, colon-separated MAC, status 0, expiry and Ministra's password hash", async () => {
      const account = await create('dealer', { mac_address: '02-1a-79-aa-bb-01' });
      const row = await subscriber('login', account.login);
      expect(row).toBeDefined();
      expect(row).toMatchObject({ fname: account.full_name, mac: '02:1A:79:AA:BB:01', status: 0 });
      expect(Number(row!.expiry_epoch)).toBe(epoch(account.expiry_date));
      expect(row!.password).toBe(row!.default_hash);
      expect((await accountRow(ctx, account.id)).middleware_id).toBe(row!.id);
    });

    it('renewal moves expire_billing_date; recovery moves it back', async () => {
      const account = await create();
      const dealer = await ctx.as('dealer');
      const renewed = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 3 });
      expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
      let row = await subscriber('login', account.login);
      expect(Number(row!.expiry_epoch)).toBe(epoch(renewed.body.data.expiry_date));
      const recovered = await dealer.post(`/accounts/${account.id}/credits`, { action: 'recover', months: 2 });
      expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
      row = await subscriber('login', account.login);
      expect(Number(row!.expiry_epoch)).toBe(epoch(recovered.body.data.expiry_date));
    });

    it("bulk renewal moves every subscriber's expiry in one call", async () => {
      const accounts = [await create(), await create(), await create()];
      const res = await (await ctx.as('dealer')).post('/accounts/bulk-renew', { account_ids: accounts.map((a) => a.id), months: 1 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const after of res.body.data.accounts) {
        expect(Number((await subscriber('login', after.login))!.expiry_epoch)).toBe(epoch(after.expiry_date));
      }
    });

    it('suspend and activate, single and bulk, flip the inverted status', async () => {
      const [a, b] = [await create(), await create()];
      const dealer = await ctx.as('dealer');
      expect((await dealer.patch(`/accounts/${a.id}`, { status: 'suspended' })).status).toBe(200);
      expect((await subscriber('login', a.login))!.status).toBe(1);
      expect((await dealer.patch(`/accounts/${a.id}`, { status: 'active' })).status).toBe(200);
      expect((await subscriber('login', a.login))!.status).toBe(0);
      expect((await dealer.post('/accounts/bulk-suspend', { account_ids: [a.id, b.id] })).status).toBe(200);
      expect([(await subscriber('login', a.login))!.status, (await subscriber('login', b.login))!.status]).toEqual([1, 1]);
      expect((await dealer.post('/accounts/bulk-activate', { account_ids: [a.id, b.id] })).status).toBe(200);
      expect([(await subscriber('login', a.login))!.status, (await subscriber('login', b.login))!.status]).toEqual([0, 0]);
    });

    it('an edit carries login, name, MAC and password to the subscriber', async () => {
      const account = await create();
      const mac = uniqueMac();
      const res = await (
        await ctx.as('dealer')
      ).put(`/accounts/${account.id}`, { full_name: 'Renamed Owner', mac_address: mac, password: 'newpass9', login: `${account.login}x` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const row = await subscriber('login', `${account.login}x`);
      expect(row).toMatchObject({ fname: 'Renamed Owner', mac: colonMac(mac) });
      const [[hash]] = await middleware.query<Subscriber[]>("SELECT MD5(CONCAT(MD5('newpass9'), ?)) AS h", [row!.id]);
      expect(row!.password).toBe(hash.h);
    });

    it('reads STB info and the online state from the middleware, and a reset clears the device binding', async () => {
      const account = await create();
      await middleware.query(
        "UPDATE users SET ip = '10.0.0.7', stb_type = 'MAG322', serial_number = 'SN123', device_id = 'dev1', access_token = 'tok', keep_alive = NOW(), last_active = NOW() WHERE login = ?",
        [account.login],
      );
      const dealer = await ctx.as('dealer');
      let info = await dealer.get(`/accounts/${account.id}/stb-info`);
      expect(info.status).toBe(200);
      expect(info.body.data).toMatchObject({ state: 'online', ip_address: '10.0.0.7', stb_type: 'MAG322', serial_number: 'SN123', device_id: 'dev1' });
      expect(info.body.data.last_active).toEqual(expect.any(String));

      // The server check refreshes the state the accounts list filters on.
      expect(await checkServer(ctx.db.kysely, await ctx.db.kysely.selectFrom('servers').selectAll().where('id', '=', serverId).executeTakeFirstOrThrow())).toBe('online');
      expect((await accountRow(ctx, account.id)).state).toBe('online');
      const listed = await dealer.get(`/accounts?filter[state]=online&filter[search]=${account.login}`);
      expect(listed.body.data.map((a: { id: number }) => a.id)).toEqual([account.id]);

      // Silent for longer than twice the watchdog timeout: offline.
      await middleware.query('UPDATE users SET keep_alive = NOW() - INTERVAL 300 SECOND WHERE login = ?', [account.login]);
      info = await dealer.get(`/accounts/${account.id}/stb-info`);
      expect(info.body.data.state).toBe('offline');

      expect((await dealer.post(`/accounts/${account.id}/reset-device`)).status).toBe(200);
      const row = await subscriber('login', account.login);
      expect(row).toMatchObject({ ip: '', stb_type: '', serial_number: '', device_id: '', access_token: '' });
    });

    it('sees subscribers only the middleware holds: the MAC check says so and creation refuses the MAC or login', async () => {
      const mac = uniqueMac();
      await middleware.query("INSERT INTO users (login, fname, mac, status) VALUES ('legacybox', 'Legacy', ?, 0)", [colonMac(mac)]);
      const dealer = await ctx.as('dealer');
      const check = await dealer.get(`/mac-search?mac=${mac}`);
      expect(check.status).toBe(200);
      expect(check.body.data).toMatchObject({ found: false, registered_elsewhere: true, message: ACCOUNTS.macElsewhere });

      const byMac = await createOn('dealer', { mac_address: mac });
      expect(byMac.status).toBe(422);
      expect(byMac.body.errors.mac_address).toEqual([ACCOUNTS.macTaken]);
      const byLogin = await createOn('dealer', { login: 'legacybox' });
      expect(byLogin.status).toBe(422);
      expect(byLogin.body.errors.login).toEqual([ACCOUNTS.loginTaken]);
    });

    it('deleting an account removes its subscriber, through the list and through the MAC check', async () => {
      const [a, b] = [await create(), await create()];
      const dealer = await ctx.as('dealer');
      expect((await dealer.delete(`/accounts/${a.id}`)).status).toBe(204);
      expect(await subscriber('login', a.login)).toBeUndefined();
      expect((await dealer.post('/mac-search/delete', { mac: b.mac_address, server_id: serverId })).status).toBe(200);
      expect(await subscriber('login', b.login)).toBeUndefined();
    });

    it('a server that cannot be reached: 503 with its message, no credit spent, nothing changed; its check says offline', async () => {
      const account = await create();
      await ctx.db.kysely.updateTable('accounts').set({ server_id: deadServerId }).where('id', '=', account.id).execute();
      const before = await balance(ctx, 'dealer');
      const entries = (await entriesFor(ctx, account.id)).length;
      const dealer = await ctx.as('dealer');
      const renew = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
      expect(renew.status).toBe(503);
      expect(renew.body.message).toBe(ACCOUNTS.serverUnavailable('Ministra down'));
      expect(await balance(ctx, 'dealer')).toEqual(before);
      expect(await entriesFor(ctx, account.id)).toHaveLength(entries);
      expect((await accountRow(ctx, account.id)).expiry_date).toBe(account.expiry_date);

      const created = await (
        await ctx.as('admin')
      ).post('/accounts', { login: 'deadbox', full_name: 'Dead', password: 'x1', mac_address: uniqueMac(), server_id: deadServerId });
      expect(created.status).toBe(503);
      expect(await ctx.db.kysely.selectFrom('accounts').select('id').where('login', '=', 'deadbox').executeTakeFirst()).toBeUndefined();

      const checked = await (await ctx.as('admin')).post(`/servers/${deadServerId}/check`);
      expect(checked.body.data.connection_status).toBe('offline');
      const good = await (await ctx.as('admin')).post(`/servers/${serverId}/check`);
      expect(good.body.data.connection_status).toBe('online');
    });

    it('a write the middleware refuses mid-request rolls the credit move back; the retry is charged once', async () => {
      const account = await create();
      const dealer = await ctx.as('dealer');
      await middleware.query("CREATE TRIGGER refuse_writes BEFORE UPDATE ON users FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'maintenance'");
      const before = await balance(ctx, 'dealer');
      const entries = (await entriesFor(ctx, account.id)).length;
      const key = { 'idempotency-key': `renew-${account.id}` };
      const refused = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 }, key);
      expect(refused.status).toBe(503);
      expect(refused.body.message).toBe(ACCOUNTS.middlewareRefused('Ministra'));
      expect(await balance(ctx, 'dealer')).toEqual(before);
      expect(await entriesFor(ctx, account.id)).toHaveLength(entries);
      expect((await accountRow(ctx, account.id)).expiry_date).toBe(account.expiry_date);
      expect(Number((await subscriber('login', account.login))!.expiry_epoch)).toBe(epoch(account.expiry_date));

      await middleware.query('DROP TRIGGER refuse_writes');
      const first = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 }, key);
      const again = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 }, key);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const used = (await entriesFor(ctx, account.id)).filter((e) => e.type === 'USED');
      expect(used).toHaveLength(2); // the purchase at creation and this renewal, once
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits - first.body.renewal.credits);
      expect(Number((await subscriber('login', account.login))!.expiry_epoch)).toBe(epoch(first.body.data.expiry_date));
    });

    it('puts the middleware back when the panel transaction fails after the middleware write', async () => {
      const account = await create();
      const original = await subscriber('login', account.login);
      const outcome = await Provisioners.of(ctx.db.kysely).outcome('update', null);
      let runs = 0;
      await expect(
        outcome.transact(async (trx) => {
          await trx.updateTable('accounts').set({ full_name: 'Never Committed', status: 'suspended' }).where('id', '=', account.id).execute();
          outcome.mirror([account.id]);
          // The first run rehearses; the second runs after the middleware write and fails.
          if (++runs === 2) {
            expect((await subscriber('login', account.login))!.fname).toBe('Never Committed');
            throw new Error('the commit failed');
          }
        }),
      ).rejects.toThrow('the commit failed');
      expect(await subscriber('login', account.login)).toMatchObject({ fname: original!.fname, status: original!.status, password: original!.password });
      const row = await ctx.db.kysely.selectFrom('middleware_journal').select(['status', 'plan']).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(row.status).toBe('compensated');
    });

    it("imports the middleware's own subscribers under a dealer: a dry run first, then --apply", async () => {
      const macs = [uniqueMac(), uniqueMac()];
      await middleware.query(
        "INSERT INTO users (login, fname, mac, status, expire_billing_date) VALUES ('imported1', 'Imported One', ?, 0, NOW() + INTERVAL 40 DAY), ('', 'Box Only', ?, 1, NOW() + INTERVAL 5 DAY), ('broken', 'No Mac', 'not-a-mac', 0, NOW())",
        macs.map(colonMac),
      );
      const dealerId = await userId(ctx, 'dealer');
      const provisioners = Provisioners.of(ctx.db.kysely);
      const plan = await planImport(ctx.db.kysely, provisioners, serverId, dealerId);
      expect(plan.adopt.map((c) => c.login)).toEqual(expect.arrayContaining(['imported1', macs[1].toLowerCase(), 'legacybox']));
      expect(plan.adopt.map((c) => c.login)).not.toContain('broken');
      expect(plan.skipped.map((s) => s.subscriber.login)).toContain('broken');
      // Accounts the panel already has are not planned again.
      const known = await ctx.db.kysely.selectFrom('accounts').select('middleware_id').where('server_id', '=', serverId).where('middleware_id', 'is not', null).execute();
      expect(plan.adopt.some((c) => known.some((k) => k.middleware_id === c.subscriber.id))).toBe(false);

      const dealerBefore = await balance(ctx, 'dealer');
      if (ctx.kind === 'sqlite') {
        // Through the command an operator runs, on the same database file.
        const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(ctx.db.kysely);
        const file = rows.find((r) => r.name === 'main')!.file;
        const run = (args: string[]) =>
          promisify(execFile)('npx', ['tsx', 'server/cli.ts', 'import-subscribers', '--server', String(serverId), '--dealer', String(dealerId), ...args], {
            env: { ...process.env, DATABASE_URL: `sqlite:${file}`, DEMO_MODE: 'false' },
          });
        const dry = await run([]);
        expect(dry.stdout).toContain(`${plural(plan.adopt.length, 'subscriber')} would be imported`);
        expect(dry.stdout).toContain('imported1');
        expect(await ctx.db.kysely.selectFrom('accounts').select('id').where('login', '=', 'imported1').executeTakeFirst()).toBeUndefined();
        const applied = await run(['--apply']);
        expect(applied.stdout).toContain(`${plural(plan.adopt.length, 'subscriber')} imported`);
      } else {
        expect(await applyImport(ctx.db.kysely, plan)).toBe(plan.adopt.length);
      }
      const imported = await ctx.db.kysely
        .selectFrom('accounts')
        .selectAll()
        .where('login', 'in', ['imported1', macs[1].toLowerCase()])
        .orderBy('login', 'desc')
        .execute();
      expect(imported.map((a) => [a.login, a.owner_id, a.status, a.mac_address])).toEqual([
        ['imported1', dealerId, 'active', macs[0]],
        [macs[1].toLowerCase(), dealerId, 'suspended', macs[1]],
      ]);
      expect(new Date(imported[0].expiry_date!).getTime()).toBeGreaterThan(Date.now() + 39 * 86_400_000);
      // Adoption moves no credits and writes no ledger entry.
      expect(await balance(ctx, 'dealer')).toEqual(dealerBefore);
      expect(await entriesFor(ctx, imported[0].id)).toHaveLength(0);
      // The dealer now sees it, and a second run finds nothing new.
      const listed = await (await ctx.as('dealer')).get('/accounts?filter[search]=imported1');
      expect(listed.body.data.map((a: { login: string }) => a.login)).toEqual(['imported1']);
      expect((await planImport(ctx.db.kysely, provisioners, serverId, dealerId)).adopt).toHaveLength(0);
    });
  });
}
