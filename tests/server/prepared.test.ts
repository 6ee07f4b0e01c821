/**
 * Statements built and compiled once (server/db/prepared.ts): each call runs with its own values,
 * in every place an argument stands, beside the build's own values; a build that uses an argument
 * for anything but a value is refused at its first call.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from '../../server/db/connect';
import { prepared } from '../../server/db/prepared';
import { describeEachDatabase, pgUrl } from './harness';

describeEachDatabase('prepared statements', (ctx) => {
  const usersByRole = prepared((db, role: string, minId: number) =>
    db
      .selectFrom('users')
      .select(['id', 'username', sql<string>`${role} || '!'`.as('echo')])
      .where('role', '=', role)
      .where('id', '>=', minId)
      .where('status', '!=', 'deleted') // the build's own value
      .orderBy('id'),
  );

  it('answers what the statement built for each call answers, an argument used twice filled twice', async () => {
    const db = ctx.db.kysely;
    const direct = (role: string, minId: number) =>
      db.selectFrom('users').select(['id', 'username']).where('role', '=', role).where('id', '>=', minId).where('status', '!=', 'deleted').orderBy('id').execute();
    for (const [role, minId] of [
      ['dealer', 0],
      ['manager', 0],
      ['dealer', 5],
      ['nobody', 0],
    ] as const) {
      const rows = await usersByRole(db, role, minId);
      expect(rows.map(({ id, username }) => ({ id, username }))).toEqual(await direct(role, minId));
      for (const row of rows) expect(row.echo).toBe(`${role}!`);
    }
    expect((await usersByRole(db, 'dealer', 0)).length).toBeGreaterThan(0);
  });

  it('runs inside a transaction, on its connection', async () => {
    const db = ctx.db.kysely;
    const before = (await usersByRole(db, 'dealer', 0)).length;
    await db
      .transaction()
      .execute(async (trx) => {
        const first = await trx.selectFrom('users').select('id').where('role', '=', 'dealer').orderBy('id').executeTakeFirstOrThrow();
        await trx.updateTable('users').set({ role: 'reseller' }).where('id', '=', first.id).execute();
        expect((await usersByRole(trx, 'dealer', 0)).length).toBe(before - 1);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await usersByRole(db, 'dealer', 0)).length).toBe(before);
  });

  it('refuses a build that uses an argument for anything but a value', async () => {
    const bad = prepared((db, column: string) => db.selectFrom('users').select(column === 'id' ? 'id' : 'username'));
    await expect(bad(ctx.db.kysely, 'id')).rejects.toThrow(/argument 0 is not a value/);
  });
});

// PostgreSQL: a compiled statement is sent as a named prepared statement, parsed and planned once
// on each connection; any other statement stays unnamed.
describe.skipIf(!pgUrl)('prepared statements are named on PostgreSQL', () => {
  it('prepares a compiled statement once on its connection and reuses it', async () => {
    const db = connect(pgUrl!, { poolSize: 1 });
    try {
      const count = prepared((k, min: number) =>
        k
          .selectFrom('pg_catalog.pg_class' as never)
          .select(sql<number>`count(*)`.as('n'))
          .where(sql<boolean>`oid >= ${min}`),
      );
      const named = () => sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'panel_%'`.execute(db.kysely);
      expect((await named()).rows).toEqual([]);
      await count(db.kysely, 0);
      await count(db.kysely, 1);
      const statements = (await named()).rows.map((r) => r.statement);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/from "pg_catalog"\."pg_class" where oid >= \$1/);
      // Unregistered statements (the lookups above) are not kept on the connection.
      expect((await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(db.kysely)).rows[0].n).toBe(1);
    } finally {
      await db.close();
    }
  });
});
