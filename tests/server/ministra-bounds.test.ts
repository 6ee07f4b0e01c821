/**
 * A slow, locked or silent Ministra database holds nobody for longer than its server's budget:
 * against the MariaDB on 127.0.0.1:3306, with a subscriber row locked from
 * another session, with the users table locked, and with a host that accepts TCP connections and
 * never answers, a renewal answers 503 with the contract's message within `timeout_seconds` and a margin,
 * charges nothing and changes neither database. After N failures the server's breaker refuses at
 * once (the servers API shows it open); after the cool-down one trial call decides. Toggles and the
 * other middleware writes are rate limited. Skipped with the reason printed when no MariaDB answers;
 * REQUIRE_MARIADB=true fails instead.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import mysql, { type Connection, type RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNTS } from '../../src/contract';
import { Provisioners } from '../../server/provisioning';
import { accountRow, balance, uniqueMac } from './accountFixtures';
import { type TestContext, describeEachDatabase } from './harness';
import { MARIADB, USERS_TABLE, hangingHost, mariadbAdmin } from './ministraFixtures';

const admin = await mariadbAdmin('the Ministra time-budget tests');

/** The servers' budget in these tests, and what an HTTP round trip may add on a busy machine. */
const TIMEOUT_S = 1;
const MARGIN_MS = 1500;
/** Answered without waiting on the server's host: sooner than its budget (on a busy machine a refusal still takes hundreds of ms). */
const AT_ONCE_MS = TIMEOUT_S * 1000 - 100;
/**
 * What a refusal by an open breaker may take on a busy machine (over a second beside the browser
 * tests): that it did not wait on the host is checked by the host's count of connections instead.
 */
const REFUSED_MS = TIMEOUT_S * 1000 + MARGIN_MS;
const BREAKER = { middlewareBreakerFailures: 3, middlewareBreakerCooldownMs: 1500 };

type Subscriber = RowDataPacket & Record<string, any>;

const epoch = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

const timed = async <T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> => {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
};

