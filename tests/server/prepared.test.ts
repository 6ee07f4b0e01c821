/**
 * Statements built and compiled once (server/db/prepared.ts): each call runs with its own values,
 * in every place an argument stands, beside the build's own values; a build that uses an argument
 * for anything but a value is refused at its first call.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { prepared } from '../../server/db/prepared';
import { describeEachDatabase } from './harness';

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
    for (const [role, minId] of [['dealer', 0], ['manager', 0], ['dealer', 5], ['nobody', 0]] as const) {
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
