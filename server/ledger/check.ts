/**
 * Verifies the whole ledger of a live database (docs/reliability.md), in SQL so it scales
 * with the tables: every balance equals the sum of its entries (and the bonus part the sum of their
 * bonus parts), each user's entries chain (each starts where the previous ended, the first at 0) and
 * the last one is the one applied, nothing is negative, every transfer between two users nets to
 * zero, what was minted minus what was burned equals what is held plus what was spent, and every
 * entry was written by an operation the panel recorded (operationProblems).
 * Read-only; `npm run check:ledger` prints its figures.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

export interface LedgerFigures {
  users: number;
  entries: number;
  /** Credits users hold now (bonus included). */
  held: number;
  bonusHeld: number;
  /** Credits that came into the hierarchy: admin allocations and bonus grants. */
  minted: number;
  /** Credits that left it other than by renewals: admin recoveries, bonus write-offs. */
  burned: number;
  /** Credits spent on accounts (renewals, purchases, trials), net of refunds. */
  spent: number;
  /** Moves between two users (each two entries that net to zero) and their volume. */
  transfers: number;
  transferred: number;
}

export interface LedgerReport {
  figures: LedgerFigures;
  /** Bonus minted per promotion, and what of it credits still bought back (checkBonuses). */
  bonuses: BonusReport;
  /** Each broken rule, one line each (at most `limit` of each kind). */
  problems: string[];
}

const n = (value: unknown) => Number(value ?? 0);

export async function checkLedger(db: Kysely<Database>, limit = 20): Promise<LedgerReport> {
  const problems: string[] = [];
  const report = (lines: string[]) => problems.push(...lines);

  const balances = await sql<{
    id: number;
    credits: number;
    bonus: number;
    sum_credits: number | null;
    sum_bonus: number | null;
    last_id: number | null;
    applied: number | null;
  }>`
    select u.id, u.credits, u.bonus_credits as bonus, e.sum_credits, e.sum_bonus, e.last_id, u.ledger_entry_id as applied
    from users u
    left join (
      select user_id, sum(credits) as sum_credits, sum(bonus_credits) as sum_bonus, max(id) as last_id
      from credit_transactions group by user_id
    ) e on e.user_id = u.id
    where u.credits <> coalesce(e.sum_credits, 0) or u.bonus_credits <> coalesce(e.sum_bonus, 0)
      or coalesce(u.ledger_entry_id, 0) <> coalesce(e.last_id, 0)
    order by u.id
    limit ${limit}`.execute(db);
  report(
    balances.rows.map((r) =>
      n(r.credits) !== n(r.sum_credits) || n(r.bonus) !== n(r.sum_bonus)
        ? `user ${r.id}: balance ${r.credits} (bonus ${r.bonus}) but its entries sum to ${n(r.sum_credits)} (bonus ${n(r.sum_bonus)})`
        : `user ${r.id}: the last entry applied is ${r.applied ?? 'none'} but its latest entry is ${r.last_id ?? 'none'}`,
    ),
  );

  const chain = await sql<{ id: number; user_id: number; balance_before: number; previous: number }>`
    select id, user_id, balance_before, previous from (
      select id, user_id, balance_before, lag(balance_after, 1, 0) over (partition by user_id order by id) as previous
      from credit_transactions
    ) t
    where balance_before <> previous
    order by id
    limit ${limit}`.execute(db);
  report(chain.rows.map((r) => `entry ${r.id} of user ${r.user_id} starts at ${r.balance_before}, the previous one ended at ${r.previous}`));

  const negativeUsers = await sql<{ id: number; credits: number; bonus: number }>`
    select id, credits, bonus_credits as bonus from users
    where credits < 0 or bonus_credits < 0 or bonus_credits > credits
    order by id limit ${limit}`.execute(db);
  report(negativeUsers.rows.map((r) => `user ${r.id}: balance ${r.credits} with bonus ${r.bonus}`));
  const negativeEntries = await sql<{ id: number; balance_before: number; balance_after: number; credits: number }>`
    select id, balance_before, balance_after, credits from credit_transactions
    where balance_before < 0 or balance_after < 0 or balance_after <> balance_before + credits
    order by id limit ${limit}`.execute(db);
  report(negativeEntries.rows.map((r) => `entry ${r.id}: ${r.balance_before} + ${r.credits} = ${r.balance_after}`));

  // A transfer: an entry whose counterparty is another (non-admin) user, with the counterparty's own
  // entry in the same operation; the two net to zero. Grouped by operation and pair of users, a
  // group with one side only is unpaired: one pass over the entries, where a lookup of the other
  // side per entry read all of the counterparty's entries (15 s at 89,000 entries with busy users).
  const low = sql`case when e.user_id < e.counterparty_id then e.user_id else e.counterparty_id end`;
  const high = sql`case when e.user_id < e.counterparty_id then e.counterparty_id else e.user_id end`;
  const unpaired = await sql<{ id: number; operation_id: string }>`
    select min(e.id) as id, e.operation_id from credit_transactions e
    join users c on c.id = e.counterparty_id and c.role <> 'admin'
    group by e.operation_id, ${low}, ${high}
    having count(distinct e.user_id) < 2
    order by 1 limit ${limit}`.execute(db);
  report(unpaired.rows.map((r) => `entry ${r.id}: a move to another user without that user's entry in operation ${r.operation_id}`));
  const unbalanced = await sql<{ operation_id: string; total: number }>`
    select e.operation_id, sum(e.credits) as total from credit_transactions e
    join users c on c.id = e.counterparty_id and c.role <> 'admin'
    group by e.operation_id
    having sum(e.credits) <> 0
    limit ${limit}`.execute(db);
  report(unbalanced.rows.map((r) => `operation ${r.operation_id}: its moves between users net to ${r.total}, not 0`));

  report(await operationProblems(db, limit));

  const totals = await sql<Record<string, number | null>>`
    select
      (select count(*) from users) as users,
      (select count(*) from credit_transactions) as entries,
      (select coalesce(sum(credits), 0) from users) as held,
      (select coalesce(sum(bonus_credits), 0) from users) as bonus_held,
      coalesce(sum(case when internal = 0 and e.account_id is null and e.credits > 0 then e.credits else 0 end), 0) as minted,
      coalesce(sum(case when internal = 0 and e.account_id is null and e.credits < 0 then -e.credits else 0 end), 0) as burned,
      coalesce(sum(case when internal = 0 and e.account_id is not null then -e.credits else 0 end), 0) as spent,
      coalesce(sum(case when internal = 1 and e.credits > 0 then 1 else 0 end), 0) as transfers,
      coalesce(sum(case when internal = 1 and e.credits > 0 then e.credits else 0 end), 0) as transferred
    from (
      select t.credits, t.account_id,
        case when exists (select 1 from users c where c.id = t.counterparty_id and c.role <> 'admin') then 1 else 0 end as internal
      from credit_transactions t
    ) e`.execute(db);
  const t = totals.rows[0] ?? {};
  const figures: LedgerFigures = {
    users: n(t.users),
    entries: n(t.entries),
    held: n(t.held),
    bonusHeld: n(t.bonus_held),
    minted: n(t.minted),
    burned: n(t.burned),
    spent: n(t.spent),
    transfers: n(t.transfers),
    transferred: n(t.transferred),
  };
  if (figures.minted - figures.burned !== figures.held + figures.spent) {
    problems.push(
      `minted ${figures.minted} - burned ${figures.burned} = ${figures.minted - figures.burned}, but held ${figures.held} + spent ${figures.spent} = ${figures.held + figures.spent}`,
    );
  }
  const bonuses = await checkBonuses(db);
  problems.push(...bonuses.problems);
  return { figures, bonuses: bonuses.report, problems };
}

