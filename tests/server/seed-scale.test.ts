/**
 * `npm run seed:scale` at a small size, on SQLite and PostgreSQL: the hierarchy and accounts it
 * promises, a ledger with no broken rule (checkLedger), kept figures that match a recount, and
 * every account's renewals paid by its dealer with coverage ending at its expiry.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { expect, it } from 'vitest';
import { type Db, connect } from '../../server/db/connect';
import { migrateToLatest } from '../../server/db/migrate';
import { tallyProblems } from '../../server/db/tallies';
import { checkLedger } from '../../server/ledger/check';
import { seedScale } from '../../server/seed/scale';
import { benchMoves } from '../../bench/moves';
import { benchScale } from '../../bench/scale';
import { describeEachDatabase } from './harness';

/** A fresh, empty, migrated database of the same kind as the suite's. */
async function emptyDatabase(kind: 'sqlite' | 'postgres'): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scale-test-'));
    const db = connect(`sqlite:${path.join(dir, 'scale.sqlite')}`);
    await migrateToLatest(db.kysely);
    return {
      db,
      drop: async () => {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `scale_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const db = connect(url, { schema });
  await migrateToLatest(db.kysely);
  return {
    db,
    drop: async () => {
      await db.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

describeEachDatabase('seed:scale', (ctx) => {
  // It seeds, then runs the bench's lists and moves against an API process of their own: beside the
  // browser layers on two cores that takes over the default 30 s.
  it('builds the hierarchy, the accounts and a ledger that satisfies every rule', { timeout: 180_000 }, async () => {
    const { db, drop } = await emptyDatabase(ctx.kind);
    try {
      const report = await seedScale(db.kysely, { accounts: 3_000, managers: 3, resellers: 9, dealers: 30 });
      expect(report).toMatchObject({ users: 43, accounts: 3_000 });
      const roles = await db.kysely
        .selectFrom('users')
        .select(['role', sql<number>`count(*)`.as('n')])
        .groupBy('role')
        .orderBy('role')
        .execute();
      expect(roles.map((r) => [r.role, Number(r.n)])).toEqual([
        ['admin', 1],
        ['dealer', 30],
        ['manager', 3],
        ['reseller', 9],
      ]);
      // One to five renewals per account: about three entries per account, plus the allocations.
      expect(report.entries).toBeGreaterThan(3_000 * 2);
      expect(report.entries).toBeLessThan(3_000 * 4 + 100);

      const { problems, figures } = await checkLedger(db.kysely);
      expect(problems).toEqual([]);
      expect(figures.entries).toBe(report.entries);
      expect(figures.spent).toBeGreaterThan(0);
      // The batched inserts left the kept figures (migration 0013) what a recount gives.
      expect(await tallyProblems(db.kysely)).toEqual([]);

      // Each account's last renewal ends at its expiry and was paid by the account's owner.
      const mismatched = await sql<{ id: number }>`
        select a.id from accounts a
        where a.expiry_date <> (select max(e.coverage_end) from credit_transactions e where e.account_id = a.id and e.user_id = a.owner_id)
        limit 5`.execute(db.kysely);
      expect(mismatched.rows).toEqual([]);
      const states = await db.kysely
        .selectFrom('accounts')
        .select(['status', sql<number>`count(*)`.as('n')])
        .groupBy('status')
        .execute();
      expect(states.map((s) => s.status).sort()).toEqual(['active', 'inactive', 'suspended']);

      await expect(seedScale(db.kysely, { accounts: 10, managers: 1, resellers: 1, dealers: 1 })).rejects.toThrow(/new database/);

      // The bench's lists at scale run on it (figures, not budgets: this database is small).
      if (db.file) {
        const { figures } = await benchScale(`sqlite:${db.file}`, 2);
        expect(figures.length).toBeGreaterThan(25);
        expect(figures.filter((f) => f.status !== 200)).toEqual([]);
        for (const f of figures) expect(f.p95).toBeGreaterThan(0);
        // And the credit moves: every move answered, the ledger whole after them.
        const moves = await benchMoves(`sqlite:${db.file}`, 128);
        expect(moves.figures[0].value).toBeGreaterThan(0);
        expect(moves.figures[0].baseline).toBeGreaterThan(0);
        expect(moves.figures[1]).toMatchObject({ value: 0, pass: true });
        for (const f of moves.figures.filter((x) => x.figure.startsWith('bulk renew with'))) expect(f.pass).toBe(true);
      }
    } finally {
      await drop();
    }
  });
});
