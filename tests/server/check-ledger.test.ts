/**
 * `npm run check:ledger` (server/ledger/check.ts) on a ledger written through the API: every rule
 * holds and the figures add up; with the database's guards taken away by hand, it finds the damage.
 */
import { randomBytes } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connect } from '../../server/db/connect';
import { migrateToLatest } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations';
import { LEGACY_OPERATION } from '../../server/db/migrations/0022_ledger_operations';
import { checkLedger, operationProblems } from '../../server/ledger/check';
import { insertUser } from '../../server/users';
import { describeEachDatabase, pgUrl } from './harness';
import { createBranch } from './hierarchyFixtures';

describeEachDatabase('check:ledger', (ctx) => {
  it('passes on a ledger the API wrote, with figures that add up', async () => {
    const admin = await ctx.as('admin');
    const { manager, reseller, dealer } = await createBranch(ctx, { manager: 300, reseller: 100, dealer: 40 });
    expect((await reseller.client.post(`/dealers/${dealer.id}/credits`, { action: 'recover', credits: 10 })).status).toBe(200);
    expect((await admin.post(`/managers/${manager.id}/credits`, { action: 'recover', credits: 25 })).status).toBe(200);
    const account = await dealer.client.post('/accounts', { login: `chk${Date.now()}`, full_name: 'Check', password: 'x', mac_address: '02:AA:BB:CC:DD:EE', months: 2 });
    expect(account.status, JSON.stringify(account.body)).toBe(201);

    const { figures, problems } = await checkLedger(ctx.db.kysely);
    expect(problems).toEqual([]);
    expect(figures.minted - figures.burned).toBe(figures.held + figures.spent);
    expect(figures.burned).toBeGreaterThanOrEqual(25);
    expect(figures.spent).toBeGreaterThan(0);
    expect(figures.transfers).toBeGreaterThanOrEqual(3);
    const held = await ctx.db.kysely
      .selectFrom('users')
      .select(sql<number>`sum(credits)`.as('s'))
      .executeTakeFirstOrThrow();
    expect(figures.held).toBe(Number(held.s));
  });

  it('reports balances that disagree with their entries, broken chains and unpaired moves', async () => {
    const db = ctx.db.kysely;
    const { reseller, dealer } = await createBranch(ctx, { reseller: 50, dealer: 20 });
    // Only an operator who removes the guards can do this; the check must then see it.
    if (ctx.kind === 'postgres') await sql`alter table users disable trigger users_balance_from_ledger`.execute(db);
    else await sql`drop trigger users_balance_from_ledger`.execute(db);
    await sql`update users set credits = credits + 7 where id = ${dealer.id}`.execute(db);
    const { problems } = await checkLedger(db);
    expect(problems.join('\n')).toContain(`user ${dealer.id}: balance`);
    expect(problems.join('\n')).toMatch(/minted .* but held/);
    await sql`update users set credits = credits - 7 where id = ${dealer.id}`.execute(db);

    await sql`insert into ledger_operations (id, kind, entries, created_at) values ('check-op', 'adjustment', 1, '2024-01-01T00:00:00.000Z')`.execute(db);
    await sql`insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, counterparty_id, operation_id, created_at)
      values ('TXN-CHECK-1', ${reseller.id}, 'USED', 0, 0, 3, 3, ${dealer.id}, 'check-op', '2024-01-01T00:00:00.000Z')`.execute(db);
    const after = (await checkLedger(db)).problems.join('\n');
    expect(after).toMatch(/starts at 3, the previous one ended at/);
    expect(after).toMatch(/without that user's entry in operation check-op/);
  });
});

/**
 * Every entry names the operation that wrote it (migration 0022): the panel's own writers leave none
 * without one, and an entry made by hand, even one that chains and balances, is reported instead of
 * being counted as minted.
 */
describeEachDatabase('check:ledger: entries no operation of the panel wrote', (ctx) => {
  /** A PURCHASED +1,000,000 that continues the user's balance, as a forger would write it. */
  const forgeMint = async (userId: number, operation: string, transactionNumber: string) => {
    const db = ctx.db.kysely;
    const { credits } = await db.selectFrom('users').select('credits').where('id', '=', userId).executeTakeFirstOrThrow();
    await sql`insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, operation_id, created_at)
      values (${transactionNumber}, ${userId}, 'PURCHASED', 1000000, 0, ${credits}, ${credits + 1_000_000}, ${operation}, ${new Date().toISOString()})`.execute(db);
  };
  /** The problems other than those of operations: the checks that came before them. */
  const others = (problems: string[]) => problems.filter((p) => !/operation/.test(p));

  it('finds every entry of the normal flows written by a recorded operation of its kind, with its count', async () => {
    const db = ctx.db.kysely;
    const admin = await ctx.as('admin');
    const { manager, reseller, dealer } = await createBranch(ctx, { manager: 100, reseller: 60, dealer: 40 });
    expect((await reseller.client.post(`/dealers/${dealer.id}/credits`, { action: 'recover', credits: 5 })).status).toBe(200);
    expect((await admin.post(`/managers/${manager.id}/credits`, { action: 'recover', credits: 10 })).status).toBe(200);
    const mac = () => `02:${randomBytes(5).toString('hex').match(/../g)!.join(':').toUpperCase()}`;
    const open = async (months: number) => {
      const res = await dealer.client.post('/accounts', { login: `op${randomBytes(4).toString('hex')}`, full_name: 'Op', password: 'x', mac_address: mac(), months });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as number;
    };
    const a = await open(3);
    const b = await open(1);
    expect((await dealer.client.post(`/accounts/${a}/credits`, { action: 'renew', months: 1 })).status).toBe(200);
    expect((await dealer.client.post('/accounts/bulk-renew', { account_ids: [a, b], months: 1 })).status).toBe(200);
    expect((await dealer.client.post(`/accounts/${a}/credits`, { action: 'recover', months: 1 })).status).toBe(200);
    const trial = await dealer.client.post('/accounts', {
      login: `opt${randomBytes(4).toString('hex')}`,
      full_name: 'Trial',
      password: 'x',
      mac_address: mac(),
      is_trial: true,
    });
    expect(trial.status, JSON.stringify(trial.body)).toBe(201);

    expect(await operationProblems(db)).toEqual([]);
    expect((await checkLedger(db)).problems).toEqual([]);
    // Each entry's operation is the one its writer recorded, of the writer's kind.
    const kinds = await db
      .selectFrom('credit_transactions as e')
      .innerJoin('ledger_operations as o', 'o.id', 'e.operation_id')
      .select(['o.kind', 'e.type', 'e.account_id'])
      .where('e.user_id', 'in', [manager.id, reseller.id, dealer.id])
      .execute();
    expect(kinds).toHaveLength(
      await db
        .selectFrom('credit_transactions')
        .select(sql<number>`count(*)`.as('n'))
        .where('user_id', 'in', [manager.id, reseller.id, dealer.id])
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n)),
    );
    expect(new Set(kinds.map((k) => k.kind))).toEqual(new Set(['credit_move', 'renewal', 'bulk_renew', 'recovery', 'trial']));
    expect(kinds.filter((k) => k.account_id !== null).every((k) => k.kind !== 'credit_move')).toBe(true);
    expect(await db.selectFrom('ledger_operations').select('kind').where('kind', '=', 'seed').executeTakeFirst()).toBeDefined();
  });

  it('reports an entry slipped into an operation the panel recorded (the database takes it: the operation exists)', async () => {
    const db = ctx.db.kysely;
    const { reseller, dealer } = await createBranch(ctx, { reseller: 20, dealer: 10 });
    const move = await db
      .selectFrom('credit_transactions as e')
      .innerJoin('ledger_operations as o', 'o.id', 'e.operation_id')
      .select(['o.id', 'o.entries'])
      .where('e.user_id', '=', dealer.id)
      .where('o.kind', '=', 'credit_move')
      .executeTakeFirstOrThrow();
    expect(move.entries).toBe(2);
    expect((await checkLedger(db)).problems).toEqual([]);
    await forgeMint(reseller.id, move.id, 'TXN-SLIPPED-IN');
    const { problems } = await checkLedger(db);
    expect(problems.join('\n')).toMatch(new RegExp(`operation ${move.id} \\(credit_move\\) wrote 2 entries but 3 name it`));
    // Every check before this one passes it: it chains, balances, and counts as minted.
    expect(others(problems)).toEqual([]);
  });

  it('reports a hand-made, correctly chained PURCHASED +1,000,000 naming no recorded operation, written with the guard bypassed', async () => {
    const db = ctx.db.kysely;
    const { dealer } = await createBranch(ctx, { dealer: 10 });
    // Only the tables' owner can do this (the runtime role cannot: runtime-role.test.ts); the check must then see it.
    if (ctx.kind === 'postgres') await sql`alter table credit_transactions disable trigger credit_transactions_names_operation`.execute(db);
    else await sql`drop trigger credit_transactions_names_operation`.execute(db);
    const before = (await checkLedger(db)).figures;
    await forgeMint(dealer.id, 'forged-mint', 'TXN-FORGED-MINT');
    const { figures, problems } = await checkLedger(db);
    const entry = await db.selectFrom('credit_transactions').select('id').where('transaction_number', '=', 'TXN-FORGED-MINT').executeTakeFirstOrThrow();
    expect(problems).toContain(`entry ${entry.id} (PURCHASED +1000000 for user ${dealer.id}): names operation forged-mint, which the panel never recorded`);
    expect(figures.minted).toBe(before.minted + 1_000_000);
    expect(problems.filter((p) => !/operation/.test(p) && !/TXN-SLIPPED-IN/.test(p))).toEqual([]);
    expect(await db.selectFrom('users').select('credits').where('id', '=', dealer.id).executeTakeFirstOrThrow()).toEqual({ credits: 1_000_010 });
  });
});

