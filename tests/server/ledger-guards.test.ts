/**
 * The ledger against direct SQL (docs/architecture.md, the ledger): entries and audit entries cannot
 * be updated, replaced, deleted or truncated, and a balance changes only together with the entry
 * that records it, on SQLite and PostgreSQL. On SQLite the statements run on a connection of their
 * own with SQLite's defaults (foreign keys and recursive triggers off), as the sqlite3 shell would.
 */
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestContext, describeEachDatabase, userId } from './harness';

interface State {
  balances: string;
  entries: number;
  audits: number;
  users: number;
}

describeEachDatabase('ledger guards against direct SQL', (ctx) => {
  let shell: SQLite.Database | null = null;
  /** Runs one statement as an operator at a database prompt would. */
  const run = async (statement: string): Promise<void> => {
    if (shell) shell.exec(statement);
    else await sql.raw(statement).execute(ctx.db.kysely);
  };
  const state = async (): Promise<State> => {
    const db = ctx.db.kysely;
    const users = await db.selectFrom('users').select(['id', 'credits', 'bonus_credits', 'ledger_entry_id']).orderBy('id').execute();
    const count = async (table: 'credit_transactions' | 'audit_logs') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { balances: JSON.stringify(users), entries: await count('credit_transactions'), audits: await count('audit_logs'), users: users.length };
  };
  /** The statement fails and leaves ledger, balances and audit log as they were. */
  const refused = async (statement: string, message: RegExp = /append-only|ledger entry|starts with no credits|cannot be (deleted|replaced)|constraint/i) => {
    // The statement must fail with the guard's (or a constraint's) message, and change nothing.
    const before = await state();
    const outcome = await run(statement).then(
      () => null,
      (error: Error) => error,
    );
    expect(outcome?.message ?? `no error from: ${statement}`).toMatch(message);
    expect(await state(), statement).toEqual(before);
  };
  const latestEntry = async (id: number) =>
    ctx.db.kysely.selectFrom('credit_transactions').selectAll().where('user_id', '=', id).orderBy('id', 'desc').executeTakeFirstOrThrow();

  beforeAll(async () => {
    if (ctx.kind === 'sqlite') {
      shell = new SQLite(ctx.db.file!);
      shell.pragma('busy_timeout = 5000');
      // The sqlite3 shell's default (better-sqlite3 turns them on): nothing but triggers guards the ledger.
      shell.pragma('foreign_keys = OFF');
    }
    // The operation the hand-made entries below name (the database takes no entry without one).
    await run(`insert into ledger_operations (id, kind, entries, created_at) values ('sql', 'adjustment', 0, '2024-01-01T00:00:00.000Z')`);
    // Some audit entries to protect.
    const admin = await ctx.as('admin');
    await admin.post('/ticket-categories', { name: 'Guarded' });
  });
  afterAll(() => shell?.close());

  it('refuses to change, delete, truncate or replace ledger entries', async () => {
    const manager = await userId(ctx, 'manager');
    const entry = await latestEntry(manager);
    await refused(`update credit_transactions set credits = credits + 100 where id = ${entry.id}`);
    await refused(`update credit_transactions set remarks = 'edited'`);
    await refused(`delete from credit_transactions where id = ${entry.id}`);
    await refused('delete from credit_transactions');
    if (ctx.kind === 'postgres') {
      await refused('truncate credit_transactions cascade');
      await refused('truncate credit_transactions, audit_logs');
    } else {
      const values = `${entry.id}, 'TXN-FORGED', ${manager}, 'PURCHASED', 1000000, 0, 0, 1000000, null, null, null, 'forged', null, null, null, '${entry.created_at}'`;
      const columns =
        'id, transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, counterparty_id, actor_id, account_id, operation_id, coverage_start, coverage_end, remarks, created_at';
      await refused(`insert or replace into credit_transactions (${columns}) values (${values})`);
      await refused(`replace into credit_transactions (${columns}) values (${values})`);
      await refused(`insert into credit_transactions (${columns}) values (${values}) on conflict (id) do update set credits = excluded.credits`);
      await refused(
        `insert or replace into credit_transactions (${columns}) values (${values.replace(`${entry.id}, 'TXN-FORGED'`, `99999, '${entry.transaction_number}'`)})`,
      );
    }
  });

  it('refuses balance changes without their entry: UPDATE users SET credits, bonus_credits or the last entry', async () => {
    const manager = await userId(ctx, 'manager');
    const entry = await latestEntry(manager);
    await refused(`update users set credits = credits + 100 where id = ${manager}`);
    await refused(`update users set credits = 0 where id = ${manager}`);
    await refused(`update users set credits = 5000000, bonus_credits = 0`);
    const first = await ctx.db.kysely.selectFrom('credit_transactions').select('id').where('user_id', '=', manager).orderBy('id').executeTakeFirstOrThrow();
    expect(first.id).toBeLessThan(entry.id);
    await refused(`update users set ledger_entry_id = ${first.id} where id = ${manager}`);
    await refused(`update users set ledger_entry_id = null where id = ${manager}`);
    await refused(`update users set credits = ${entry.balance_after + 100}, ledger_entry_id = ${entry.id} where id = ${manager}`);
    // Re-applying the latest entry (its balance_before as the balance, then again its balance_after).
    await refused(`update users set credits = ${entry.balance_before} where id = ${manager}`);
    await refused(
      `insert into users (role, parent_id, path, name, username, password_hash, credits, bonus_credits, status, created_at, updated_at)
       values ('manager', 1, '/1/', 'Rich', 'rich_by_sql', 'x', 1000, 0, 'active', '2024-01-01', '2024-01-01')`,
    );
    await refused(`delete from users where id = ${manager}`);
    if (ctx.kind === 'sqlite') {
      const row = shell!.prepare('select * from users where id = ?').get(manager) as Record<string, unknown>;
      await refused(
        `insert or replace into users (id, role, parent_id, path, name, username, password_hash, credits, bonus_credits, status, created_at, updated_at)
         values (${manager}, 'manager', 1, '${row.path}', 'Replaced', 'replaced_by_sql', 'x', 0, 0, 'active', '2024-01-01', '2024-01-01')`,
      );
      await refused(
        `insert or replace into users (role, parent_id, path, name, username, password_hash, credits, bonus_credits, status, created_at, updated_at)
         values ('manager', 1, '/1/', 'Replaced', 'manager', 'x', 0, 0, 'active', '2024-01-01', '2024-01-01')`,
      );
    }
  });

  it('refuses an entry that does not continue the balance, and applies one that does', async () => {
    const manager = await userId(ctx, 'manager');
    const { credits, bonus_credits } = await ctx.db.kysely.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', manager).executeTakeFirstOrThrow();
    const insert = (n: string, before: number, change: number, bonus = 0) =>
      `insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, operation_id, created_at)
       values ('${n}', ${manager}, 'PURCHASED', ${change}, ${bonus}, ${before}, ${before + change}, 'sql', '2024-01-01T00:00:00.000Z')`;
    await refused(insert('TXN-SQL-1', credits + 7, 10));
    await refused(insert('TXN-SQL-2', credits, -1, -(bonus_credits + 1))); // bonus below zero
    await refused(insert('TXN-SQL-3', credits, -(credits + 1))); // below zero
    await run(insert('TXN-SQL-4', credits, 10));
    expect(await ctx.db.kysely.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', manager).executeTakeFirstOrThrow()).toEqual({
      credits: credits + 10,
      bonus_credits,
    });
    expect((await latestEntry(manager)).transaction_number).toBe('TXN-SQL-4');
    await run(insert('TXN-SQL-5', credits + 10, -10));
  });

  it('applies several entries of one user inserted in one statement when they chain, and refuses them when not', async () => {
    const manager = await userId(ctx, 'manager');
    const { credits, bonus_credits } = await ctx.db.kysely.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', manager).executeTakeFirstOrThrow();
    const row = (n: string, before: number, change: number, bonus = 0) =>
      `('${n}', ${manager}, 'PURCHASED', ${change}, ${bonus}, ${before}, ${before + change}, 'sql', '2024-01-01T00:00:00.000Z')`;
    const insert = (...rows: string[]) =>
      `insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, operation_id, created_at)
       values ${rows.join(', ')}`;
    await refused(insert(row('TXN-SQL-6', credits, 5), row('TXN-SQL-7', credits, 5))); // the second does not continue the first
    await refused(insert(row('TXN-SQL-8', credits, 5), row('TXN-SQL-9', credits + 5, 5), row('TXN-SQL-10', credits + 5, 1)));
    await refused(insert(row('TXN-SQL-11', credits, 5, 1), row('TXN-SQL-12', credits + 5, -1, -(bonus_credits + 2)))); // bonus below zero
    await run(insert(row('TXN-SQL-13', credits, 5, 2), row('TXN-SQL-14', credits + 5, -3), row('TXN-SQL-15', credits + 2, 1)));
    expect(await ctx.db.kysely.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', manager).executeTakeFirstOrThrow()).toEqual({
      credits: credits + 3,
      bonus_credits: bonus_credits + 2,
    });
    expect((await latestEntry(manager)).transaction_number).toBe('TXN-SQL-15');
  });

  it('guards every column of users and entries, with foreign keys off: ids, roles, users of entries, operations', async () => {
    if (shell) expect(shell.pragma('foreign_keys', { simple: true })).toBe(0);
    const manager = await userId(ctx, 'manager');
    const dealer = await userId(ctx, 'dealer');
    // Moving a user's id, or swapping two, would hand its balance to another user's entries.
    await refused(`update users set id = 99999 where id = ${manager}`, /never change/);
    await refused('update users set id = id + 100000', /never change/);
    await refused(`update users set id = case id when ${manager} then ${dealer} else ${manager} end where id in (${manager}, ${dealer})`, /never change/);
    // Whether a user's moves are transfers or mints depends on whether it is the admin.
    await refused(`update users set role = 'admin' where id = ${manager}`, /never change/);
    await refused(`update users set role = 'manager' where role = 'admin'`, /never change/);

    // Every column of an entry is fixed once written.
    const entry = await latestEntry(manager);
    for (const set of [
      `user_id = ${dealer}`,
      'credits = credits + 1',
      'bonus_credits = 1',
      'balance_before = 0',
      'balance_after = balance_after + 1',
      "type = 'USED'",
      `counterparty_id = ${dealer}`,
      'actor_id = null',
      'account_id = null',
      "operation_id = 'other'",
      "created_at = '2020-01-01'",
      "transaction_number = 'TXN-X'",
    ]) {
      await refused(`update credit_transactions set ${set} where id = ${entry.id}`, /append-only/);
    }

    const { credits } = await ctx.db.kysely.selectFrom('users').select('credits').where('id', '=', manager).executeTakeFirstOrThrow();
    const insert = (n: string, userId: number, operation: string, counterparty: number | null = null) =>
      `insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, counterparty_id, operation_id, created_at)
       values ('${n}', ${userId}, 'PURCHASED', 5, 0, ${credits}, ${credits + 5}, ${counterparty ?? 'null'}, '${operation}', '2024-01-01T00:00:00.000Z')`;
    await refused(insert('TXN-NO-OP', manager, 'never-recorded'), /names the operation that wrote it/);
    await refused(insert('TXN-NO-USER', 987654, 'sql'), /foreign key/i);
    await refused(insert('TXN-NO-PARTY', manager, 'sql', 987654), /foreign key/i);

    // A user whose balance is back to 0 still has its entries: it cannot be deleted from under them.
    await run(
      `insert into users (role, parent_id, path, name, username, password_hash, credits, bonus_credits, status, created_at, updated_at)
       values ('dealer', ${manager}, '/x/', 'Spent', 'spent_by_sql', 'x', 0, 0, 'active', '2024-01-01', '2024-01-01')`,
    );
    const spent = await userId(ctx, 'spent_by_sql');
    const chained = (n: string, before: number, change: number) =>
      `insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, operation_id, created_at)
       values ('${n}', ${spent}, 'PURCHASED', ${change}, 0, ${before}, ${before + change}, 'sql', '2024-01-01T00:00:00.000Z')`;
    await run(chained('TXN-SPENT-1', 0, 5));
    await run(chained('TXN-SPENT-2', 5, -5));
    await refused(`delete from users where id = ${spent}`, /foreign key/i);

    // Operations are append-only too.
    await refused("update ledger_operations set entries = entries + 1 where id = 'sql'", /append-only/);
    await refused("update ledger_operations set id = 'moved' where id = 'sql'", /append-only/);
    await refused('delete from ledger_operations', /append-only/);
    if (ctx.kind === 'postgres') await refused('truncate ledger_operations', /append-only/);
    else await refused("insert or replace into ledger_operations (id, kind, entries, created_at) values ('sql', 'adjustment', 9, '2024-01-01')", /cannot be replaced/);
  });

  it('refuses to change, delete, truncate or replace audit entries', async () => {
    const last = await ctx.db.kysely.selectFrom('audit_logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    await refused(`update audit_logs set ip_address = '6.6.6.6' where id = ${last.id}`);
    await refused(`delete from audit_logs where id = ${last.id}`);
    await refused('delete from audit_logs');
    if (ctx.kind === 'postgres') await refused('truncate audit_logs');
    else {
      await refused(
        `insert or replace into audit_logs (id, module, action, description, created_at) values (${last.id}, 'auth', 'login', 'forged', '${last.created_at}')`,
      );
    }
  });

  it('keeps every balance equal to the sum of its entries, chained', async () => {
    await checkLedger(ctx);
  });
});

async function checkLedger(ctx: TestContext) {
  const db = ctx.db.kysely;
  const users = await db.selectFrom('users').select(['id', 'credits', 'bonus_credits', 'ledger_entry_id']).execute();
  const entries = await db.selectFrom('credit_transactions').selectAll().orderBy('id').execute();
  for (const user of users) {
    const own = entries.filter((e) => e.user_id === user.id);
    expect(
      own.reduce((s, e) => s + e.credits, 0),
      `user ${user.id}`,
    ).toBe(user.credits);
    expect(
      own.reduce((s, e) => s + e.bonus_credits, 0),
      `user ${user.id} bonus`,
    ).toBe(user.bonus_credits);
    own.reduce((previous, e) => {
      expect(e.balance_before, `entry ${e.id}`).toBe(previous);
      return e.balance_after;
    }, 0);
    expect(user.ledger_entry_id, `user ${user.id} last entry`).toBe(own.at(-1)?.id ?? null);
  }
}
