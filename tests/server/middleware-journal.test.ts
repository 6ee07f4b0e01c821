/**
 * The middleware journal (docs/middleware.md "One outcome"), against the MariaDB
 * at 127.0.0.1:3306, on SQLite and PostgreSQL:
 * - two changes of one account do not interleave: while one waits on the middleware, the second
 *   answers 409 with the contract's message and changes nothing; concurrent requests with one
 *   Idempotency-Key make one renewal and all answer with it;
 * - a compensation that fails (the middleware refuses writes) leaves the row pending, and the
 *   settle worker retries it until the middleware matches the panel again;
 * - `npm run cli -- reconcile --server ID` lists the differences between the panel's live accounts
 *   and the middleware's subscribers, and --apply repairs them, each repair audited.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNTS } from '../../src/contract';
import { Provisioners } from '../../server/provisioning';
import { applyReconcile, planReconcile } from '../../server/provisioning/reconcile';
import { balance, uniqueMac } from './accountFixtures';
import { describeEachDatabase } from './harness';
import { MARIADB, epochOf, mariadbAdmin, middlewareDatabase, subscriberByLogin } from './ministraFixtures';

const admin = await mariadbAdmin('the middleware journal tests');

if (admin) {
  afterAll(async () => admin.end());

  describeEachDatabase('middleware journal', (ctx) => {
    let middleware: Awaited<ReturnType<typeof middlewareDatabase>>;
    let serverId = 0;

    const create = async () => {
      const login = `jr${randomBytes(4).toString('hex')}`;
      const res = await (
        await ctx.as('dealer')
      ).post('/accounts', { login, full_name: `Journal ${login}`, password: 'stbpass1', mac_address: uniqueMac(), server_id: serverId, months: 1 });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data as { id: number; login: string; expiry_date: string; mac_address: string };
    };
    const panelExpiry = async (id: number) =>
      (await ctx.db.kysely.selectFrom('accounts').select('expiry_date').where('id', '=', id).executeTakeFirstOrThrow()).expiry_date;

    beforeAll(async () => {
      middleware = await middlewareDatabase(admin);
      const made = await (
        await ctx.as('admin')
      ).post('/servers', { name: 'Ministra', driver: 'ministra', db_host: '127.0.0.1', db_port: 3306, db_username: 'root', db_name: middleware.name });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      serverId = made.body.data.id;
      await ctx.db.kysely.updateTable('users').set({ server_id: serverId }).where('username', '=', 'manager').execute();
    });
    afterAll(async () => middleware?.drop());

    it('a second change of an account whose first waits on the middleware answers 409 and changes nothing', { timeout: 60_000 }, async () => {
      const account = await create();
      const dealer = await ctx.as('dealer');
      const locker = await mysql.createConnection({ ...MARIADB, database: middleware.name });
      await locker.query('SET SESSION innodb_lock_wait_timeout = 2');
      await locker.beginTransaction();
      await locker.query('SELECT id FROM users WHERE login = ? FOR UPDATE', [account.login]);
      try {
        const first = dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 }, { 'idempotency-key': `first-${account.id}` });
        // The first is journaled and waits on the row lock; then the second comes.
        for (let i = 0; i < 100; i++) {
          const pending = await ctx.db.kysely.selectFrom('middleware_claims').select('claim').where('claim', '=', `account:${account.id}`).executeTakeFirst();
          if (pending) break;
          await sleep(50);
        }
        const before = await balance(ctx, 'dealer');
        const second = await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 2 }, { 'idempotency-key': `second-${account.id}` });
        expect(second.status, JSON.stringify(second.body)).toBe(409);
        expect(second.body.message).toBe(ACCOUNTS.middlewareBusy);
        const toggle = await dealer.patch(`/accounts/${account.id}`, { status: 'suspended' });
        expect(toggle.status).toBe(409);
        expect(await balance(ctx, 'dealer')).toEqual(before);
        await locker.commit();
        const done = await first;
        expect(done.status, JSON.stringify(done.body)).toBe(200);
        const expiry = await panelExpiry(account.id);
        expect(expiry).toBe(done.body.renewal.coverage_end);
        const subscriber = await subscriberByLogin(middleware.conn, account.login);
        expect(Number(subscriber!.expiry_epoch)).toBe(epochOf(expiry));
        expect(Number(subscriber!.status)).toBe(0);
      } finally {
        await locker.end();
      }
    });

    it('two concurrent requests with one Idempotency-Key renew a Ministra account once, both answered with that renewal', { timeout: 60_000 }, async () => {
      const account = await create();
      const dealer = await ctx.as('dealer');
      const before = await balance(ctx, 'dealer');
      const key = { 'idempotency-key': `twin-${account.id}` };
      const answers = await Promise.all([1, 2, 3].map(() => dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 }, key)));
      expect(
        answers.map((a) => a.status),
        JSON.stringify(answers.map((a) => a.body)),
      ).toEqual([200, 200, 200]);
      expect(answers.filter((a) => a.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
      for (const a of answers) expect(a.body.renewal).toEqual(answers[0].body.renewal);
      expect((await balance(ctx, 'dealer')).credits).toBe(before.credits - answers[0].body.renewal.credits);
      expect(Number((await subscriberByLogin(middleware.conn, account.login))!.expiry_epoch)).toBe(epochOf(await panelExpiry(account.id)));
    });

    it('a compensation the middleware refuses stays pending and the worker retries it until both agree', { timeout: 60_000 }, async () => {
      const account = await create();
      const original = await subscriberByLogin(middleware.conn, account.login);
      const outcome = await Provisioners.of(ctx.db.kysely).outcome('status', null);
      let runs = 0;
      await expect(
        outcome.transact(async (trx) => {
          await trx.updateTable('accounts').set({ status: 'suspended' }).where('id', '=', account.id).execute();
          outcome.mirror([account.id]);
          if (++runs === 2) {
            // The middleware has the change; now it refuses writes, and the panel's commit fails.
            await middleware.conn.query("CREATE TRIGGER refuse_writes BEFORE UPDATE ON users FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'maintenance'");
            throw new Error('the commit failed');
          }
        }),
      ).rejects.toThrow('the commit failed');
      const row = await ctx.db.kysely.selectFrom('middleware_journal').select(['id', 'status', 'attempts', 'last_error']).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.last_error).toBeTruthy();
      expect(Number((await subscriberByLogin(middleware.conn, account.login))!.status)).toBe(1); // suspended in the middleware only

      await middleware.conn.query('DROP TRIGGER refuse_writes');
      // The worker (started with the app) retries after the backoff.
      let status = row.status;
      for (let i = 0; i < 150 && status === 'pending'; i++) {
        await sleep(100);
        status = (await ctx.db.kysely.selectFrom('middleware_journal').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status;
      }
      expect(status).toBe('compensated');
      expect(await subscriberByLogin(middleware.conn, account.login)).toMatchObject({ status: original!.status, fname: original!.fname });
      expect(await ctx.db.kysely.selectFrom('middleware_claims').select('claim').where('journal_id', '=', row.id).execute()).toEqual([]);
    });

    it('reconcile lists the differences between the panel and the middleware, and --apply repairs them, audited', { timeout: 120_000 }, async () => {
      // Start from agreement: what earlier tests left is repaired first.
      const provisioners = Provisioners.of(ctx.db.kysely);
      await applyReconcile(ctx.db.kysely, provisioners, await planReconcile(ctx.db.kysely, provisioners, serverId), { removeOrphans: true });
      const [shifted, lost] = [await create(), await create()];
      await middleware.conn.query('UPDATE users SET expire_billing_date = NOW() + INTERVAL 400 DAY, status = 1 WHERE login = ?', [shifted.login]);
      await middleware.conn.query('DELETE FROM users WHERE login = ?', [lost.login]);
      const orphanMac = uniqueMac().match(/.{2}/g)!.join(':');
      await middleware.conn.query("INSERT INTO users (login, fname, mac, status, expire_billing_date) VALUES ('orphan1', 'Nobody', ?, 0, NOW() + INTERVAL 30 DAY)", [
        orphanMac,
      ]);

      const plan = await planReconcile(ctx.db.kysely, provisioners, serverId);
      expect(plan.differences.map((d) => [d.kind, 'account' in d ? d.account.login : d.subscriber.login, 'fields' in d ? d.fields : null])).toEqual([
        ['differs', shifted.login, ['status', 'expiry_date']],
        ['missing', lost.login, null],
        ['orphan', 'orphan1', null],
      ]);
      const audits = async () =>
        (
          await ctx.db.kysely
            .selectFrom('audit_logs')
            .select(['target_username', 'description'])
            .where('module', '=', 'servers')
            .where('action', '=', 'reconcile')
            .where('entity_id', '=', serverId)
            .execute()
        ).length;
      const auditedBefore = await audits();

      if (ctx.kind === 'sqlite') {
        // Through the command an operator runs, on the same database file.
        const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(ctx.db.kysely);
        const file = rows.find((r) => r.name === 'main')!.file;
        const run = (args: string[]) =>
          promisify(execFile)('npx', ['tsx', 'server/cli.ts', 'reconcile', '--server', String(serverId), ...args], {
            env: { ...process.env, DATABASE_URL: `sqlite:${file}`, DEMO_MODE: 'false' },
          });
        const dry = await run([]);
        expect(dry.stdout).toContain(`differs   account #${shifted.id} ${shifted.login}`);
        expect(dry.stdout).toContain(`missing   account #${lost.id} ${lost.login}`);
        expect(dry.stdout).toContain('orphan    subscriber');
        expect(dry.stdout).toContain('3 differences');
        expect(await audits()).toBe(auditedBefore);
        const applied = await run(['--apply']);
        expect(applied.stdout).toContain('2 differences repaired.');
        const all = await run(['--apply', '--remove-orphans']);
        expect(all.stdout).toContain('1 difference repaired.');
      } else {
        expect(await applyReconcile(ctx.db.kysely, provisioners, plan, { removeOrphans: false })).toBe(2);
        expect(await applyReconcile(ctx.db.kysely, provisioners, await planReconcile(ctx.db.kysely, provisioners, serverId), { removeOrphans: true })).toBe(1);
      }
      expect(await audits()).toBe(auditedBefore + 3);
      expect((await planReconcile(ctx.db.kysely, provisioners, serverId)).differences).toEqual([]);
      for (const account of [shifted, lost]) {
        const subscriber = await subscriberByLogin(middleware.conn, account.login);
        expect(Number(subscriber!.expiry_epoch)).toBe(epochOf(await panelExpiry(account.id)));
        expect(Number(subscriber!.status)).toBe(0);
      }
      expect(await subscriberByLogin(middleware.conn, 'orphan1')).toBeUndefined();
    });
  });
}