/** Entries written before migration 0022 get one 'legacy' operation per operation id they carry. */
describe('migration 0022 on a ledger written before it', () => {
  const kinds = pgUrl ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
  for (const kind of kinds) {
    it(`records the older entries' operations as legacy, and check:ledger passes them [${kind}]`, async () => {
      const schema = `test_legacy_${randomBytes(4).toString('hex')}`;
      const superuser = kind === 'postgres' ? new pg.Client({ connectionString: pgUrl! }) : null;
      if (superuser) {
        await superuser.connect();
        await superuser.query(`create schema ${schema}`);
      }
      const db = kind === 'postgres' ? connect(pgUrl!, { schema, poolSize: 2 }) : connect('sqlite::memory:');
      try {
        const migrator = new Migrator({
          db: db.kysely,
          provider: { getMigrations: async () => migrations },
          migrationTableSchema: kind === 'postgres' ? schema : undefined,
        });
        const upTo = await migrator.migrateTo('0015_unlogged_counters');
        expect(upTo.error).toBeUndefined();
        const user = await insertUser(db.kysely, null, { role: 'admin', name: 'Old', username: 'old_admin', password_hash: 'x' });
        const entry = (n: number, before: number, change: number, operation: string) =>
          sql`insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, actor_id, operation_id, created_at)
            values (${`TXN-OLD-${n}`}, ${user.id}, 'PURCHASED', ${change}, 0, ${before}, ${before + change}, ${user.id}, ${operation}, ${`2024-01-0${n}T00:00:00.000Z`})`.execute(
            db.kysely,
          );
        await entry(1, 0, 10, 'old-a');
        await entry(2, 10, 5, 'old-b');
        await entry(3, 15, -3, 'old-b');
        await migrateToLatest(db.kysely);
        const operations = await db.kysely.selectFrom('ledger_operations').selectAll().orderBy('id').execute();
        expect(operations).toEqual([
          { id: 'old-a', kind: LEGACY_OPERATION, actor_id: user.id, entries: 1, created_at: '2024-01-01T00:00:00.000Z' },
          { id: 'old-b', kind: LEGACY_OPERATION, actor_id: user.id, entries: 2, created_at: '2024-01-02T00:00:00.000Z' },
        ]);
        expect(await operationProblems(db.kysely)).toEqual([]);
      } finally {
        await db.close();
        if (superuser) {
          await superuser.query(`drop schema ${schema} cascade`);
          await superuser.end();
        }
      }
    });
  }
});
