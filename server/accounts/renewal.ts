/**
 * Renewing and recovering account months inside the caller's transaction (decisions file):
 * the payer's credits are spent through the ledger (USED, bonus credits first), the account is
 * extended from its current expiry (or from now when expired or empty), and a global discount that
 * matches the months sets the price and takes one of its uses. Recovering months gives the paid part
 * of them back to whoever paid for them (see recoverLocked).
 */
import { type Transaction, sql } from 'kysely';
import { isPostgres } from '../db/dialect';
import { ACCOUNTS, BULK_MAX, CREDITS, type RenewalQuote, type RenewalResult, plural } from '../../src/contract';
import type { AccountRow, Database, UserRow } from '../db/schema';
import { fieldError } from '../errors';
import { type BalanceChange, InsufficientBalance, type PostedEntry, postChanges } from '../ledger/post';
import { lockUsers } from '../credits/moves';
import { DELETED } from '../hierarchy/members';
import { type SystemSettings, getSystemSettings } from '../settings';
import { type CoverageEvent, addMonths, inBonusPeriod, renewalStart, reverseCoverage, wholeMonthsBetween } from './dates';
import { consumeDiscount, quoteRenewal, regularQuote } from './pricing';

export type Payer = Pick<UserRow, 'id' | 'role' | 'username'>;

export interface RenewOptions {
  /** Who performs it (ledger actor_id); null for the scheduler. */
  actorId: number | null;
  now?: Date;
  /** The scheduler renews at expiry, past any bonus period. */
  auto?: boolean;
  settings?: SystemSettings;
}

/**
 * Accounts per UPDATE of a bulk renewal, a whole one: five bound values each, well under either
 * database's limit (and on PostgreSQL each statement runs the kept figures' trigger once).
 */
const UPDATE_BATCH = BULK_MAX;

const insufficient = (needed: number, available: number) => fieldError('credits', CREDITS.insufficientCredits(needed, available));

/**
 * Locks the payer's row before its balance is read, and answers that balance: a concurrent renewal
 * by the same payer then waits here instead of spending the bonus credits this one saw (and failing
 * its debit). The admin pays nothing and holds nothing.
 */
async function lockPayer(trx: Transaction<Database>, payer: Payer): Promise<Pick<UserRow, 'credits' | 'bonus_credits'>> {
  if (payer.role === 'admin') return { credits: 0, bonus_credits: 0 };
  const row = (await lockUsers(trx, [payer.id])).get(payer.id);
  if (!row) throw new Error(`Payer ${payer.id} is gone`);
  return row;
}

/** What a renewal or a recovery did: the account row after it, its result, and the entries it posted. */
export interface AccountCreditResult {
  account: AccountRow;
  result: RenewalResult;
  entries: PostedEntry[];
}

/** What renewing would cost `payer` now (admin pays nothing and takes no discount). */
export async function priceFor(
  trx: Transaction<Database>,
  account: Pick<AccountRow, 'server_id'>,
  months: number,
  payer: Payer,
  now: Date,
  settings: SystemSettings,
): Promise<RenewalQuote> {
  if (payer.role === 'admin') return { ...regularQuote(account.server_id, months, settings), credits: 0 };
  return quoteRenewal(trx, account.server_id, months, now, settings);
}

/**
 * Renews a locked account row (see lockAccount) for `months`, charging `payer`. Throws 422 field
 * errors: months (bonus period), credits (insufficient). Returns the updated row.
 */
