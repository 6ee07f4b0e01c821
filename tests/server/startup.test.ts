/**
 * Several processes starting at once on one empty database (docs/reliability.md): migrations, the first admin
 * and the demo seed run once, under the start-up lock, and every process starts. Separate database
 * handles stand for the processes here (each its own connections, as a process has);
 * scripts/reliability/two-process.ts does the same with real processes.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type Db, connect } from '../../server/db/connect';
import { prepareDatabase, withStartupLock } from '../../server/startup';
import { migrations } from '../../server/db/migrations';
import { pgUrl } from './harness';

/** `count` handles on one fresh database, and a cleanup. */
async function freshDatabase(kind: 'sqlite' | 'postgres', count: number): Promise<{ dbs: Db[]; cleanup: () => Promise<void> }> {
  if (kind === 'postgres') {
    const schema = `test_startup_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl! });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const dbs = Array.from({ length: count }, () => connect(pgUrl!, { schema, poolSize: 3 }));
    return {
      dbs,
      cleanup: async () => {
        await Promise.all(dbs.map((d) => d.close()));
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-startup-'));
  const dbs = Array.from({ length: count }, () => connect(`sqlite:${path.join(dir, 'panel.sqlite')}`));
  return {
    dbs,
    cleanup: async () => {
      await Promise.all(dbs.map((d) => d.close()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const kinds = pgUrl ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

for (const kind of kinds) {
  describe(`start-up of several processes at once [${kind}]`, () => {
    it('migrates, creates the first admin and seeds the demo exactly once; every process starts', { timeout: 120_000 }, async () => {
      const { dbs, cleanup } = await freshDatabase(kind, 4);
      try {
        const results = await Promise.allSettled(dbs.map((db) => prepareDatabase(db, { demoMode: true, adminUsername: 'root', adminPassword: 'root-password-1' })));
        expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
        const prepared = results.map((r) => (r as PromiseFulfilledResult<{ adminCreated: boolean; demoSeeded: boolean }>).value);
        expect(prepared.filter((p) => p.adminCreated)).toHaveLength(1);
        // The first admin exists before the seed looks, so the demo is seeded only on a database without users.
        expect(prepared.filter((p) => p.demoSeeded)).toHaveLength(0);

        const db = dbs[0].kysely;
        const admins = await db.selectFrom('users').select('username').where('role', '=', 'admin').execute();
        expect(admins.map((a) => a.username)).toEqual(['root']);
        const applied = await db
          .selectFrom('kysely_migration' as any)
          .select('name')
          .execute();
        expect(applied.map((m: any) => m.name).sort()).toEqual(Object.keys(migrations).sort());
      } finally {
        await cleanup();
      }
    });

    it('seeds the demo hierarchy once when several demo-mode processes start on an empty database', { timeout: 120_000 }, async () => {
      const { dbs, cleanup } = await freshDatabase(kind, 4);
      try {
        const results = await Promise.allSettled(dbs.map((db) => prepareDatabase(db, { demoMode: true })));
        expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
        expect(results.filter((r) => r.status === 'fulfilled' && r.value.demoSeeded)).toHaveLength(1);
        const db = dbs[0].kysely;
        const servers = await db.selectFrom('servers').select('name').execute();
        expect(servers.map((s) => s.name).sort()).toEqual(['Backup Server', 'Main Server']);
        const users = await db.selectFrom('users').select('username').execute();
        expect(new Set(users.map((u) => u.username)).size).toBe(users.length);
        expect(users.filter((u) => u.username === 'admin')).toHaveLength(1);
      } finally {
        await cleanup();
      }
    });

    it('lets one holder in at a time', { timeout: 60_000 }, async () => {
      const { dbs, cleanup } = await freshDatabase(kind, 3);
      try {
        let inside = 0;
        let most = 0;
        await Promise.all(
          dbs.map((db) =>
            withStartupLock(db, async () => {
              inside++;
              most = Math.max(most, inside);
              await new Promise((resolve) => setTimeout(resolve, 150));
              inside--;
            }),
          ),
        );
        expect(most).toBe(1);
      } finally {
        await cleanup();
      }
    });
  });
}
