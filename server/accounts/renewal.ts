/**
 * Renewing and recovering account months inside the caller's transaction (decisions file):
 * the payer's credits are spent through the ledger (USED, bonus credits first), the account is
 * extended from its current expiry (or from now when expired or empty), and a global discount that
 * matches the months sets the price and takes one of its uses.
 */
import type { Transaction } from 'kysely';
import { ACCOUNTS, CREDITS, type RenewalQuote, type RenewalResult } from '../../src/contract';
import type { AccountRow, Database, UserRow } from '../db/schema';
import { fieldError } from '../http/errors';
import { InsufficientBalance, postChanges } from '../ledger/post';
import { type SystemSettings, getSystemSettings } from '../settings';
import { addMonths, inBonusPeriod, renewalStart, wholeMonthsBetween } from './dates';
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

const insufficient = (needed: number, available: number) =>
  fieldError('credits', CREDITS.insufficientCredits(needed, available));

async function balanceOf(trx: Transaction<Database>, userId: number) {
  return trx.selectFrom('users').select(['credits', 'bonus_credits']).where('id', '=', userId).executeTakeFirstOrThrow();
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
export async function renewLocked(
  trx: Transaction<Database>,
  account: AccountRow,
  months: number,
  payer: Payer,
  options: RenewOptions,
): Promise<{ account: AccountRow; result: RenewalResult }> {
  const now = options.now ?? new Date();
  if (!options.auto && inBonusPeriod(account, now)) throw fieldError('months', ACCOUNTS.bonusPeriod);
  const settings = options.settings ?? (await getSystemSettings(trx));

  let quote = await priceFor(trx, account, months, payer, now, settings);
  if (quote.credits > 0) {
    const { credits } = await balanceOf(trx, payer.id);
    if (credits < quote.credits) throw insufficient(quote.credits, credits);
  }
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

  let transactionNumber: string | null = null;
  if (quote.credits > 0) {
    const { bonus_credits: bonus } = await balanceOf(trx, payer.id);
    try {
      const [entry] = await postChanges(
        trx,
        [
          {
            userId: payer.id,
            type: 'USED',
            credits: -quote.credits,
            bonusCredits: -Math.min(bonus, quote.credits),
            accountId: account.id,
            coverageStart,
            coverageEnd,
            remarks: `${options.auto ? 'Auto-renewal' : 'Renewal'} of ${account.login} for ${months} month(s)`,
          },
        ],
        { actorId: options.actorId },
      );
      transactionNumber = entry.transaction_number;
    } catch (error) {
      if (error instanceof InsufficientBalance) throw insufficient(quote.credits, error.available);
      throw error;
    }
  }
  return {
    account: updated,
    result: {
      account_id: account.id,
      months,
      credits: quote.credits,
      discount_id: quote.discount_id,
      coverage_start: coverageStart,
      coverage_end: coverageEnd,
      transaction_number: transactionNumber,
    },
  };
}

/** Credits still refundable for an account: what was paid (bonus excluded) minus earlier refunds. */
export async function refundableCredits(trx: Transaction<Database>, accountId: number): Promise<number> {
  const row = await trx
    .selectFrom('credit_transactions')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('type', '=', 'USED').then(eb('credits', '-', eb.ref('bonus_credits'))).else(0).end()), eb.lit(0)).as('used'),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('type', '=', 'RECOVERED').then(eb.ref('credits')).else(0).end()), eb.lit(0)).as('refunded'),
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Math.max(0, -Number(row.used) - Number(row.refunded));
}

/**
 * Takes `months` unused whole months back from a locked account: the expiry moves back by them and
 * the actor is refunded months x default_credits (never more than refundableCredits). Admin gets no
 * refund (it holds no balance).
 */
export async function recoverLocked(
  trx: Transaction<Database>,
  account: AccountRow,
  months: number,
  actor: Payer,
  options: RenewOptions,
): Promise<{ account: AccountRow; result: RenewalResult }> {
  const now = options.now ?? new Date();
  const settings = options.settings ?? (await getSystemSettings(trx));
  const expiry = account.expiry_date ? new Date(account.expiry_date) : null;
  const unused = expiry ? wholeMonthsBetween(now, expiry) : 0;
  if (!expiry || months > unused) throw fieldError('months', ACCOUNTS.recoverTooMany(unused));

  const shortened = addMonths(expiry, -months);
  const newExpiry = shortened.getTime() < now.getTime() ? now : shortened;
  const perMonth = Number(settings.default_credits) || 1;
  const refund = actor.role === 'admin' ? 0 : Math.min(months * perMonth, await refundableCredits(trx, account.id));

  const updated = await trx
    .updateTable('accounts')
    .set({ expiry_date: newExpiry.toISOString(), is_promo: 0, bonus_months: 0, updated_at: now.toISOString() })
    .where('id', '=', account.id)
    .where('expiry_date', '=', account.expiry_date)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new Error(`Account ${account.id} changed while being recovered`);

  let transactionNumber: string | null = null;
  if (refund > 0) {
    const [entry] = await postChanges(
      trx,
      [
        {
          userId: actor.id,
          type: 'RECOVERED',
          credits: refund,
          accountId: account.id,
          coverageStart: newExpiry.toISOString(),
          coverageEnd: account.expiry_date,
          remarks: `Recovery of ${months} month(s) from ${account.login}`,
        },
      ],
      { actorId: options.actorId },
    );
    transactionNumber = entry.transaction_number;
  }
  return {
    account: updated,
    result: {
      account_id: account.id,
      months,
      credits: refund,
      discount_id: null,
      coverage_start: newExpiry.toISOString(),
      coverage_end: account.expiry_date!,
      transaction_number: transactionNumber,
    },
  };
}