// --- Promotion bonuses -----------------------------------------------------------------------------

/**
 * A promotion's bonus is earned by credits that stay bought (docs/reliability.md): per promotion, what its
 * allocations were granted, what recoveries took back (credits/bonusBack.ts), what is backed by
 * allocations none of whose credits were taken back, and the excess: bonus kept by allocations whose
 * credits were taken back, which is bonus minted from nothing (the farming of give and recover).
 */
export interface PromoBonusFigures {
  /** 'promo' (a user promo), 'level' (the credit levels), 'unknown' (a grant the backfill could not name). */
  source: string;
  promoId: number | null;
  name: string;
  allocations: number;
  granted: number;
  takenBack: number;
  backed: number;
  excess: number;
}

export interface BonusReport {
  promos: PromoBonusFigures[];
  /** Bonus entries no allocation earned (made by hand). */
  unlinked: { entries: number; credits: number };
  /** Bonus written off with no allocation named (deleted users, the rule before bonuses were tied to allocations). */
  writtenOff: number;
}

export async function checkBonuses(db: Kysely<Database>): Promise<{ report: BonusReport; problems: string[] }> {
  const none: BonusReport = { promos: [], unlinked: { entries: 0, credits: 0 }, writtenOff: 0 };
  // A database the panel has not migrated yet (the check run before an upgrade) has no such tables.
  const linked = await sql`select 1 from allocation_bonuses where 1 = 0`.execute(db).then(
    () => true,
    () => false,
  );
  if (!linked) return { report: none, problems: ['bonus per promotion: not recorded in this database yet (migration 0019 not applied)'] };
  const rows = await sql<{
    source: string;
    promo_id: number | null;
    name: string | null;
    allocations: number;
    granted: number;
    taken: number;
    backed: number;
    excess: number;
  }>`
    select b.source, b.promo_id, max(p.name) as name, count(*) as allocations, sum(b.credits) as granted,
      sum(coalesce(r.taken, 0)) as taken,
      sum(case when a.allocation_id is null then b.credits - coalesce(r.taken, 0) else 0 end) as backed,
      sum(case when a.allocation_id is null then 0 else b.credits - coalesce(r.taken, 0) end) as excess
    from allocation_bonuses b
    left join user_promos p on p.id = b.promo_id
    left join (select allocation_id, sum(credits) as taken from bonus_recoveries group by allocation_id) r on r.allocation_id = b.allocation_id
    left join (select distinct allocation_id from allocation_recoveries) a on a.allocation_id = b.allocation_id
    group by b.source, b.promo_id
    order by b.source, b.promo_id`.execute(db);
  const promos = rows.rows.map((r) => ({
    source: r.source,
    promoId: r.promo_id === null ? null : n(r.promo_id),
    name: r.source === 'level' ? 'Credit levels' : r.source === 'promo' ? (r.name ?? `Promo #${r.promo_id ?? '?'} (deleted)`) : 'Unnamed promo',
    allocations: n(r.allocations),
    granted: n(r.granted),
    takenBack: n(r.taken),
    backed: n(r.backed),
    excess: n(r.excess),
  }));
  const unlinked = await sql<{ entries: number; credits: number; first: number | null }>`
    select count(*) as entries, coalesce(sum(e.bonus_credits), 0) as credits, min(e.id) as first from credit_transactions e
    where e.bonus_credits > 0 and not exists (select 1 from allocation_bonuses b where b.bonus_id = e.id)`.execute(db);
  const writeOffs = await sql<{ total: number; attributed: number }>`
    select
      (select coalesce(sum(-bonus_credits), 0) from credit_transactions where bonus_credits < 0 and account_id is null) as total,
      (select coalesce(sum(r.credits), 0) from bonus_recoveries r join credit_transactions e on e.id = r.entry_id where e.bonus_credits < 0) as attributed`.execute(db);
  const u = unlinked.rows[0];
  const w = writeOffs.rows[0];
  const report: BonusReport = {
    promos,
    unlinked: { entries: n(u?.entries), credits: n(u?.credits) },
    writtenOff: n(w?.total) - n(w?.attributed),
  };
  const problems = promos
    .filter((p) => p.excess > 0)
    .map(
      (p) =>
        `${p.name}${p.promoId !== null ? ` (promo ${p.promoId})` : ''}: ${p.excess} bonus credits kept by allocations whose credits were taken back (granted ${p.granted}, taken back ${p.takenBack}, backed by credits still bought ${p.backed})`,
    );
  if (report.unlinked.entries > 0) {
    problems.push(`${report.unlinked.credits} bonus credits in ${report.unlinked.entries} entries (first ${u?.first}) were granted with no allocation that earned them`);
  }
  return { report, problems };
}

