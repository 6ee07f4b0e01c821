import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * The database keeps the ledger's rules against direct SQL too (docs/reliability.md).
 *
 * - A balance changes only by inserting its ledger entry: inserting an entry applies it to the user
 *   (credits = balance_after, bonus_credits += the entry's bonus part, ledger_entry_id = the entry), and
 *   any other change of users.credits, bonus_credits or ledger_entry_id is refused. The check on
 *   users accepts a change only when it moves to a newer entry of that user, the latest one, whose
 *   balance_before is the old balance, balance_after the new one and bonus part the bonus change; so
 *   an entry applies once, in order, and `UPDATE users SET credits = ...` without one fails.
 * - A user is created with nothing (credits, bonus and last entry empty), and a user holding credits
 *   cannot be deleted or, on SQLite, replaced (INSERT OR REPLACE deletes without delete triggers).
 * - Entries and audit log entries are append-only: update, delete, truncate (PostgreSQL) and, on
 *   SQLite, INSERT OR REPLACE over an existing row are refused.
 *
 * Messages of refused replacements start like SQLite's own unique violation, so a race between two
 * ordinary inserts still answers 409 (http/errors.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('ledger_entry_id', 'integer').execute();
  await sql`update users set ledger_entry_id = (select max(e.id) from credit_transactions e where e.user_id = users.id)`.execute(db);
  if (isPostgres(db)) await postgres(db);
  else await sqlite(db);
}

/** The condition under which a balance change is the application of its entry (new/old rows of users). */
export const appliesLatestEntry = (n: string, o: string) => `
  ${n}.ledger_entry_id is not null
  and (${o}.ledger_entry_id is null or ${n}.ledger_entry_id > ${o}.ledger_entry_id)
  and exists (
    select 1 from credit_transactions e
    where e.id = ${n}.ledger_entry_id and e.user_id = ${n}.id
      and e.balance_before = ${o}.credits and e.balance_after = ${n}.credits
      and e.bonus_credits = ${n}.bonus_credits - ${o}.bonus_credits)
  and not exists (select 1 from credit_transactions e where e.user_id = ${n}.id and e.id > ${n}.ledger_entry_id)`;

export const BALANCE_WITHOUT_ENTRY = 'users.credits and users.bonus_credits change only by inserting the ledger entry that records the change';
const NEW_USER_WITH_BALANCE = 'a user starts with no credits: credits come from ledger entries';
const DELETE_WITH_BALANCE = 'a user holding credits cannot be deleted';
const APPEND_ONLY = (table: string) => `${table} is append-only`;
const REPLACE_REFUSED = (table: string) => `UNIQUE constraint failed: ${table} (an existing row cannot be replaced)`;

async function sqlite(db: Kysely<any>) {
  const raw = (text: string) => sql.raw(text).execute(db);
  await raw(`create trigger credit_transactions_apply after insert on credit_transactions
    begin
      update users set credits = new.balance_after, bonus_credits = bonus_credits + new.bonus_credits,
        ledger_entry_id = new.id, updated_at = new.created_at
      where id = new.user_id;
    end`);
  // INSERT OR REPLACE deletes the old row without firing delete triggers (recursive_triggers is off).
  await raw(`create trigger credit_transactions_no_replace before insert on credit_transactions
    begin
      select raise(abort, '${REPLACE_REFUSED('credit_transactions')}')
      where exists (select 1 from credit_transactions where id = new.id or transaction_number = new.transaction_number);
    end`);
  await raw(`create trigger users_balance_from_ledger before update of credits, bonus_credits, ledger_entry_id on users
    when new.credits is not old.credits or new.bonus_credits is not old.bonus_credits or new.ledger_entry_id is not old.ledger_entry_id
    begin
      select raise(abort, '${BALANCE_WITHOUT_ENTRY}') where not (${appliesLatestEntry('new', 'old')});
    end`);
  await raw(`create trigger users_start_empty before insert on users
    begin
      select raise(abort, '${NEW_USER_WITH_BALANCE}')
      where new.credits <> 0 or new.bonus_credits <> 0 or new.ledger_entry_id is not null;
      select raise(abort, '${REPLACE_REFUSED('users')}')
      where exists (select 1 from users where (id = new.id or username = new.username) and (credits <> 0 or bonus_credits <> 0));
    end`);
  await raw(`create trigger users_no_delete_with_balance before delete on users
    when old.credits <> 0 or old.bonus_credits <> 0
    begin
      select raise(abort, '${DELETE_WITH_BALANCE}');
    end`);
  await raw(`create trigger audit_logs_no_update before update on audit_logs
    begin select raise(abort, '${APPEND_ONLY('audit_logs')}'); end`);
  await raw(`create trigger audit_logs_no_delete before delete on audit_logs
    begin select raise(abort, '${APPEND_ONLY('audit_logs')}'); end`);
  await raw(`create trigger audit_logs_no_replace before insert on audit_logs
    begin
      select raise(abort, '${REPLACE_REFUSED('audit_logs')}') where exists (select 1 from audit_logs where id = new.id);
    end`);
}

async function postgres(db: Kysely<any>) {
  const raw = (text: string) => sql.raw(text).execute(db);
  await raw(`create function credit_transactions_apply() returns trigger language plpgsql as $$
    begin
      update users set credits = new.balance_after, bonus_credits = bonus_credits + new.bonus_credits,
        ledger_entry_id = new.id, updated_at = new.created_at
      where id = new.user_id;
      if not found then raise exception 'ledger entry % names no user', new.id; end if;
      return null;
    end $$`);
  await raw(`create trigger credit_transactions_apply after insert on credit_transactions
    for each row execute function credit_transactions_apply()`);
  // The append-only function of 0001 serves the statement-level TRUNCATE trigger as well.
  await raw(`create trigger credit_transactions_no_truncate before truncate on credit_transactions
    for each statement execute function credit_transactions_append_only()`);

  await raw(`create function users_balance_from_ledger() returns trigger language plpgsql as $$
    begin
      if not (${appliesLatestEntry('new', 'old')}) then
        raise exception '${BALANCE_WITHOUT_ENTRY}' using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$`);
  await raw(`create trigger users_balance_from_ledger before update of credits, bonus_credits, ledger_entry_id on users
    for each row
    when (new.credits is distinct from old.credits or new.bonus_credits is distinct from old.bonus_credits
      or new.ledger_entry_id is distinct from old.ledger_entry_id)
    execute function users_balance_from_ledger()`);
  await raw(`create function users_start_empty() returns trigger language plpgsql as $$
    begin
      if new.credits <> 0 or new.bonus_credits <> 0 or new.ledger_entry_id is not null then
        raise exception '${NEW_USER_WITH_BALANCE}' using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$`);
  await raw(`create trigger users_start_empty before insert on users for each row execute function users_start_empty()`);
  await raw(`create function users_no_delete_with_balance() returns trigger language plpgsql as $$
    begin
      raise exception '${DELETE_WITH_BALANCE}' using errcode = 'integrity_constraint_violation';
    end $$`);
  await raw(`create trigger users_no_delete_with_balance before delete on users
    for each row when (old.credits <> 0 or old.bonus_credits <> 0) execute function users_no_delete_with_balance()`);

  await raw(`create function audit_logs_append_only() returns trigger language plpgsql as $$
    begin raise exception '${APPEND_ONLY('audit_logs')}'; end $$`);
  await raw(`create trigger audit_logs_no_change before update or delete on audit_logs
    for each row execute function audit_logs_append_only()`);
  await raw(`create trigger audit_logs_no_truncate before truncate on audit_logs
    for each statement execute function audit_logs_append_only()`);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const triggers: Array<[string, string]> = [
    ['credit_transactions_apply', 'credit_transactions'],
    ['credit_transactions_no_replace', 'credit_transactions'],
    ['credit_transactions_no_truncate', 'credit_transactions'],
    ['users_balance_from_ledger', 'users'],
    ['users_start_empty', 'users'],
    ['users_no_delete_with_balance', 'users'],
    ['audit_logs_no_update', 'audit_logs'],
    ['audit_logs_no_delete', 'audit_logs'],
    ['audit_logs_no_replace', 'audit_logs'],
    ['audit_logs_no_change', 'audit_logs'],
    ['audit_logs_no_truncate', 'audit_logs'],
  ];
  for (const [name, table] of triggers) {
    await sql.raw(pg ? `drop trigger if exists ${name} on ${table}` : `drop trigger if exists ${name}`).execute(db);
  }
  if (pg) {
    for (const fn of ['credit_transactions_apply', 'users_balance_from_ledger', 'users_start_empty', 'users_no_delete_with_balance', 'audit_logs_append_only']) {
      await sql.raw(`drop function if exists ${fn}()`).execute(db);
    }
  }
  await db.schema.alterTable('users').dropColumn('ledger_entry_id').execute();
}
