/**
 * How an account's expiry is shown (docs/domain.md#renewals-and-expiry): expired when in the past; 'Expiring Soon' within
 * 24 hours; the warning colour when 7 days or fewer remain; 'N months left' when more than 31 days
 * remain, else the days left.
 *
 * Days and months are counted on the calendar, from today's date to the expiry date (the date the
 * cell shows): an account bought for 3 months today expires on this day in 3 months and reads
 * '3 months left', however many seconds have passed since.
 */
import dayjs, { type Dayjs } from 'dayjs';
import { ACCOUNT_SCREEN, EXPIRING_SOON_HOURS, EXPIRY_WARNING_DAYS, MONTHS_LEFT_AFTER_DAYS, RENEWAL } from '../../contract';

export type ExpiryLevel = 'none' | 'expired' | 'soon' | 'warning' | 'ok';

export interface ExpiryInfo {
  level: ExpiryLevel;
  /** What the cell says beside the date. */
  label: string;
  /** Calendar days from today to the expiry date (0 when expired; null without an expiry). */
  daysLeft: number | null;
  /** The colour of the level: error (expired), warning (7 days or fewer), success, or default. */
  color: 'error' | 'warning' | 'success' | 'default';
}

/**
 * The largest k with `from` + k calendar months on or before `to`, a month added to the 31st landing
 * on the month's last day as renewals do (30 November + 3 months is 28 February: 3 months).
 */
function wholeMonths(from: Dayjs, to: Dayjs): number {
  let k = Math.max(0, to.diff(from, 'month'));
  while (!from.add(k + 1, 'month').isAfter(to)) k++;
  while (k > 0 && from.add(k, 'month').isAfter(to)) k--;
  return k;
}

export function expiryInfo(expiry: string | null | undefined, now: Date = new Date()): ExpiryInfo {
  const at = expiry ? dayjs(expiry) : null;
  if (!at?.isValid()) return { level: 'none', label: ACCOUNT_SCREEN.noExpiry, daysLeft: null, color: 'default' };
  if (!at.isAfter(now)) return { level: 'expired', label: ACCOUNT_SCREEN.expired, daysLeft: 0, color: 'error' };
  const today = dayjs(now).startOf('day');
  const expiryDay = at.startOf('day');
  const daysLeft = expiryDay.diff(today, 'day');
  if (at.diff(now, 'hour', true) <= EXPIRING_SOON_HOURS) return { level: 'soon', label: RENEWAL.expiringSoon, daysLeft, color: 'warning' };
  if (daysLeft <= EXPIRY_WARNING_DAYS) return { level: 'warning', label: ACCOUNT_SCREEN.daysLeft(daysLeft), daysLeft, color: 'warning' };
  if (daysLeft > MONTHS_LEFT_AFTER_DAYS) return { level: 'ok', label: RENEWAL.monthsLeft(wholeMonths(today, expiryDay)), daysLeft, color: 'success' };
  return { level: 'ok', label: ACCOUNT_SCREEN.daysLeft(daysLeft), daysLeft, color: 'success' };
}