export async function renewLocked(trx: Transaction<Database>, account: AccountRow, months: number, payer: Payer, options: RenewOptions): Promise<AccountCreditResult> {
  const now = options.now ?? new Date();
  if (!options.auto && inBonusPeriod(account, now)) throw fieldError('months', ACCOUNTS.bonusPeriod);
  const settings = options.settings ?? (await getSystemSettings(trx));

  const balance = await lockPayer(trx, payer);
  let quote = await priceFor(trx, account, months, payer, now, settings);
  if (quote.credits > 0 && balance.credits < quote.credits) throw insufficient(quote.credits, balance.credits);
  if (quote.discount_id !== null && !(await consumeDiscount(trx, quote.discount_id, now))) {
    // Another renewal took the discount's last use in the meantime: the regular price applies.
    quote = regularQuote(account.server_id, months, settings);
  }

  const start = renewalStart(account.expiry_date, now);
  const end = addMonths(start, months);
  const coverageStart = start.toISOString();
  const coverageEnd = end.toISOString();

  const updated = await trx
    .updateTable('accounts')
    .set({
      expiry_date: coverageEnd,
      validity_months: months,
      is_promo: quote.is_promo ? 1 : 0,
      bonus_months: quote.bonus_months,
      is_trial: 0,
      auto_renew_failed_at: null,
      auto_renew_error: null,
      updated_at: now.toISOString(),
    })
    .where('id', '=', account.id)
    .where('deleted_at', 'is', null)
    .where((eb) => (account.expiry_date === null ? eb('expiry_date', 'is', null) : eb('expiry_date', '=', account.expiry_date)))
    .returningAll()
    .executeTakeFirst();
  // The row is locked by the caller, so its expiry cannot have moved; this guards a caller that forgot.
  if (!updated) throw new Error(`Account ${account.id} changed while being renewed`);

  let entries: PostedEntry[] = [];
  if (quote.credits > 0) {
    try {
      entries = await postChanges(
        trx,
        [
          {
            userId: payer.id,
            type: 'USED',
            credits: -quote.credits,
            bonusCredits: -Math.min(balance.bonus_credits, quote.credits),
            accountId: account.id,
            coverageStart,
            coverageEnd,
            remarks: `${options.auto ? 'Auto-renewal' : 'Renewal'} of ${account.login} for ${plural(months, 'month')}`,
          },
        ],
        { actorId: options.actorId, kind: options.auto ? 'auto_renew' : 'renewal' },
      );
    } catch (error) {
      if (error instanceof InsufficientBalance) throw insufficient(quote.credits, error.available);
      throw error;
    }
  }
  return {
    account: updated,
    entries,
    result: {
      account_id: account.id,
      months,
      credits: quote.credits,
      discount_id: quote.discount_id,
      coverage_start: coverageStart,
      coverage_end: coverageEnd,
      transaction_number: entries[0]?.transaction_number ?? null,
    },
  };
}

/**
 * Renews several locked accounts for `months` at once (bulk renew), all or nothing in the caller's
 * transaction, with the rules of renewLocked: the payer is locked once, each server's price is
 * quoted once, the total is checked before anything is written, bonus credits pay first, and each
 * account gets its own USED entry. A discount's uses are taken one per account, so one that runs out
 * part way charges the regular price for the rest. `onRefused` names the account a refusal is about.
 */