const ledgerSize = async (ctx: TestContext) =>
  Number(
    (
      await ctx.db.kysely
        .selectFrom('credit_transactions')
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

if (admin) {
  afterAll(async () => admin.end());

  describeEachDatabase(
    'ministra time budget and breaker',
    (ctx) => {
      const database = `ministra_${randomBytes(5).toString('hex')}`;
      let serverId = 0;
      let silentId = 0;
      let middleware: Connection;
      let host: Awaited<ReturnType<typeof hangingHost>>;
      let serial = 0;

      const subscriber = async (login: string): Promise<Subscriber | undefined> => {
        const [rows] = await middleware.query<Subscriber[]>('SELECT *, UNIX_TIMESTAMP(expire_billing_date) AS expiry_epoch FROM users WHERE login = ?', [login]);
        return rows[0];
      };
      const create = async () => {
        serial += 1;
        const res = await (
          await ctx.as('dealer')
        ).post('/accounts', {
          login: `bound${serial}${randomBytes(2).toString('hex')}`,
          full_name: `Bounded ${serial}`,
          password: 'stbpass1',
          mac_address: uniqueMac(),
          server_id: serverId,
          months: 1,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.data as { id: number; login: string; expiry_date: string };
      };
      const breakerOf = async (id: number) => {
        const res = await (await ctx.as('admin')).get(`/servers/${id}`);
        expect(res.status).toBe(200);
        return res.body.data.breaker as { state: string; failures: number; opened_at: string | null; retry_at: string | null };
      };
      /** The subscriber's expiry is still the account's (read once the middleware's table is unlocked). */
      const middlewareUnchanged = async (account: { login: string; expiry_date: string }) =>
        expect(Number((await subscriber(account.login))!.expiry_epoch)).toBe(epoch(account.expiry_date));
      /**
       * A renewal that must be refused: 503, the server's message, nothing charged, the panel's
       * expiry unchanged (the middleware's: middlewareUnchanged, once it can be read).
       */
      const refusedRenewal = async (account: { id: number; login: string; expiry_date: string }, server: string, username = 'dealer') => {
        const before = { dealer: await balance(ctx, 'dealer'), entries: await ledgerSize(ctx) };
        const { result: res, ms } = await timed(async () => (await ctx.as(username)).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 }));
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.body.message).toBe(ACCOUNTS.serverUnavailable(server));
        expect(await balance(ctx, 'dealer')).toEqual(before.dealer);
        expect(await ledgerSize(ctx)).toBe(before.entries);
        expect((await accountRow(ctx, account.id)).expiry_date).toBe(account.expiry_date);
        return { res, ms };
      };

      beforeAll(async () => {
        await admin.query(`CREATE DATABASE \`${database}\``);
        middleware = await mysql.createConnection({ ...MARIADB, database });
        await middleware.query(USERS_TABLE);
        host = await hangingHost();
        const root = await ctx.as('admin');
        const made = await root.post('/servers', {
          name: 'Ministra',
          driver: 'ministra',
          db_host: '127.0.0.1',
          db_port: 3306,
          db_username: 'root',
          db_name: database,
          timeout_seconds: TIMEOUT_S,
        });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        serverId = made.body.data.id;
        const silent = await root.post('/servers', {
          name: 'Ministra silent',
          driver: 'ministra',
          db_host: '127.0.0.1',
          db_port: host.port,
          db_username: 'root',
          db_name: database,
          timeout_seconds: TIMEOUT_S,
        });
        expect(silent.status, JSON.stringify(silent.body)).toBe(201);
        silentId = silent.body.data.id;
        await ctx.db.kysely.updateTable('users').set({ server_id: serverId }).where('username', '=', 'manager').execute();
      });
      afterAll(async () => {
        await middleware?.end();
        await host?.close();
        await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
      });

      it('takes the per-server timeout as a whole number of seconds within its range; the API shows it and the breaker', async () => {
        const root = await ctx.as('admin');
        expect((await root.get(`/servers/${serverId}`)).body.data).toMatchObject({
          timeout_seconds: TIMEOUT_S,
          breaker: { state: 'closed', failures: 0, opened_at: null, retry_at: null },
        });
        expect((await root.post('/servers', { name: 'Defaults', db_host: 'db.example.com', db_username: 'u', db_name: 'd' })).body.data.timeout_seconds).toBe(5);
        for (const bad of [0, 61, 2.5, 'soon', -1]) {
          const res = await root.put(`/servers/${serverId}`, {
            name: 'Ministra',
            driver: 'ministra',
            db_host: '127.0.0.1',
            db_port: 3306,
            db_username: 'root',
            db_name: database,
            timeout_seconds: bad,
          });
          expect(res.status, String(bad)).toBe(422);
          expect(res.body.errors.timeout_seconds).toEqual(['Timeout must be a whole number of seconds between 1 and 60']);
        }
        const kept = await root.get(`/servers/${serverId}`);
        expect(kept.body.data.timeout_seconds).toBe(TIMEOUT_S);
      });

      it('a subscriber row locked from another session: the renewal answers 503 within the budget and charges nothing', async () => {
        const account = await create();
        const locker = await mysql.createConnection({ ...MARIADB, database });
        try {
          await locker.query('START TRANSACTION');
          await locker.query('SELECT id FROM users WHERE login = ? FOR UPDATE', [account.login]);
          const { ms } = await refusedRenewal(account, 'Ministra');
          expect(ms).toBeLessThan(TIMEOUT_S * 1000 + MARGIN_MS);
        } finally {
          await locker.query('ROLLBACK');
          await locker.end();
        }
        await middlewareUnchanged(account);
        // The lock gone, the same renewal goes through (and the failure count starts again).
        const renewed = await (await ctx.as('dealer')).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
        expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
        expect((await breakerOf(serverId)).failures).toBe(0);
      });

      it('LOCK TABLES users WRITE from another session: the renewal answers 503 within the budget and charges nothing', async () => {
        const account = await create();
        const locker = await mysql.createConnection({ ...MARIADB, database });
        try {
          await locker.query('LOCK TABLES users WRITE');
          const { ms } = await refusedRenewal(account, 'Ministra');
          expect(ms).toBeLessThan(TIMEOUT_S * 1000 + MARGIN_MS);
        } finally {
          await locker.query('UNLOCK TABLES');
          await locker.end();
        }
        await middlewareUnchanged(account);
        const renewed = await (await ctx.as('dealer')).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
        expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
        expect(Number((await subscriber(account.login))!.expiry_epoch)).toBe(epoch(renewed.body.data.expiry_date));
      });

      it('a refusal by the middleware is an answer: it does not count towards the breaker', async () => {
        const account = await create();
        await middleware.query("CREATE TRIGGER refuse_writes BEFORE UPDATE ON users FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'maintenance'");
        try {
          for (let i = 0; i < BREAKER.middlewareBreakerFailures + 1; i++) {
            const res = await (await ctx.as('admin')).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
            expect(res.status).toBe(503);
            expect(res.body.message).toBe(ACCOUNTS.middlewareRefused('Ministra'));
          }
        } finally {
          await middleware.query('DROP TRIGGER refuse_writes');
        }
        expect(await breakerOf(serverId)).toEqual({ state: 'closed', failures: 0, opened_at: null, retry_at: null });
      });

      it('a host that accepts connections and never answers: 503 within the connect budget; N failures open the breaker, which then refuses at once; a trial after the cool-down decides', async () => {
        const accounts = [await create(), await create()];
        await ctx.db.kysely
          .updateTable('accounts')
          .set({ server_id: silentId })
          .where(
            'id',
            'in',
            accounts.map((a) => a.id),
          )
          .execute();
        const [account, other] = accounts;

        for (let i = 1; i <= BREAKER.middlewareBreakerFailures; i++) {
          const { ms } = await refusedRenewal(account, 'Ministra silent', 'admin');
          expect(ms).toBeLessThan(TIMEOUT_S * 1000 + MARGIN_MS);
          expect(ms).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 100); // it was waited on, up to the budget
          expect((await breakerOf(silentId)).failures).toBe(i);
        }
        await middlewareUnchanged(account);
        const opened = await breakerOf(silentId);
        expect(opened.state).toBe('open');
        expect(Date.parse(opened.retry_at!) - Date.parse(opened.opened_at!)).toBe(BREAKER.middlewareBreakerCooldownMs);
        const listed = await (await ctx.as('admin')).get('/servers?filter[driver]=ministra');
        expect(listed.body.data.find((s: { id: number }) => s.id === silentId).breaker.state).toBe('open');

        // Open: refused at once, without reaching the host, with Retry-After; reads and toggles too.
        const reached = host.accepted;
        const { res, ms } = await refusedRenewal(account, 'Ministra silent', 'admin');
        expect(ms).toBeLessThan(REFUSED_MS);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        const dealer = await ctx.as('dealer');
        const toggled = await timed(() => dealer.patch(`/accounts/${other.id}`, { status: 'suspended' }));
        expect([toggled.result.status, toggled.result.body.message]).toEqual([503, ACCOUNTS.serverUnavailable('Ministra silent')]);
        expect(toggled.ms).toBeLessThan(REFUSED_MS);
        expect((await accountRow(ctx, other.id)).status).toBe('active');
        const info = await timed(() => dealer.get(`/accounts/${other.id}/stb-info`));
        expect(info.result.status).toBe(503);
        expect(info.ms).toBeLessThan(REFUSED_MS);
        expect(host.accepted).toBe(reached);
        // A healthy server beside it is not affected.
        const healthy = await create();
        expect((await dealer.post(`/accounts/${healthy.id}/credits`, { action: 'renew', months: 1 })).status).toBe(200);

        // After the cool-down one trial goes through; while it runs, others are still refused at once.
        await new Promise((resolve) => setTimeout(resolve, BREAKER.middlewareBreakerCooldownMs + 50));
        expect((await breakerOf(silentId)).state).toBe('half_open');
        const provisioner = await Provisioners.of(ctx.db.kysely).forServer(silentId);
        const row = await accountRow(ctx, account.id);
        const trial = timed(() =>
          provisioner.device(row).then(
            () => 'answered',
            (error: Error) => error.message,
          ),
        );
        const during = await refusedRenewal(other, 'Ministra silent', 'admin');
        expect(during.ms).toBeLessThan(REFUSED_MS);
        const tried = await trial;
        // The trial's connection only.
        expect(host.accepted).toBe(reached + 1);
        expect(tried.result).toBe(ACCOUNTS.serverUnavailable('Ministra silent'));
        expect(tried.ms).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 100);
        const reopened = await breakerOf(silentId);
        expect(reopened).toMatchObject({ state: 'open', failures: BREAKER.middlewareBreakerFailures + 1, opened_at: opened.opened_at });
        expect(Date.parse(reopened.retry_at!)).toBeGreaterThan(Date.parse(opened.retry_at!));

        // The host answers again: after the cool-down the trial succeeds and the breaker closes.
        host.state.silent = false;
        await new Promise((resolve) => setTimeout(resolve, BREAKER.middlewareBreakerCooldownMs + 50));
        const renewed = await (await ctx.as('admin')).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
        expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
        expect(Number((await subscriber(account.login))!.expiry_epoch)).toBe(epoch(renewed.body.data.expiry_date));
        expect(await breakerOf(silentId)).toEqual({ state: 'closed', failures: 0, opened_at: null, retry_at: null });
        expect((await dealer.patch(`/accounts/${other.id}`, { status: 'suspended' })).status).toBe(200);
      });

      it('a connection check probes an open breaker: a repaired server closes it at once', async () => {
        host.hang();
        const account = await create();
        await ctx.db.kysely.updateTable('accounts').set({ server_id: silentId }).where('id', '=', account.id).execute();
        for (let i = 0; i < BREAKER.middlewareBreakerFailures; i++) await refusedRenewal(account, 'Ministra silent', 'admin');
        expect((await breakerOf(silentId)).state).toBe('open');
        host.state.silent = false;
        const checked = await (await ctx.as('admin')).post(`/servers/${silentId}/check`);
        expect(checked.body.data).toMatchObject({ connection_status: 'online', breaker: { state: 'closed', failures: 0 } });
      });

      it('a full pool and queue answers 503 at once; the calls waiting in it give up within the budget', async () => {
        const root = await ctx.as('admin');
        const busy = await root.post('/servers', {
          name: 'Ministra busy',
          driver: 'ministra',
          db_host: '127.0.0.1',
          db_port: 3306,
          db_username: 'root',
          db_name: database,
          timeout_seconds: TIMEOUT_S,
        });
        expect(busy.status, JSON.stringify(busy.body)).toBe(201);
        const account = await create();
        const row = await accountRow(ctx, account.id);
        const provisioner = await Provisioners.of(ctx.db.kysely).forServer(busy.body.data.id);
        const outcome = (call: Promise<unknown>) =>
          timed(() =>
            call.then(
              () => 'answered',
              (error: Error) => error.message,
            ),
          );
        const locker = await mysql.createConnection({ ...MARIADB, database });
        try {
          await locker.query('LOCK TABLES users WRITE');
          // 4 pooled connections and 8 waiting for one: every call beyond those is refused, not queued.
          const waiting = Array.from({ length: 12 }, () => outcome(provisioner.device(row)));
          const beyond = await outcome(provisioner.device(row));
          expect(beyond.result).toBe(ACCOUNTS.serverUnavailable('Ministra busy'));
          expect(beyond.ms).toBeLessThan(AT_ONCE_MS);
          for (const { result, ms } of await Promise.all(waiting)) {
            expect(result).toBe(ACCOUNTS.serverUnavailable('Ministra busy'));
            expect(ms).toBeLessThan(TIMEOUT_S * 1000 + MARGIN_MS);
          }
        } finally {
          await locker.query('UNLOCK TABLES');
          await locker.end();
        }
        // The refused call told nothing about the server; the 12 that timed out opened its breaker.
        expect(await breakerOf(busy.body.data.id)).toMatchObject({ state: 'open', failures: 12 });
        // A check closes it, on fresh connections (the timed-out ones were destroyed, not reused).
        expect((await root.post(`/servers/${busy.body.data.id}/check`)).body.data).toMatchObject({ connection_status: 'online', breaker: { state: 'closed' } });
        expect(await outcome(provisioner.device(row))).toMatchObject({ result: 'answered' });
      });

      it('the 31st status toggle in a minute answers 429 and does not reach the middleware; other middleware writes share the limit', async () => {
        const account = await create();
        await ctx.db.kysely.deleteFrom('rate_limits').execute();
        const dealer = await ctx.as('dealer');
        for (let i = 1; i <= ctx.config.creditOpsPerMinute; i++) {
          const res = await dealer.patch(`/accounts/${account.id}`, { status: i % 2 ? 'suspended' : 'active' });
          expect(res.status, `toggle ${i}: ${JSON.stringify(res.body)}`).toBe(200);
        }
        expect(ctx.config.creditOpsPerMinute % 2).toBe(0);
        expect((await subscriber(account.login))!.status).toBe(0);
        const limited = await dealer.patch(`/accounts/${account.id}`, { status: 'suspended' });
        expect(limited.status).toBe(429);
        expect(limited.body.message).toBe(ACCOUNTS.middlewareWriteRateLimit);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect((await subscriber(account.login))!.status).toBe(0);
        expect((await accountRow(ctx, account.id)).status).toBe('active');
        // The same actor's other middleware writes are limited too; the subscriber stays.
        expect((await dealer.post(`/accounts/${account.id}/reset-device`)).status).toBe(429);
        expect((await dealer.put(`/accounts/${account.id}`, { full_name: 'Renamed' })).status).toBe(429);
        expect((await dealer.delete(`/accounts/${account.id}`)).status).toBe(429);
        expect((await dealer.post('/accounts/bulk-suspend', { account_ids: [account.id] })).status).toBe(429);
        expect(await subscriber(account.login)).toMatchObject({ status: 0, fname: expect.stringMatching(/^Bounded/) });
        // The limit is the actor's: someone else may still toggle the account.
        const reseller = await ctx.as('reseller');
        expect((await reseller.patch(`/accounts/${account.id}`, { status: 'suspended' })).status).toBe(200);
        expect((await subscriber(account.login))!.status).toBe(1);
      });
    },
    BREAKER,
  );
}
