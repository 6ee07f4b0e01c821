/**
 * A database the size of a large operator's (`npm run seed:scale`): managers, resellers and dealers
 * under one admin, accounts spread over the dealers with spread expiries, states and statuses, and a
 * ledger that satisfies every rule and trigger (chained balances, transfers that net to zero, minted
 * = held + spent): the admin allocates to managers, each level passes credits down, and each account
 * is renewed one to five times (three on average) by its dealer. Rows go in by batched inserts; the
 * ledger's own triggers apply every entry to its balance, as in production.
 */
import { randomUUID } from 'node:crypto';
import { type Insertable, type Kysely, sql } from 'kysely';
import { plural } from '../../src/contract';
import { hashPassword } from '../auth/passwords';
import type { AccountsTable, CreditTransactionsTable, Database, UserRow } from '../db/schema';
import { newAccountRow } from '../accounts/store';
import { isPostgres } from '../db/dialect';
import type { OperationKind } from '../ledger/post';
import { insertUser } from '../users';

export interface ScaleOptions {
  accounts: number;
  managers: number;
  resellers: number;
  dealers: number;
  /** Progress lines (the CLI prints them). */
  log?: (line: string) => void;
}

export const SCALE_DEFAULTS: ScaleOptions = { accounts: 1_000_000, managers: 10, resellers: 200, dealers: 2_000 };

const BATCH = 1_000;
const DAY = 86_400_000;
const CREDITS_PER_MONTH = 1;
const RENEWAL_MONTHS = [1, 3, 6, 12];

/** A small deterministic generator (mulberry32), so two runs build the same database. */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Entry = Insertable<CreditTransactionsTable>;

export interface ScaleReport {
  users: number;
  accounts: number;
  entries: number;
  seconds: number;
}