export async function renewMany(
  trx: Transaction<Database>,
  accounts: AccountRow[],
  months: number,
  payer: Payer,
  options: RenewOptions & { onRefused?: (account: AccountRow, message: string) => Error },
): Promise<{ renewed: Array<{ account: AccountRow; result: RenewalResult }>; entries: PostedEntry[] }> {
  const now = options.now ?? new Date();
  const refused = (account: AccountRow, message: string) => options.onRefused?.(account, message) ?? fieldError('months', message);
  for (const account of accounts) if (inBonusPeriod(account, now)) throw refused(account, ACCOUNTS.bonusPeriod);
  const settings = options.settings ?? (await getSystemSettings(trx));

  let { credits: balance, bonus_credits: bonus } = await lockPayer(trx, payer);
  const quotes = new Map<number | null, RenewalQuote>();
  for (const account of accounts) {
    if (!quotes.has(account.server_id)) quotes.set(account.server_id, await priceFor(trx, account, months, payer, now, settings));
  }
  const total = accounts.reduce((sum, account) => sum + quotes.get(account.server_id)!.credits, 0);
  if (total > 0 && balance < total) throw insufficient(total, balance);

  const done: Array<{ account: AccountRow; result: RenewalResult; quote: RenewalQuote; coverageStart: string; coverageEnd: string }> = [];
  for (const account of accounts) {
    let quote = quotes.get(account.server_id)!;
    if (quote.discount_id !== null && !(await consumeDiscount(trx, quote.discount_id, now))) {
      quote = regularQuote(account.server_id, months, settings);
      quotes.set(account.server_id, quote);
    }
    const coverageStart = renewalStart(account.expiry_date, now).toISOString();
    const coverageEnd = addMonths(new Date(coverageStart), months).toISOString();
    done.push({
      account,
      quote,
      coverageStart,
      coverageEnd,
      result: {
        account_id: account.id,
        months,
        credits: quote.credits,
        discount_id: quote.discount_id,
        coverage_start: coverageStart,
        coverage_end: coverageEnd,
        transaction_number: null,
      },
    });
  }
  // The accounts in a few statements, not one each: a bulk renewal of a thousand made a thousand round trips.
  const updated = new Map<number, AccountRow>();
  for (let i = 0; i < done.length; i += UPDATE_BATCH) {
    const batch = done.slice(i, i + UPDATE_BATCH);
    const rows = sql.join(batch.map((d) => sql`(${d.account.id}, ${d.account.expiry_date}, ${d.coverageEnd}, ${d.quote.is_promo ? 1 : 0}, ${d.quote.bonus_months})`));
    // SQLite's RETURNING names no table (only the updated one takes part); PostgreSQL's would add the values' columns.
    const returning = isPostgres(trx) ? sql`returning accounts.*` : sql`returning *`;
    const result = await sql<AccountRow>`
      update accounts set expiry_date = v.expiry_date, validity_months = ${months}, is_promo = v.is_promo, bonus_months = v.bonus_months,
        is_trial = 0, auto_renew_failed_at = null, auto_renew_error = null, updated_at = ${now.toISOString()}
      from (
        select cast(column1 as integer) as id, column2 as old_expiry, column3 as expiry_date, cast(column4 as integer) as is_promo, cast(column5 as integer) as bonus_months
        from (values ${rows}) as t
      ) as v
      where accounts.id = v.id and accounts.deleted_at is null and accounts.expiry_date is not distinct from v.old_expiry
      ${returning}`.execute(trx);
    for (const row of result.rows) updated.set(row.id, row);
  }
  for (const d of done) {
    const row = updated.get(d.account.id);
    // The rows are locked by the caller, so their expiries cannot have moved; this guards a caller that forgot.
    if (!row) throw new Error(`Account ${d.account.id} changed while being renewed`);
    d.account = row;
  }

  // A discount that ran out part way raised the price of the rest: the check above holds only for the quotes.
  const charged = done.reduce((sum, d) => sum + d.quote.credits, 0);
  if (charged > balance) throw insufficient(charged, balance);
  const changes: BalanceChange[] = [];
  const paidRenewals = done.filter((d) => d.quote.credits > 0);
  for (const { account, quote, coverageStart, coverageEnd } of paidRenewals) {
    const fromBonus = Math.min(bonus, quote.credits);
    bonus -= fromBonus;
    balance -= quote.credits;
    changes.push({
      userId: payer.id,
      type: 'USED',
      credits: -quote.credits,
      bonusCredits: -fromBonus,
      accountId: account.id,
      coverageStart,
      coverageEnd,
      remarks: `Renewal of ${account.login} for ${plural(months, 'month')}`,
    });
  }
  let entries: PostedEntry[] = [];
  try {
    entries = changes.length > 0 ? await postChanges(trx, changes, { actorId: options.actorId, kind: 'bulk_renew' }) : [];
    entries.forEach((entry, i) => (paidRenewals[i].result.transaction_number = entry.transaction_number));
  } catch (error) {
    if (error instanceof InsufficientBalance) throw insufficient(charged, error.available);
    throw error;
  }
  return { renewed: done.map(({ account, result }) => ({ account, result })), entries };
}

/** A paid renewal of the account, as the ledger recorded it (USED entry). */
interface PaidRenewal {
  userId: number;
  months: number;
  /** What the renewal cost in all, and the paid part of it (the rest was bonus credits). */
  cost: number;
  paid: number;
}

/**
 * The paid part of the latest `reversed` months of a renewal. Bonus credits are spent first, so
 * they paid for the earliest months and the paid credits for the latest ones.
 */
function paidValue(renewal: PaidRenewal, reversed: number): number {
  const months = Math.min(Math.max(reversed, 0), renewal.months);
  return Math.min(renewal.paid, Math.round((renewal.cost * months) / renewal.months));
}

/** The account's recorded coverage, and per user what was paid for the account and refunded. */
async function accountLedger(trx: Transaction<Database>, accountId: number) {
  const rows = await trx
    .selectFrom('credit_transactions')
    .select(['id', 'user_id', 'type', 'credits', 'bonus_credits', 'coverage_start', 'coverage_end'])
    .where('account_id', '=', accountId)
    .where('type', 'in', ['USED', 'RECOVERED'])
    .orderBy('id')
    .execute();
  const events: Array<CoverageEvent<PaidRenewal>> = [];
  const paidBy = new Map<number, number>();
  const refundedTo = new Map<number, number>();
  const add = (map: Map<number, number>, id: number, n: number) => map.set(id, (map.get(id) ?? 0) + n);
  for (const row of rows) {
    const paid = row.credits - row.bonus_credits;
    if (row.type === 'USED') add(paidBy, row.user_id, -paid);
    else add(refundedTo, row.user_id, paid);
    const start = row.coverage_start ? new Date(row.coverage_start) : null;
    const end = row.coverage_end ? new Date(row.coverage_end) : null;
    if (!start || !end || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end <= start) continue;
    events.push({
      id: row.id,
      start,
      end,
      paidBy: row.type === 'USED' ? { userId: row.user_id, months: Math.max(1, wholeMonthsBetween(start, end)), cost: -row.credits, paid: -paid } : null,
    });
  }
  return { events, paidBy, refundedTo };
}

