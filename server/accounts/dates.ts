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

/** A stretch of an account's coverage the ledger recorded: a paid renewal, or one reversed since. */
export interface CoverageEvent<T> {
  /** Ledger order: a later event wins where two cover the same time. */
  id: number;
  start: Date;
  end: Date;
  /** The renewal that paid for it; null for coverage an earlier recovery reversed. */
  paidBy: T | null;
}

export interface ReversedStretch<T> {
  /** The renewal that paid for these months, or null when nobody did (admin, trial, set by hand). */
  paidBy: T | null;
  months: number;
  /** Whole months of the paying renewal still in use before this step (0 when paidBy is null). */
  liveMonths: number;
  start: Date;
  end: Date;
}

/**
 * Walks `months` back from `expiry` over the recorded coverage, newest first, so that recovering
 * is the exact inverse of the renewals it reverses: inside a renewal's coverage the steps land on
 * that renewal's own calendar (12-31 renewed by 6 months ends 06-30; taking the 6 months back
 * returns to 12-31, not 12-30). Coverage no event explains is stepped back on its own calendar,
 * from the end of the previous recorded stretch when there is one.
 */
export function reverseCoverage<T>(expiry: Date, months: number, events: Array<CoverageEvent<T>>): { target: Date; stretches: Array<ReversedStretch<T>> } {
  const newestFirst = [...events].sort((a, b) => b.id - a.id);
  const stretches: Array<ReversedStretch<T>> = [];
  let cursor = expiry;
  let remaining = months;
  while (remaining > 0) {
    const at = cursor.getTime();
    const covering = newestFirst.find((e) => e.start.getTime() < at && at <= e.end.getTime());
    let anchor: Date | null = covering ? covering.start : null;
    if (!covering) {
      const before = newestFirst.map((e) => e.end.getTime()).filter((end) => end < at);
      anchor = before.length > 0 ? new Date(Math.max(...before)) : null;
    }
    const span = anchor ? wholeMonthsBetween(anchor, cursor) : 0;
    const take = span > 0 ? Math.min(remaining, span) : remaining;
    const onGrid = anchor !== null && span > 0 && addMonths(anchor, span).getTime() === at;
    const next = onGrid ? addMonths(anchor!, span - take) : addMonths(cursor, -take);
    const paidBy = covering?.paidBy ?? null;
    stretches.push({ paidBy, months: take, liveMonths: paidBy === null ? 0 : span, start: next, end: cursor });
    cursor = next;
    remaining -= take;
  }
  return { target: cursor, stretches };
}
