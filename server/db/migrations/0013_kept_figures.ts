import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Figures kept with the rows they count (server/db/tallies.ts reads them), so the dashboard, the
 * analytics and the hierarchy lists sum a few thousand tally rows instead of a million accounts or
 * millions of ledger entries. The database keeps them, by triggers, whatever writes the rows (API,
 * jobs, seeding, direct SQL), in the writing transaction.
 *
 * - account_tallies, per owner: 'all' (live accounts; `active` = those with status 'active'),
 *   'none' (live without an expiry), 'month'/'day' (live by expiry month 'YYYY-MM' / day
 *   'YYYY-MM-DD', for figures relative to now), 'created_month'/'created_day' (every account,
 *   deleted ones too, by creation).
 * - ledger_tallies, per user and creation month/day of PURCHASED entries ('purchased_month',
 *   'purchased_day') and of USED entries ('used_month', 'used_day').
 *
 * Kept per user, never per subtree: a write locks only its own owner's tally rows (a subtree's
 * figure is the sum over its users' rows, by path range on users), so no write waits on an
 * ancestor's or the admin's row. SQLite uses row triggers; PostgreSQL statement triggers over the
 * transition tables, so a batched insert (seed:scale) applies one grouped upsert per statement.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  // Nothing may write the counted rows between the backfill and the triggers (SQLite's migration
  // transaction already holds the one write lock).
  if (pg) await sql`lock table accounts, credit_transactions in share mode`.execute(db);

  // Keyed by bucket first: the admin's figures read every owner's rows of a bucket range, which on
  // SQLite (WITHOUT ROWID: the table is its key's b-tree) lie side by side. A subtree's figures
  // read its users' rows by the second index.
  const clustered = pg ? sql`` : sql`without rowid`;
  await db.schema
    .createTable('account_tallies')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_tallies_pk', ['kind', 'bucket', 'owner_id'])
    .modifyEnd(clustered)
    .execute();
  await db.schema.createIndex('account_tallies_owner_idx').on('account_tallies').columns(['owner_id', 'kind', 'bucket']).execute();

  await db.schema
    .createTable('ledger_tallies')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('purchased', 'integer', (c) => c.notNull())
    .addColumn('purchased_entries', 'integer', (c) => c.notNull())
    .addColumn('purchased_other', 'integer', (c) => c.notNull())
    .addColumn('spent', 'integer', (c) => c.notNull())
    .addColumn('spent_entries', 'integer', (c) => c.notNull())
    .addColumn('renewals', 'integer', (c) => c.notNull())
    .addColumn('renewal_credits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_tallies_pk', ['kind', 'bucket', 'user_id'])
    .modifyEnd(clustered)
    .execute();
  await db.schema.createIndex('ledger_tallies_user_idx').on('ledger_tallies').columns(['user_id', 'kind', 'bucket']).execute();

  // Backfill: the same deltas the triggers apply, over every existing row at once.
  await sql.raw(upsertAccounts(accountDeltas('a.', '+1', 'from accounts a'))).execute(db);
  await sql.raw(upsertLedger(ledgerDeltas('e.', 'from credit_transactions e'))).execute(db);

  if (pg) await postgres(db);
  else await sqlite(db);
  // Statistics for the planner, which otherwise guesses at two new tables of a million rows each.
  await sql`analyze account_tallies`.execute(db);
  await sql`analyze ledger_tallies`.execute(db);
}

/**
 * The tally rows one account row adds (sign '+1') or takes back ('-1'). `p` prefixes its columns
 * ('new.' in a SQLite trigger, an alias elsewhere), `from` names where the rows come from.
 */
function accountDeltas(p: string, sign: '+1' | '-1', from = ''): string {
  const live = `${p}deleted_at is null`;
  const active = `case when ${p}status = 'active' then ${sign} else 0 end`;
  const row = (kind: string, bucket: string, activeExpr: string, where: string) =>
    `select ${p}owner_id as owner_id, '${kind}' as kind, ${bucket} as bucket, ${sign} as n, ${activeExpr} as active ${from} where ${where}`;
  return [
    row('all', `''`, active, live),
    row('none', `''`, active, `${live} and ${p}expiry_date is null`),
    row('month', `substr(${p}expiry_date, 1, 7)`, active, `${live} and ${p}expiry_date is not null`),
    row('day', `substr(${p}expiry_date, 1, 10)`, active, `${live} and ${p}expiry_date is not null`),
    row('created_month', `substr(${p}created_at, 1, 7)`, '0', 'true'),
    row('created_day', `substr(${p}created_at, 1, 10)`, '0', 'true'),
  ].join('\n    union all ');
}

/** Adds grouped deltas to the tallies, in key order (concurrent writers lock rows in one order). */
const upsertAccounts = (deltas: string) => `
  insert into account_tallies (owner_id, kind, bucket, n, active)
  select owner_id, kind, bucket, sum(n), sum(active) from (${deltas}) d
  where true
  group by kind, bucket, owner_id
  having sum(n) <> 0 or sum(active) <> 0
  order by kind, bucket, owner_id
  on conflict (kind, bucket, owner_id) do update
    set n = account_tallies.n + excluded.n, active = account_tallies.active + excluded.active`;

const LEDGER_FIGURES = ['purchased', 'purchased_entries', 'purchased_other', 'spent', 'spent_entries', 'renewals', 'renewal_credits'] as const;

