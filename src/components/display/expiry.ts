/**
 * How an account's expiry is shown (spec 4, 9): expired when in the past; 'Expiring Soon' within
 * 24 hours; the warning colour when 7 days or fewer remain; 'N months left' when more than 31 days
 * remain, else the days left.
 */
import dayjs from 'dayjs';
import { ACCOUNT_SCREEN, EXPIRING_SOON_HOURS, EXPIRY_WARNING_DAYS, MONTHS_LEFT_AFTER_DAYS, RENEWAL } from '../../contract';

export type ExpiryLevel = 'none' | 'expired' | 'soon' | 'warning' | 'ok';

export interface ExpiryInfo {
  level: ExpiryLevel;
  /** What the cell says beside the date. */
  label: string;
  /** Whole days left, rounded up (0 when expired; null without an expiry). */
  daysLeft: number | null;
  /** Antd colour name for the level. */
  color: 'error' | 'warning' | 'success' | 'default';
}

const DAY_MS = 86_400_000;

export function expiryInfo(expiry: string | null | undefined, now: Date = new Date()): ExpiryInfo {
  const at = expiry ? Date.parse(expiry) : Number.NaN;
  if (Number.isNaN(at)) return { level: 'none', label: ACCOUNT_SCREEN.noExpiry, daysLeft: null, color: 'default' };
  const leftMs = at - now.getTime();
  if (leftMs <= 0) return { level: 'expired', label: ACCOUNT_SCREEN.expired, daysLeft: 0, color: 'error' };
  const daysLeft = Math.ceil(leftMs / DAY_MS);
  if (leftMs <= EXPIRING_SOON_HOURS * 3_600_000) return { level: 'soon', label: RENEWAL.expiringSoon, daysLeft, color: 'warning' };
  if (leftMs <= EXPIRY_WARNING_DAYS * DAY_MS) return { level: 'warning', label: ACCOUNT_SCREEN.daysLeft(daysLeft), daysLeft, color: 'warning' };
  if (leftMs > MONTHS_LEFT_AFTER_DAYS * DAY_MS) {
    // Calendar months, at least 1 (32 days in a 31-day month is one month and a day).
    const months = Math.max(1, dayjs(at).diff(dayjs(now), 'month'));
    return { level: 'ok', label: RENEWAL.monthsLeft(months), daysLeft, color: 'success' };
  }
  return { level: 'ok', label: ACCOUNT_SCREEN.daysLeft(daysLeft), daysLeft, color: 'success' };
}
