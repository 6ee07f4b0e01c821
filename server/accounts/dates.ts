/** Calendar arithmetic for expiry dates (UTC; a month added to Jan 31 lands on the last day of February). */

export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

export const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * 86_400_000);

/** The largest k >= 0 with addMonths(from, k) <= to (0 when `to` is not after `from`). */
export function wholeMonthsBetween(from: Date, to: Date): number {
  if (to.getTime() <= from.getTime()) return 0;
  let k = Math.max(0, (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth()) - 1);
  while (addMonths(from, k + 1).getTime() <= to.getTime()) k++;
  while (k > 0 && addMonths(from, k).getTime() > to.getTime()) k--;
  return k;
}

/** A renewal extends from the current expiry, or from now when the account is expired or has none. */
export function renewalStart(expiry: string | null, now: Date): Date {
  const current = expiry ? new Date(expiry) : null;
  return current && !Number.isNaN(current.getTime()) && current.getTime() > now.getTime() ? current : now;
}

/**
 * A promo account (bought with a discount that gives more months than it costs) is in its bonus
 * period until one month before it expires; it cannot be renewed before then.
 */
export function inBonusPeriod(account: { is_promo: number; expiry_date: string | null }, now: Date): boolean {
  if (account.is_promo !== 1 || !account.expiry_date) return false;
  return now.getTime() < addMonths(new Date(account.expiry_date), -1).getTime();
}