/**
 * Entries the panel did not write (migration 0022): every entry names a recorded operation, and each
 * operation has exactly the entries it recorded. An entry inserted by hand, even one that chains and
 * balances, either names no operation (the database refuses that unless its triggers were bypassed)
 * or adds to an operation's count; an entry deleted with the triggers off leaves its operation short.
 */
export async function operationProblems(db: Kysely<Database>, limit = 20): Promise<string[]> {
  const orphans = await sql<{ id: number; user_id: number; type: string; credits: number; operation_id: string }>`
    select e.id, e.user_id, e.type, e.credits, e.operation_id from credit_transactions e
    where not exists (select 1 from ledger_operations o where o.id = e.operation_id)
    order by e.id limit ${limit}`.execute(db);
  const signed = (credits: number) => (credits > 0 ? `+${credits}` : String(credits));
  const lines = orphans.rows.map(
    (r) => `entry ${r.id} (${r.type} ${signed(n(r.credits))} for user ${r.user_id}): names operation ${r.operation_id}, which the panel never recorded`,
  );
  // Counted from the entries' side in one grouped pass (no index on operation_id is needed).
  const miscounted = await sql<{ id: string; kind: string; entries: number; written: number | null; last_id: number | null }>`
    select o.id, o.kind, o.entries, c.written, c.last_id from ledger_operations o
    left join (select operation_id, count(*) as written, max(id) as last_id from credit_transactions group by operation_id) c on c.operation_id = o.id
    where coalesce(c.written, 0) <> o.entries
    order by o.created_at, o.id limit ${limit}`.execute(db);
  lines.push(
    ...miscounted.rows.map(
      (r) => `operation ${r.id} (${r.kind}) wrote ${n(r.entries)} entries but ${n(r.written)} name it${r.last_id ? ` (the last is entry ${r.last_id})` : ''}`,
    ),
  );
  return lines;
}
