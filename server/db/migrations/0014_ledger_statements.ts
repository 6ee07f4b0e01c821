import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';
import { BALANCE_WITHOUT_ENTRY, appliesLatestEntry } from './0006_ledger_guards';

/**
 * PostgreSQL applies ledger entries per statement (server/ledger/post.ts writes a user's several
 * changes, such as a bulk renewal's thousand, in one INSERT). The row trigger of 0006 applied each
 * entry on its own after the statement, when the later entries of the same user were already there,
 * so the guard refused all but the last: one statement could hold one entry per user.
 *
 * - Inserting entries applies them at the end of the statement, one UPDATE for all the statement's
 *   users: each user's balance becomes its last new entry's balance_after, its bonus part grows by
 *   their bonus parts, ledger_entry_id names that last entry.
 * - The guard on users accepts a change only when the entries it applies (those of the user after
 *   the old ledger_entry_id, up to the new one, which must be the latest) chain in id order from the
 *   old balance to the new one, and their bonus parts add up to the bonus change: the same as
 *   applying them one by one, each checked by 0006's rule. A balance still changes only with its
 *   entries, and `UPDATE users SET credits = ...` without them still fails.
 *
 * SQLite's row triggers apply each entry as it is inserted, so 0006's rule holds there as it is.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const raw = (text: string) => sql.raw(text).execute(db);
  await raw('drop trigger credit_transactions_apply on credit_transactions');
  await raw(`create or replace function credit_transactions_apply() returns trigger language plpgsql as $$
    declare
      applied integer;
      named integer;
    begin
      update users u set credits = l.balance_after, bonus_credits = u.bonus_credits + l.bonus,
        ledger_entry_id = l.id, updated_at = l.created_at
      from (
        select distinct on (user_id) user_id, id, balance_after, created_at, sum(bonus_credits) over (partition by user_id) as bonus
        from new_rows
        order by user_id, id desc
      ) l
      where u.id = l.user_id;
      get diagnostics applied = row_count;
      select count(distinct user_id) into named from new_rows;
      if applied <> named then raise exception 'a ledger entry names no user'; end if;
      return null;
    end $$`);
  await raw(`create trigger credit_transactions_apply after insert on credit_transactions
    referencing new table as new_rows for each statement execute function credit_transactions_apply()`);
  await raw(`create or replace function users_balance_from_ledger() returns trigger language plpgsql as $$
    begin
      if not (${appliesEntriesInOrder}) then
        raise exception '${BALANCE_WITHOUT_ENTRY}' using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$`);
}

/** The condition under which a balance change (new/old rows of users) applies the user's newest entries, in order. */
const appliesEntriesInOrder = `
  new.ledger_entry_id is not null
  and (old.ledger_entry_id is null or new.ledger_entry_id > old.ledger_entry_id)
  and not exists (select 1 from credit_transactions e where e.user_id = new.id and e.id > new.ledger_entry_id)
  and coalesce((
    select bool_and(c.balance_before = coalesce(c.previous, old.credits))
      and bool_or(c.id = new.ledger_entry_id and c.balance_after = new.credits)
      and sum(c.bonus_credits) = new.bonus_credits - old.bonus_credits
    from (
      select e.id, e.balance_before, e.balance_after, e.bonus_credits, lag(e.balance_after) over (order by e.id) as previous
      from credit_transactions e
      where e.user_id = new.id and e.id > coalesce(old.ledger_entry_id, 0) and e.id <= new.ledger_entry_id
    ) c), false)`;

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const raw = (text: string) => sql.raw(text).execute(db);
  await raw('drop trigger credit_transactions_apply on credit_transactions');
  await raw(`create or replace function credit_transactions_apply() returns trigger language plpgsql as $$
    begin
      update users set credits = new.balance_after, bonus_credits = bonus_credits + new.bonus_credits,
        ledger_entry_id = new.id, updated_at = new.created_at
      where id = new.user_id;
      if not found then raise exception 'ledger entry % names no user', new.id; end if;
      return null;
    end $$`);
  await raw(`create trigger credit_transactions_apply after insert on credit_transactions
    for each row execute function credit_transactions_apply()`);
  await raw(`create or replace function users_balance_from_ledger() returns trigger language plpgsql as $$
    begin
      if not (${appliesLatestEntry('new', 'old')}) then
        raise exception '${BALANCE_WITHOUT_ENTRY}' using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$`);
}
