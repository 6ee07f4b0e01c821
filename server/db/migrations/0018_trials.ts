import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * One free trial per device per period, and a daily number of trials per creator (docs/reliability.md), kept
 * by keys the database enforces so that concurrent requests cannot both pass a check:
 * - trial_devices, one row per normalised MAC address: when its last trial started. A trial claims
 *   the row with one upsert that only succeeds when the row is absent or older than the period;
 *   a concurrent claim waits on the row and then finds it taken. Deleting, converting or re-MACing
 *   the account leaves the row, so none of them frees the device.
 * - trial_quotas, per creator and UTC day: how many trials the creator started, raised by an
 *   upsert that refuses to go past the cap.
 * Both are filled from the trials already made (trial accounts, live or deleted, and TRIAL entries).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('trial_devices')
    .addColumn('mac_address', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('trial_quotas')
    .addColumn('creator_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('trial_quotas_pk', ['creator_id', 'day'])
    .execute();

  if (pg) await sql`lock table accounts, credit_transactions in share mode`.execute(db);
  // Every trial known so far, by the account's MAC: the account's own flag (still a trial) and the
  // TRIAL entries (kept when a trial was converted); the latest start wins.
  await sql`
    insert into trial_devices (mac_address, account_id, started_at)
    select mac_address, account_id, started_at from (
      select t.*, row_number() over (partition by mac_address order by started_at desc, account_id desc) as n from (
        select a.mac_address, a.id as account_id, a.created_at as started_at from accounts a where a.is_trial = 1
        union all
        select a.mac_address, a.id, e.created_at from credit_transactions e join accounts a on a.id = e.account_id where e.type = 'TRIAL'
      ) t
    ) ranked
    where n = 1`.execute(db);
  const today = new Date().toISOString().slice(0, 10);
  await sql`
    insert into trial_quotas (creator_id, day, n)
    select user_id, ${today}, count(*) from credit_transactions
    where type = 'TRIAL' and created_at >= ${`${today}T00:00:00.000Z`}
    group by user_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('trial_quotas').execute();
  await db.schema.dropTable('trial_devices').execute();
}