/**
 * Takes `months` unused whole months back from a locked account. The expiry moves back over the
 * coverage being reversed (newest first, on the calendar of the renewals that bought it), and each
 * renewal whose months come back refunds ITS PAYER, whoever recovers (the caller only needs the
 * account in its subtree): the paid part of those months, as a RECOVERED entry on the account, never
 * more than the payer paid for the account minus what it got back already. Bonus credits spent on
 * them are forfeited (never returned, as bonus or as paid). Months nobody paid for (admin renewals,
 * trials, expiries set by hand) refund nothing. A reversed paid stretch is recorded even when it
 * refunds 0, so the same months cannot be refunded again after they are covered for free.
 */
export async function recoverLocked(trx: Transaction<Database>, account: AccountRow, months: number, _actor: Payer, options: RenewOptions): Promise<AccountCreditResult> {
  const now = options.now ?? new Date();
  const expiry = account.expiry_date ? new Date(account.expiry_date) : null;
  const unused = expiry && !Number.isNaN(expiry.getTime()) ? wholeMonthsBetween(now, expiry) : 0;
  if (!expiry || months > unused) throw fieldError('months', ACCOUNTS.recoverTooMany(unused));

  const ledger = await accountLedger(trx, account.id);
  const { target, stretches } = reverseCoverage(expiry, months, ledger.events);
  const newExpiry = target.getTime() < now.getTime() ? now : target;

  const payerIds = [...new Set(stretches.flatMap((s) => (s.paidBy ? [s.paidBy.userId] : [])))];
  const payers = payerIds.length > 0 ? await lockUsers(trx, payerIds) : new Map<number, UserRow>();
  const left = new Map(payerIds.map((id) => [id, Math.max(0, (ledger.paidBy.get(id) ?? 0) - (ledger.refundedTo.get(id) ?? 0))]));
  const refunds: BalanceChange[] = [];
  for (const stretch of stretches) {
    const renewal = stretch.paidBy;
    const payer = renewal ? payers.get(renewal.userId) : undefined;
    // A deleted payer holds nothing any more: its months come back without a refund.
    if (!renewal || !payer || payer.status === DELETED) continue;
    const reversedBefore = renewal.months - stretch.liveMonths;
    const due = paidValue(renewal, reversedBefore + stretch.months) - paidValue(renewal, reversedBefore);
    const credits = Math.max(0, Math.min(due, left.get(payer.id) ?? 0));
    left.set(payer.id, (left.get(payer.id) ?? 0) - credits);
    refunds.push({
      userId: payer.id,
      type: 'RECOVERED',
      credits,
      accountId: account.id,
      coverageStart: new Date(Math.max(stretch.start.getTime(), newExpiry.getTime())).toISOString(),
      coverageEnd: stretch.end.toISOString(),
      remarks: `Recovery of ${plural(stretch.months, 'month')} from ${account.login}`,
    });
  }

  const updated = await trx
    .updateTable('accounts')
    .set({ expiry_date: newExpiry.toISOString(), is_promo: 0, bonus_months: 0, updated_at: now.toISOString() })
    .where('id', '=', account.id)
    .where('expiry_date', '=', account.expiry_date)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new Error(`Account ${account.id} changed while being recovered`);

  const entries = refunds.length > 0 ? await postChanges(trx, refunds, { actorId: options.actorId, kind: 'recovery' }) : [];
  const refunded = entries.reduce((sum, e) => sum + e.credits, 0);
  return {
    account: updated,
    entries,
    result: {
      account_id: account.id,
      months,
      credits: refunded,
      discount_id: null,
      coverage_start: newExpiry.toISOString(),
      coverage_end: account.expiry_date!,
      transaction_number: (entries.find((e) => e.credits > 0) ?? entries[0])?.transaction_number ?? null,
    },
  };
}