/** What one ledger entry adds to its user's day and month (PURCHASED and USED entries only). */
function ledgerDeltas(p: string, from = ''): string {
  const values = (e: string) => ({
    purchased: `case when ${e}type = 'PURCHASED' and ${e}credits > 0 then ${e}credits else 0 end`,
    purchased_entries: `case when ${e}type = 'PURCHASED' and ${e}credits > 0 then 1 else 0 end`,
    purchased_other: `case when ${e}type = 'PURCHASED' and ${e}credits <= 0 then ${e}credits else 0 end`,
    spent: `case when ${e}type = 'USED' then -${e}credits else 0 end`,
    spent_entries: `case when ${e}type = 'USED' then 1 else 0 end`,
    renewals: `case when ${e}type = 'USED' and ${e}account_id is not null then 1 else 0 end`,
    renewal_credits: `case when ${e}type = 'USED' and ${e}account_id is not null then -${e}credits else 0 end`,
  });
  const v = values(p);
  // The kind names the entry type ('purchased_day', 'used_month', ...): what reads the purchases
  // (few) does not wade through the renewals (most entries).
  const row = (span: string, length: number) =>
    `select ${p}user_id as user_id, lower(${p}type) || '_${span}' as kind, substr(${p}created_at, 1, ${length}) as bucket, ${LEDGER_FIGURES.map((f) => `${v[f]} as ${f}`).join(', ')}
     ${from} where ${p}type in ('PURCHASED', 'USED')`;
  return `${row('day', 10)}\n    union all ${row('month', 7)}`;
}

const upsertLedger = (deltas: string) => `
  insert into ledger_tallies (user_id, kind, bucket, ${LEDGER_FIGURES.join(', ')})
  select user_id, kind, bucket, ${LEDGER_FIGURES.map((f) => `sum(${f})`).join(', ')} from (${deltas}) d
  where true
  group by kind, bucket, user_id
  order by kind, bucket, user_id
  on conflict (kind, bucket, user_id) do update
    set ${LEDGER_FIGURES.map((f) => `${f} = ledger_tallies.${f} + excluded.${f}`).join(', ')}`;

/** The account columns the tallies depend on. */
const COUNTED = ['owner_id', 'expiry_date', 'status', 'deleted_at', 'created_at'];

async function sqlite(db: Kysely<any>) {
  const raw = (text: string) => sql.raw(text).execute(db);
  await raw(`create trigger accounts_tally_insert after insert on accounts
    begin ${upsertAccounts(accountDeltas('new.', '+1'))}; end`);
  await raw(`create trigger accounts_tally_delete after delete on accounts
    begin ${upsertAccounts(accountDeltas('old.', '-1'))}; end`);
  await raw(`create trigger accounts_tally_update after update of ${COUNTED.join(', ')} on accounts
    when ${COUNTED.map((c) => `new.${c} is not old.${c}`).join(' or ')}
    begin ${upsertAccounts(`${accountDeltas('old.', '-1')}\n    union all ${accountDeltas('new.', '+1')}`)}; end`);
  await raw(`create trigger credit_transactions_tally after insert on credit_transactions
    when new.type in ('PURCHASED', 'USED')
    begin ${upsertLedger(ledgerDeltas('new.'))}; end`);
}

async function postgres(db: Kysely<any>) {
  const raw = (text: string) => sql.raw(text).execute(db);
  const statementTrigger = async (name: string, table: string, event: string, referencing: string, body: string) => {
    await raw(`create function ${name}() returns trigger language plpgsql as $$
      begin ${body}; return null; end $$`);
    await raw(`create trigger ${name} after ${event} on ${table} referencing ${referencing}
      for each statement execute function ${name}()`);
  };
  await statementTrigger('accounts_tally_insert', 'accounts', 'insert', 'new table as new_rows', upsertAccounts(accountDeltas('r.', '+1', 'from new_rows r')));
  await statementTrigger('accounts_tally_delete', 'accounts', 'delete', 'old table as old_rows', upsertAccounts(accountDeltas('r.', '-1', 'from old_rows r')));
  // Transition tables allow no column list: every update of accounts runs it, and only the rows
  // whose counted columns changed (paired by id) count.
  const changed = (rows: string, other: string) =>
    `select r.* from ${rows} r join ${other} c on c.id = r.id
      and (${COUNTED.map((col) => `r.${col}`).join(', ')}) is distinct from (${COUNTED.map((col) => `c.${col}`).join(', ')})`;
  await statementTrigger(
    'accounts_tally_update',
    'accounts',
    'update',
    'old table as old_rows new table as new_rows',
    `with before as (${changed('old_rows', 'new_rows')}), after as (${changed('new_rows', 'old_rows')})
    ${upsertAccounts(`${accountDeltas('r.', '-1', 'from before r')}\n    union all ${accountDeltas('r.', '+1', 'from after r')}`)}`,
  );
  await statementTrigger('credit_transactions_tally', 'credit_transactions', 'insert', 'new table as new_rows', upsertLedger(ledgerDeltas('r.', 'from new_rows r')));
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  for (const [name, table] of [
    ['accounts_tally_insert', 'accounts'],
    ['accounts_tally_delete', 'accounts'],
    ['accounts_tally_update', 'accounts'],
    ['credit_transactions_tally', 'credit_transactions'],
  ]) {
    await sql.raw(pg ? `drop trigger if exists ${name} on ${table}` : `drop trigger if exists ${name}`).execute(db);
    if (pg) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.dropTable('ledger_tallies').execute();
  await db.schema.dropTable('account_tallies').execute();
}
