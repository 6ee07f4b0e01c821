/**
 * PostgreSQL ending an idle connection of the pool (a restart, a failover, an administrator's
 * command) neither ends the process nor fails the next query.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connect } from '../../server/db/connect';
import { pgUrl } from './harness';

describe.runIf(pgUrl)('PostgreSQL pool', () => {
  it('survives the server terminating its idle connections', async () => {
    const db = connect(pgUrl!, { poolSize: 2 });
    const admin = new pg.Client({ connectionString: pgUrl! });
    await admin.connect();
    try {
      const pid = Number((await db.kysely.selectNoFrom((eb) => eb.fn<number>('pg_backend_pid', []).as('pid')).executeTakeFirstOrThrow()).pid);
      const ended = await admin.query('select pg_terminate_backend($1) as ok', [pid]);
      expect(ended.rows[0].ok).toBe(true);
      // The idle client hears of it (an 'error' event on the pool) before it is asked again.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await db.kysely.selectNoFrom((eb) => eb.fn<number>('pg_backend_pid', []).as('pid')).executeTakeFirstOrThrow();
      expect(Number(after.pid)).not.toBe(pid);
    } finally {
      await admin.end();
      await db.close();
    }
  });
});
