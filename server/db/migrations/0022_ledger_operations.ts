import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Every ledger entry names the operation that wrote it, and the guards cover every column that
 * carries money.
 *
 * - ledger_operations: one row per call of server/ledger/post.ts, written in the transaction of its
 *   entries: its kind (credit_move, renewal, bulk_renew, trial, seed, ...), actor, time and how many
 *   entries it wrote. An entry must name a recorded operation (a trigger refuses it otherwise), and
 *   `npm run check:ledger` reports any entry whose operation is missing, counts another number of
 *   entries or another actor or time, so an entry made by hand is visible even where the triggers
 *   were bypassed. Operations are append-only, like the entries.
 * - Entries written before this migration get an operation of kind 'legacy' per operation id they
 *   carry (their count, earliest time and actor), so the check tells them apart.
 * - users.id never changes, and no user becomes or stops being the admin (a user's entries, and
 *   whether its moves are transfers or mints, depend on them; promoting a dealer to reseller stays
 *   allowed); on SQLite, where the sqlite3 shell runs with foreign keys off, an
 *   entry must name an existing user and counterparty, and a user with entries cannot be deleted.
 *   Entries were already append-only in every column (migration 0001).
 *
 * Messages of refused deletes start like SQLite's own foreign key violation, which the API already
 * answers as "mark the user deleted instead".
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('ledger_operations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into ledger_operations (id, kind, actor_id, entries, created_at)
    select operation_id, ${LEGACY_OPERATION}, min(actor_id), count(*), min(created_at) from credit_transactions group by operation_id`.execute(db);
  if (pg) await postgres(db);
  else await sqlite(db);
}

/** The kind of the operations the migration recorded for entries written before it. */
export const LEGACY_OPERATION = 'legacy';

export const ENTRY_WITHOUT_OPERATION = 'a ledger entry names the operation that wrote it: no such operation in ledger_operations';
const ENTRY_WITHOUT_USER = 'FOREIGN KEY constraint failed: a ledger entry names a user that does not exist';
const USER_WITH_ENTRIES = 'FOREIGN KEY constraint failed: a user with ledger entries cannot be deleted';
const USER_ID_FIXED = 'users.id never changes, and no user becomes or stops being the admin: ledger entries depend on them';
const APPEND_ONLY = 'ledger_operations is append-only';
const REPLACE_REFUSED = 'UNIQUE constraint failed: ledger_operations (an existing row cannot be replaced)';

async function sqlite(db: Kysely<any>) {
  const raw = (text: string) => sql.raw(text).execute(db);
  await raw(`create trigger credit_transactions_names_operation before insert on credit_transactions
    begin
      select raise(abort, '${ENTRY_WITHOUT_OPERATION}')
      where not exists (select 1 from ledger_operations where id = new.operation_id);
      select raise(abort, '${ENTRY_WITHOUT_USER}')
      where not exists (select 1 from users where id = new.user_id)
        or (new.counterparty_id is not null and not exists (select 1 from users where id = new.counterparty_id));
    end`);
  await raw(`create trigger users_id_fixed before update of id, role on users
    when new.id is not old.id or (new.role = 'admin') is not (old.role = 'admin')
    begin select raise(abort, '${USER_ID_FIXED}'); end`);
  await raw(`create trigger users_no_delete_with_entries before delete on users
    when exists (select 1 from credit_transactions where user_id = old.id)
    begin select raise(abort, '${USER_WITH_ENTRIES}'); end`);
  await raw(`create trigger ledger_operations_no_update before update on ledger_operations
    begin select raise(abort, '${APPEND_ONLY}'); end`);
  await raw(`create trigger ledger_operations_no_delete before delete on ledger_operations
    begin select raise(abort, '${APPEND_ONLY}'); end`);
  // INSERT OR REPLACE deletes the old row without firing delete triggers.
  await raw(`create trigger ledger_operations_no_replace before insert on ledger_operations
    begin
      select raise(abort, '${REPLACE_REFUSED}') where exists (select 1 from ledger_operations where id = new.id);
    end`);
}

async function postgres(db: Kysely<any>) {
  const raw = (text: string) => sql.raw(text).execute(db);
  // Per statement: a bulk renewal's thousand entries of one operation cost one lookup, not a thousand.
  await raw(`create function credit_transactions_names_operation() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from new_rows r where not exists (select 1 from ledger_operations o where o.id = r.operation_id)) then
        raise exception '${ENTRY_WITHOUT_OPERATION}' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $$`);
  await raw(`create trigger credit_transactions_names_operation after insert on credit_transactions
    referencing new table as new_rows for each statement execute function credit_transactions_names_operation()`);
  await raw(`create function users_id_fixed() returns trigger language plpgsql as $$
    begin raise exception '${USER_ID_FIXED}' using errcode = 'integrity_constraint_violation'; end $$`);
  await raw(`create trigger users_id_fixed before update of id, role on users
    for each row when (new.id is distinct from old.id or (new.role = 'admin') is distinct from (old.role = 'admin')) execute function users_id_fixed()`);
  await raw(`create function ledger_operations_append_only() returns trigger language plpgsql as $$
    begin raise exception '${APPEND_ONLY}'; end $$`);
  await raw(`create trigger ledger_operations_no_change before update or delete on ledger_operations
    for each row execute function ledger_operations_append_only()`);
  await raw(`create trigger ledger_operations_no_truncate before truncate on ledger_operations
    for each statement execute function ledger_operations_append_only()`);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const triggers: Array<[string, string]> = [
    ['credit_transactions_names_operation', 'credit_transactions'],
    ['users_id_fixed', 'users'],
    ['users_no_delete_with_entries', 'users'],
    ['ledger_operations_no_update', 'ledger_operations'],
    ['ledger_operations_no_delete', 'ledger_operations'],
    ['ledger_operations_no_replace', 'ledger_operations'],
    ['ledger_operations_no_change', 'ledger_operations'],
    ['ledger_operations_no_truncate', 'ledger_operations'],
  ];
  for (const [name, table] of triggers) {
    await sql.raw(pg ? `drop trigger if exists ${name} on ${table}` : `drop trigger if exists ${name}`).execute(db);
  }
  if (pg) {
    for (const fn of ['credit_transactions_names_operation', 'users_id_fixed', 'ledger_operations_append_only']) {
      await sql.raw(`drop function if exists ${fn}()`).execute(db);
    }
  }
  await db.schema.dropTable('ledger_operations').execute();
}
