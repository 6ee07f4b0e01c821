/**
 * PostgreSQL with a runtime role (server/db/roles.ts): the tables belong to the
 * role that migrates them, and the API runs as a role that owns nothing. That role cannot take the
 * ledger guards away (disable or drop triggers, replace their functions, session_replication_role),
 * truncate, delete or rewrite entries, change a balance without an entry, or forge an entry without
 * an operation, while the API works fully as that role. A throwaway role, dropped afterwards, in a
 * schema of its own.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { type Config, loadConfig } from '../../server/config';
import { type Db, connect } from '../../server/db/connect';
import { migrateToLatest } from '../../server/db/migrate';
import { RoleRefused, runtimeRoles, setupRuntimeRole } from '../../server/db/roles';
import type { Database } from '../../server/db/schema';
import { prepareDatabase } from '../../server/startup';
import { checkLedger } from '../../server/ledger/check';
import { type TestContext, clientsOf, listenOnLoopback, pgUrl } from './harness';
import { createBranch, createDealer } from './hierarchyFixtures';

const suite = pgUrl ? describe : describe.skip;

/** The URL of `base` as another user, working in `schema`. */
function urlFor(base: string, schema: string, user?: { name: string; password: string }): string {
  const url = new URL(base);
  if (user) {
    url.username = user.name;
    url.password = user.password;
  }
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

suite('the API as a runtime role that owns no table [postgres]', () => {
  const schema = `test_rt_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const role = `panel_rt_${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  let superuser: pg.Client;
  let owner: Db;
  let runtime: Db;
  let app: FastifyInstance | undefined;
  const ctx = {} as TestContext;

  beforeAll(async () => {
    superuser = new pg.Client({ connectionString: pgUrl! });
    await superuser.connect();
    await superuser.query(`create schema ${schema}`);
    owner = connect(urlFor(pgUrl!, schema), { poolSize: 2 });
    await migrateToLatest(owner.kysely);
    // Twice: setting up is idempotent (and sets the password again).
    await setupRuntimeRole(owner.kysely, role, password);
    await setupRuntimeRole(owner.kysely, role, password);

    const runtimeUrl = urlFor(pgUrl!, schema, { name: role, password });
    runtime = connect(runtimeUrl, { poolSize: 5 });
    const config: Config = {
      ...loadConfig({ NODE_ENV: 'test', DEMO_MODE: 'true', DATABASE_URL: runtimeUrl, MIGRATION_DATABASE_URL: urlFor(pgUrl!, schema) }),
      schedulers: false,
    };
    // As `npm start` does: migrations over the owner's connection, the demo seed as the runtime role.
    const prepared = await prepareDatabase(runtime, config);
    expect(prepared.demoSeeded).toBe(true);
    app = await buildApp({ db: runtime, config, panelDir: null });
    const baseUrl = await listenOnLoopback(app);
    Object.assign(ctx, { kind: 'postgres', app, db: runtime, baseUrl, config, ...clientsOf(baseUrl) } satisfies TestContext);
  });

  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await owner?.close();
    await superuser.query(`drop schema if exists ${schema} cascade`);
    // Its privileges and default privileges go first, then the role.
    await superuser.query(`drop owned by ${role}`).catch(() => undefined);
    await superuser.query(`drop role if exists ${role}`);
    await superuser.end();
  });

  const state = async (db: Kysely<Database>) => {
    const users = await db.selectFrom('users').select(['id', 'credits', 'bonus_credits', 'ledger_entry_id']).orderBy('id').execute();
    const count = async (table: 'credit_transactions' | 'audit_logs' | 'ledger_operations') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { users: JSON.stringify(users), entries: await count('credit_transactions'), audits: await count('audit_logs'), operations: await count('ledger_operations') };
  };
  /** The statement, run as the runtime role, fails with `message` and changes nothing. */
  const refused = async (statement: string, message: RegExp) => {
    const before = await state(owner.kysely);
    const outcome = await sql
      .raw(statement)
      .execute(runtime.kysely)
      .then(
        () => null,
        (error: Error) => error,
      );
    expect(outcome?.message ?? `no error from: ${statement}`, statement).toMatch(message);
    expect(await state(owner.kysely), statement).toEqual(before);
  };
  const NOT_OWNER = /must be owner/;
  const DENIED = /permission denied/;

  it('cannot disable, drop or replace the guards, nor turn triggers off for its session', async () => {
    await refused('alter table credit_transactions disable trigger all', NOT_OWNER);
    await refused('alter table users disable trigger users_balance_from_ledger', NOT_OWNER);
    await refused('alter table credit_transactions disable trigger credit_transactions_names_operation', NOT_OWNER);
    await refused('drop trigger users_balance_from_ledger on users', NOT_OWNER);
    // Creating anything in the schema is refused before ownership is even asked.
    await refused(
      'create or replace function users_balance_from_ledger() returns trigger language plpgsql as $$ begin return new; end $$',
      /must be owner|permission denied/,
    );
    await refused('alter table credit_transactions drop constraint credit_transactions_balances_valid', NOT_OWNER);
    await refused('alter table users drop constraint users_balance_valid', NOT_OWNER);
    await refused('set session_replication_role = replica', DENIED);
    await refused(`alter role ${role} superuser`, /must be superuser|permission denied/);
    await refused(`alter role ${role} bypassrls`, /must be superuser|permission denied/);
  });

  it('cannot truncate, delete or rewrite entries, operations, audit entries or the migrations record', async () => {
    const manager = (await owner.kysely.selectFrom('users').select('id').where('username', '=', 'manager').executeTakeFirstOrThrow()).id;
    for (const table of ['credit_transactions', 'ledger_operations', 'audit_logs', 'users', 'ledger_tallies']) {
      await refused(`truncate ${table} cascade`, DENIED);
    }
    await refused('delete from credit_transactions', DENIED);
    await refused(`update credit_transactions set credits = credits + 100, balance_after = balance_after + 100 where user_id = ${manager}`, DENIED);
    await refused(`update credit_transactions set user_id = ${manager}`, DENIED);
    await refused('delete from ledger_operations', DENIED);
    await refused('update ledger_operations set entries = entries + 1', DENIED);
    await refused('delete from audit_logs', DENIED);
    await refused("update audit_logs set ip_address = '6.6.6.6'", DENIED);
    await refused('delete from kysely_migration', DENIED);
    await refused("insert into kysely_migration (name, timestamp) values ('9999_forged', '2024-01-01')", DENIED);
  });

  it('cannot change a balance without an entry, nor write an entry no operation wrote', async () => {
    const row = await owner.kysely.selectFrom('users').select(['id', 'credits']).where('username', '=', 'manager').executeTakeFirstOrThrow();
    await refused(`update users set credits = credits + 1000000 where id = ${row.id}`, /change only by inserting the ledger entry/);
    await refused(`update users set id = id + 100000 where id = ${row.id}`, /never change/);
    await refused(`update users set role = 'admin' where id = ${row.id}`, /becomes or stops being the admin/);
    // A correctly chained mint by hand: refused, as it names no operation the panel recorded.
    await refused(
      `insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, operation_id, created_at)
       values ('TXN-FORGED-RT', ${row.id}, 'PURCHASED', 1000000, 0, ${row.credits}, ${row.credits + 1000000}, 'forged', '2024-01-01T00:00:00.000Z')`,
      /names the operation that wrote it/,
    );
  });

  it('serves the API fully: sign-in, credit moves, account creation, renewals, bulk renewal, trials, recovery, deletes', async () => {
    const admin = await ctx.as('admin');
    expect((await admin.get('/user')).status).toBe(200);
    const { manager, reseller, dealer } = await createBranch(ctx, { manager: 200, reseller: 100, dealer: 60 });
    expect((await reseller.client.post(`/dealers/${dealer.id}/credits`, { action: 'recover', credits: 5 })).status).toBe(200);
    expect((await admin.post(`/managers/${manager.id}/credits`, { action: 'renew', credits: 10 }, { 'idempotency-key': 'rt-1' })).status).toBe(200);
    // The same key again: the stored answer, nothing moves.
    const replay = await admin.post(`/managers/${manager.id}/credits`, { action: 'renew', credits: 10 }, { 'idempotency-key': 'rt-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const mac = () => `02:${randomBytes(5).toString('hex').match(/../g)!.join(':').toUpperCase()}`;
    const created = await dealer.client.post('/accounts', { login: `rt${Date.now()}`, full_name: 'Runtime', password: 'x', mac_address: mac(), months: 2 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const accountId = created.body.data?.id ?? created.body.id;
    const renewed = await dealer.client.post(`/accounts/${accountId}/credits`, { action: 'renew', months: 1 });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    const second = await dealer.client.post('/accounts', { login: `rt2${Date.now()}`, full_name: 'Runtime 2', password: 'x', mac_address: mac(), months: 1 });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const bulk = await dealer.client.post('/accounts/bulk-renew', { account_ids: [accountId, second.body.data?.id ?? second.body.id], months: 1 });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    const trial = await dealer.client.post('/accounts', { login: `rtt${Date.now()}`, full_name: 'Trial', password: 'x', mac_address: mac(), is_trial: true });
    expect(trial.status, JSON.stringify(trial.body)).toBe(201);
    // A user with no history is deleted; one with entries is only marked deleted.
    const fresh = await createDealer(ctx, reseller.client, 0);
    expect((await reseller.client.delete(`/dealers/${fresh.id}`)).status).toBeLessThan(300);
    const paid = await createDealer(ctx, reseller.client, 10);
    expect((await reseller.client.post(`/dealers/${paid.id}/credits`, { action: 'recover', credits: 10 })).status).toBe(200);
    expect((await reseller.client.delete(`/dealers/${paid.id}`)).status).toBeLessThan(300);
    expect((await dealer.client.post('/tickets', { subject: 'Runtime role', message: 'Works', category_id: 1 })).status).toBeLessThan(300);

    const kinds = await owner.kysely.selectFrom('ledger_operations').select('kind').distinct().execute();
    expect(kinds.map((k) => k.kind).sort()).toEqual(expect.arrayContaining(['bulk_renew', 'credit_move', 'renewal', 'seed', 'trial']));
    const { problems } = await checkLedger(owner.kysely);
    expect(problems).toEqual([]);
  });

  it('gets its grants on tables later migrations create, and setting up refuses a role that could take the guards away', async () => {
    expect(await runtimeRoles(owner.kysely)).toEqual([role]);
    // A table a later migration adds (as the owner): the runtime role may use it and its sequence.
    await sql`create table later_journal (id serial primary key, note text not null)`.execute(owner.kysely);
    await sql`insert into later_journal (note) values ('written by the API')`.execute(runtime.kysely);
    await sql`update later_journal set note = 'settled'`.execute(runtime.kysely);
    await sql`delete from later_journal`.execute(runtime.kysely);
    await expect(sql`alter table later_journal disable trigger all`.execute(runtime.kysely)).rejects.toThrow(NOT_OWNER);

    const me = (await sql<{ me: string }>`select current_user as me`.execute(owner.kysely)).rows[0].me;
    await expect(setupRuntimeRole(owner.kysely, me)).rejects.toThrow(RoleRefused);
    await expect(setupRuntimeRole(owner.kysely, 'Bad-Name')).rejects.toThrow(RoleRefused);
  });
});