export async function seedScale(db: Kysely<Database>, options: ScaleOptions): Promise<ScaleReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const rand = random(20261123);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const now = Date.now();

  const existing = await db.selectFrom('users').select('id').where('role', '!=', 'admin').executeTakeFirst();
  if (existing) throw new Error('seed:scale builds a new database: this one already has users below the admin.');
  let admin = await db.selectFrom('users').selectAll().where('role', '=', 'admin').orderBy('id').executeTakeFirst();
  const passwordHash = await hashPassword('password123');
  admin ??= await insertUser(db, null, { role: 'admin', name: 'Administrator', username: 'admin', password_hash: passwordHash });
  const created = new Date().toISOString();
  const server = await db
    .insertInto('servers')
    .values({
      name: 'Scale Server',
      db_host: '127.0.0.1',
      db_username: 'stalker',
      db_password_enc: null,
      db_port: '3306',
      db_name: 'stalker_db',
      status: 'active',
      connection_status: 'online',
      last_checked_at: null,
      created_at: created,
      updated_at: created,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  // The hierarchy: each level spread evenly over the one above.
  const level = async (role: 'manager' | 'reseller' | 'dealer', count: number, parents: UserRow[]) => {
    const users: UserRow[] = [];
    for (let i = 0; i < count; i++) {
      users.push(
        await insertUser(db, parents[i % parents.length], {
          role,
          name: `${role[0].toUpperCase()}${role.slice(1)} ${i + 1}`,
          username: `${role}${i + 1}`,
          password_hash: passwordHash,
          server_id: role === 'manager' ? server.id : null,
        }),
      );
    }
    log(`${count} ${role}s`);
    return users;
  };
  const managers = await level('manager', options.managers, [admin]);
  const resellers = await level('reseller', options.resellers, managers);
  const dealers = await level('dealer', options.dealers, resellers);

  // Accounts, with the renewals each will have had (months per renewal, in order).
  const accountPlans: Array<{ dealer: number; months: number[] }> = [];
  for (let i = 0; i < options.accounts; i++) {
    const dealer = i % dealers.length;
    const count = 1 + Math.floor(rand() * 5);
    accountPlans.push({ dealer, months: Array.from({ length: count }, () => pick(RENEWAL_MONTHS)) });
  }
  const spendOf = new Array<number>(dealers.length).fill(0);
  for (const plan of accountPlans) spendOf[plan.dealer] += plan.months.reduce((a, m) => a + m * CREDITS_PER_MONTH, 0);

  const entries: Entry[] = [];
  let serial = 0;
  const balance = new Map<number, number>();
  const entry = (user: UserRow, type: string, credits: number, extra: Partial<Entry> = {}): Entry => {
    const before = balance.get(user.id) ?? 0;
    balance.set(user.id, before + credits);
    serial += 1;
    return {
      transaction_number: `TXN-SCALE-${serial.toString(36).toUpperCase()}`,
      user_id: user.id,
      type,
      credits,
      bonus_credits: 0,
      balance_before: before,
      balance_after: before + credits,
      counterparty_id: null,
      actor_id: null,
      account_id: null,
      // Named by the flush that writes it (one operation per flush).
      operation_id: '',
      coverage_start: null,
      coverage_end: null,
      remarks: null,
      created_at: new Date(now - 400 * DAY).toISOString(),
      ...extra,
    };
  };
  /**
   * Writes the pending entries. A round holds at most one entry per user: the k-th pending entry of
   * every user goes in the k-th round, so each user's entries are applied in order whatever the
   * batches hold (the triggers of migrations 0006 and 0014 take each user's entries in id order).
   * The pending entries are one operation (migration 0022), recorded first: both sides of every
   * transfer are pending together, and each statement carries one operation id.
   */
  const flush = async (force = false) => {
    if (!force && entries.length < BATCH) return;
    const pending = entries.splice(0);
    if (pending.length === 0) return;
    const operation = { id: randomUUID(), kind: 'seed_scale' satisfies OperationKind, actor_id: null, entries: pending.length, created_at: new Date().toISOString() };
    await db.insertInto('ledger_operations').values(operation).execute();
    const rounds: Entry[][] = [];
    const seen = new Map<number, number>();
    for (const e of pending) {
      e.operation_id = operation.id;
      const k = seen.get(e.user_id) ?? 0;
      seen.set(e.user_id, k + 1);
      (rounds[k] ??= []).push(e);
    }
    for (const round of rounds) {
      for (let i = 0; i < round.length; i += BATCH)
        await db
          .insertInto('credit_transactions')
          .values(round.slice(i, i + BATCH))
          .execute();
    }
  };

  // Credits down the hierarchy: each user receives what its subtree spends plus a tenth to hold.
  const need = new Map<number, number>();
  dealers.forEach((d, i) => need.set(d.id, Math.ceil(spendOf[i] * 1.1) + 10));
  for (const [children, parents] of [
    [dealers, resellers],
    [resellers, managers],
  ] as const) {
    for (const parent of parents) {
      const below = children.filter((c) => c.parent_id === parent.id).reduce((sum, c) => sum + need.get(c.id)!, 0);
      need.set(parent.id, Math.ceil(below * 1.05) + 10);
    }
  }
  const transfer = (from: UserRow, to: UserRow, amount: number) => {
    const at = new Date(now - 399 * DAY).toISOString();
    entries.push(entry(from, 'USED', -amount, { counterparty_id: to.id, actor_id: from.id, created_at: at, remarks: `Credits added to ${to.username}` }));
    entries.push(entry(to, 'PURCHASED', amount, { counterparty_id: from.id, actor_id: from.id, created_at: at, remarks: `Credits from ${from.username}` }));
  };
  for (const manager of managers) {
    entries.push(entry(manager, 'PURCHASED', need.get(manager.id)!, { counterparty_id: admin.id, actor_id: admin.id, remarks: `Credits from ${admin.username}` }));
  }
  for (const reseller of resellers)
    transfer(
      managers.find((m) => m.id === reseller.parent_id)!,
      reseller,
      need.get(reseller.id)!,
    );
  for (const dealer of dealers)
    transfer(
      resellers.find((r) => r.id === dealer.parent_id)!,
      dealer,
      need.get(dealer.id)!,
    );
  await flush(true);
  log(`${serial} allocation entries`);

  // Accounts in batches, then their renewals (USED entries on the dealer, coverage back to back).
  let accountsDone = 0;
  for (let start = 0; start < accountPlans.length; start += BATCH) {
    const plans = accountPlans.slice(start, start + BATCH);
    const rows: Array<Insertable<AccountsTable>> = plans.map((plan, j) => {
      const n = start + j;
      const dealer = dealers[plan.dealer];
      const months = plan.months.reduce((a, m) => a + m, 0);
      // Expiries from 60 days ago to a year ahead; the coverage ends there and began `months` before.
      const expiry = now + Math.floor((rand() * 425 - 60) * DAY);
      const createdAt = new Date(expiry - months * 30 * DAY - DAY).toISOString();
      const roll = rand();
      return newAccountRow({
        owner_id: dealer.id,
        owner_path: dealer.path,
        server_id: server.id,
        login: `user${n + 1}`,
        full_name: `Subscriber ${n + 1} ${pick(['Smith', 'Garcia', 'Müller', 'Rossi', 'Kowalski', 'Dubois', 'Silva', 'Novak'])}`,
        pwd_txt: `pw${(n * 7919) % 100000}`,
        mac_address: (0x001a79000000 + n).toString(16).toUpperCase().padStart(12, '0'),
        expiry_date: new Date(expiry).toISOString(),
        validity_months: plan.months[plan.months.length - 1],
        status: roll < 0.05 ? 'suspended' : roll < 0.07 ? 'inactive' : 'active',
        auto_renew_months: roll > 0.9 ? 1 : null,
        state: rand() < 0.2 ? 'online' : 'offline',
        created_at: createdAt,
      });
    });
    const ids = await db.insertInto('accounts').values(rows).returning('id').execute();
    plans.forEach((plan, j) => {
      const dealer = dealers[plan.dealer];
      let end = new Date(rows[j].expiry_date!).getTime();
      // Newest renewal last: walk back from the expiry, then write them oldest first.
      const stretches = [...plan.months].reverse().map((months) => {
        const stretchEnd = end;
        end -= months * 30 * DAY;
        return { months, start: end, end: stretchEnd };
      });
      for (const stretch of stretches.reverse()) {
        entries.push(
          entry(dealer, 'USED', -stretch.months * CREDITS_PER_MONTH, {
            account_id: ids[j].id,
            actor_id: dealer.id,
            coverage_start: new Date(stretch.start).toISOString(),
            coverage_end: new Date(stretch.end).toISOString(),
            created_at: new Date(stretch.start).toISOString(),
            remarks: `Renewal of ${rows[j].login} for ${plural(stretch.months, 'month')}`,
          }),
        );
      }
    });
    await flush();
    accountsDone += plans.length;
    if (accountsDone % 100_000 === 0) log(`${accountsDone} accounts, ${serial} entries`);
  }
  await flush(true);
  log(`${accountsDone} accounts, ${serial} entries`);
  // Fresh statistics, as a database that grew this way would have after its autovacuum runs; on
  // PostgreSQL its visibility map too, without which a count over an index reads every row it counts.
  await (isPostgres(db) ? sql`vacuum analyze` : sql`analyze`).execute(db);
  log('statistics gathered');
  return { users: 1 + managers.length + resellers.length + dealers.length, accounts: accountsDone, entries: serial, seconds: (Date.now() - started) / 1000 };
}
