/**
 * A panel change and its Ministra change are one outcome whenever the process
 * dies. A real API process (scripts/reliability/lib.ts) is killed with SIGKILL at each step of a
 * renewal and of an account creation on a Ministra server (MIDDLEWARE_CRASH_AT, see
 * server/provisioning/journal.ts): after the journal row is written, after the middleware write,
 * just before and just after the panel's commit. After a restart the two databases agree within
 * seconds (polled), no subscriber is extended without its charge or left without its account, the
 * ledger's invariants hold, and the retry with the same Idempotency-Key completes the operation
 * exactly once. A delete killed after its subscriber was removed gets the subscriber back (the panel
 * still has the account). On SQLite and on PostgreSQL, against the MariaDB at 127.0.0.1:3306.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../server/db/connect';
import { checkLedger } from '../../server/ledger/check';
import { type Kind, type ServerProcess, call, freshDatabase, signIn, startServer } from '../../scripts/reliability/lib';
import { epochOf, mariadbAdmin, middlewareDatabase, subscriberByLogin } from './ministraFixtures';
import { pgUrl } from './harness';

const admin = await mariadbAdmin('the middleware crash tests');

const STEPS = ['journal-written', 'middleware-written', 'before-commit', 'after-commit'] as const;
const AGREE_WITHIN_MS = 15_000;

if (admin) {
  afterAll(async () => admin.end());

  for (const kind of (pgUrl ? ['sqlite', 'postgres'] : ['sqlite']) as Kind[]) {
    describe(`one outcome across a crash [${kind}]`, () => {
      it('kill -9 at each step of a renewal and of a creation: both databases agree, charged once, the retry completes once', { timeout: 600_000 }, async () => {
        const { url, cleanup } = await freshDatabase(kind);
        const middleware = await middlewareDatabase(admin);
        let db: Db | null = null;
        let server: ServerProcess | null = null;
        try {
          // A first start migrates and seeds the demo hierarchy; its Main Server becomes this middleware.
          server = await startServer(url);
          db = connect(url, { sqliteReaders: 0 });
          const q = db.kysely;
          const main = await q.selectFrom('servers').select('id').where('name', '=', 'Main Server').executeTakeFirstOrThrow();
          await q
            .updateTable('servers')
            .set({ driver: 'ministra', db_host: '127.0.0.1', db_port: '3306', db_username: 'root', db_name: middleware.name, db_password_enc: null })
            .where('id', '=', main.id)
            .execute();
          const dealerId = (await q.selectFrom('users').select('id').where('username', '=', 'dealer').executeTakeFirstOrThrow()).id;
          const credits = async () => (await q.selectFrom('users').select('credits').where('id', '=', dealerId).executeTakeFirstOrThrow()).credits;

          const mac = () => `02${randomBytes(5).toString('hex').toUpperCase()}`;
          const createBody = (login: string) => ({ login, full_name: `Box ${login}`, password: 'stbpass1', mac_address: mac(), server_id: main.id, months: 1 });
          // The accounts the renewals crash on, made while nothing crashes.
          const token = await signIn(server.baseUrl, 'dealer');
          const renewable = new Map<string, { id: number; login: string; expiry: string }>();
          for (const step of STEPS) {
            const login = `rn${randomBytes(4).toString('hex')}`;
            const made = await call(server.baseUrl, 'POST', '/accounts', token, createBody(login));
            expect(made.status, JSON.stringify(made.body)).toBe(201);
            renewable.set(step, { id: made.body.data.id, login, expiry: made.body.data.expiry_date });
          }
          const doomedLogin = `dl${randomBytes(4).toString('hex')}`;
          const doomed = await call(server.baseUrl, 'POST', '/accounts', token, createBody(doomedLogin));
          expect(doomed.status, JSON.stringify(doomed.body)).toBe(201);
          await server.stop();
          server = null;

          /** Why the panel's live account with this login and its subscriber differ, or null when they agree. */
          const difference = async (login: string): Promise<string | null> => {
            const account = await q
              .selectFrom('accounts')
              .select(['id', 'expiry_date', 'status', 'middleware_id'])
              .where('server_id', '=', main.id)
              .where('login', '=', login)
              .where('deleted_at', 'is', null)
              .executeTakeFirst();
            const subscriber = await subscriberByLogin(middleware.conn, login);
            if (!account && !subscriber) return null;
            if (!account) return `subscriber ${subscriber!.id} has no account (orphaned)`;
            if (!subscriber) return `account ${account.id} has no subscriber`;
            if (Number(subscriber.expiry_epoch) !== epochOf(account.expiry_date))
              return `expiry ${subscriber.expiry_epoch} in the middleware, ${epochOf(account.expiry_date)} in the panel`;
            if (Number(subscriber.status) !== (account.status === 'active' ? 0 : 1)) return 'status differs';
            return null;
          };
          /** Polls until the two agree on the account and the journal holds nothing pending. */
          const agreed = async (login: string): Promise<void> => {
            const state = async () => {
              const pending = await q.selectFrom('middleware_journal').select('id').where('status', '=', 'pending').execute();
              return (await difference(login)) ?? (pending.length ? `journal rows ${pending.map((p) => p.id).join(', ')} still pending` : null);
            };
            const deadline = Date.now() + AGREE_WITHIN_MS;
            let last = await state();
            while (last !== null && Date.now() < deadline) {
              await sleep(100);
              last = await state();
            }
            expect(last, `${login}: not settled ${AGREE_WITHIN_MS / 1000} s after the restart`).toBeNull();
          };
          const usedEntries = async (accountId: number) =>
            (await q.selectFrom('credit_transactions').select('credits').where('account_id', '=', accountId).where('type', '=', 'USED').execute()).length;

          for (const step of STEPS) {
            for (const op of ['renew', 'create'] as const) {
              const key = `crash-${op}-${step}-${randomBytes(3).toString('hex')}`;
              const login = op === 'create' ? `cr${randomBytes(4).toString('hex')}` : renewable.get(step)!.login;
              const body = op === 'create' ? createBody(login) : { action: 'renew', months: 1 };
              const path = op === 'create' ? '/accounts' : `/accounts/${renewable.get(step)!.id}/credits`;
              const before = await credits();

              const crashing = await startServer(url, { MIDDLEWARE_CRASH_AT: `${op}:${step}` });
              server = crashing;
              const dealer = await signIn(crashing.baseUrl, 'dealer');
              const first = await call(crashing.baseUrl, 'POST', path, dealer, body, { 'idempotency-key': key }).then(
                (answer) => answer,
                () => null,
              );
              await crashing.kill();
              expect(first, `${op} at ${step}: the process answered instead of dying`).toBeNull();
              expect(crashing.child.signalCode).toBe('SIGKILL');

              server = await startServer(url);
              // A creation killed after its subscriber was written, retried at once
              // (before the worker settles it) must not be refused as "MAC/login already used".
              const retryAtOnce = op === 'create' && step === 'middleware-written';
              const retried = retryAtOnce ? await call(server.baseUrl, 'POST', path, await signIn(server.baseUrl, 'dealer'), body, { 'idempotency-key': key }) : null;
              await agreed(login);
              // Nothing spent without the change, nothing changed without the charge.
              const account = retryAtOnce
                ? null
                : await q
                    .selectFrom('accounts')
                    .select(['id', 'expiry_date'])
                    .where('server_id', '=', main.id)
                    .where('login', '=', login)
                    .where('deleted_at', 'is', null)
                    .executeTakeFirst();
              const committed = step === 'after-commit';
              if (retryAtOnce) {
                // Checked below, after the retry.
              } else if (op === 'create') {
                expect(Boolean(account), `${op} at ${step}`).toBe(committed);
                if (!committed) expect(await credits()).toBe(before);
              } else {
                const extended = account!.expiry_date !== renewable.get(step)!.expiry;
                expect(extended, `${op} at ${step}`).toBe(committed);
                expect(await usedEntries(account!.id)).toBe(committed ? 2 : 1);
                if (!committed) expect(await credits()).toBe(before);
              }

              // The retry with the same key completes the operation exactly once.
              const retry = retried ?? (await call(server.baseUrl, 'POST', path, await signIn(server.baseUrl, 'dealer'), body, { 'idempotency-key': key }));
              expect(retry.status, `${op} at ${step}: ${JSON.stringify(retry.body)}`).toBe(op === 'create' ? 201 : 200);
              expect(retry.replayed, `${op} at ${step}`).toBe(committed);
              const again = await call(server.baseUrl, 'POST', path, await signIn(server.baseUrl, 'dealer'), body, { 'idempotency-key': key });
              expect(again.replayed).toBe(true);
              await agreed(login);
              const live = await q
                .selectFrom('accounts')
                .select(['id', 'expiry_date'])
                .where('server_id', '=', main.id)
                .where('login', '=', login)
                .where('deleted_at', 'is', null)
                .execute();
              expect(live).toHaveLength(1);
              const cost = retry.body.renewal.credits;
              expect(cost).toBeGreaterThan(0);
              expect(await credits(), `${op} at ${step}: charged once`).toBe(before - cost);
              expect(await usedEntries(live[0].id)).toBe(op === 'create' ? 1 : 2);
              if (op === 'renew') {
                expect(retry.body.renewal.coverage_start).toBe(new Date(renewable.get(step)!.expiry).toISOString());
                expect(live[0].expiry_date).toBe(retry.body.renewal.coverage_end);
              }
              const [rows] = await middleware.conn.query<Array<{ n: number } & import('mysql2').RowDataPacket>>('SELECT COUNT(*) AS n FROM users WHERE login = ?', [
                login,
              ]);
              expect(Number(rows[0].n)).toBe(1);
              expect((await checkLedger(q)).problems).toEqual([]);
              await server.stop();
              server = null;
            }
          }

          // A delete killed after the subscriber was removed: the panel still has the account, so the
          // subscriber comes back (the box keeps working), and the delete done again removes both.
          const killed = await startServer(url, { MIDDLEWARE_CRASH_AT: 'delete:middleware-written' });
          server = killed;
          const gone = await call(killed.baseUrl, 'DELETE', `/accounts/${doomed.body.data.id}`, await signIn(killed.baseUrl, 'dealer')).then(
            (answer) => answer,
            () => null,
          );
          await killed.kill();
          expect(gone, 'delete at middleware-written: the process answered instead of dying').toBeNull();
          server = await startServer(url);
          await agreed(doomedLogin);
          expect(await subscriberByLogin(middleware.conn, doomedLogin)).toBeDefined();
          const deleted = await call(server.baseUrl, 'DELETE', `/accounts/${doomed.body.data.id}`, await signIn(server.baseUrl, 'dealer'));
          expect(deleted.status).toBe(204);
          await agreed(doomedLogin);
          expect(await subscriberByLogin(middleware.conn, doomedLogin)).toBeUndefined();
          expect((await checkLedger(q)).problems).toEqual([]);
        } catch (error) {
          if (server) console.error(server.output().slice(-3000));
          throw error;
        } finally {
          await server?.kill();
          await db?.close();
          await middleware.drop();
          await cleanup();
        }
      });
    });
  }
}
