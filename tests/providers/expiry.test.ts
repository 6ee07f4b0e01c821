import { describe, expect, it } from 'vitest';
import { expiryInfo } from '../../src/features/accounts/expiry';

// Dates in the local time zone: the cell counts from today's date to the expiry date as the user sees them.
const local = (y: number, m: number, d: number, h = 12, min = 0, s = 0) => new Date(y, m - 1, d, h, min, s).toISOString();
const NOW = new Date(2026, 2, 10, 12, 0, 0); // 10 March 2026, noon
const inHours = (h: number) => new Date(NOW.getTime() + h * 3_600_000).toISOString();
const label = (expiry: string, now: Date = NOW) => expiryInfo(expiry, now).label;

describe('account expiry display', () => {
  it('has nothing to say without an expiry', () => {
    expect(expiryInfo(null, NOW)).toMatchObject({ level: 'none', label: 'No expiry', daysLeft: null, color: 'default' });
    expect(expiryInfo('not a date', NOW).level).toBe('none');
  });

  it('shows a date in the past (or now) as expired, in the error colour', () => {
    expect(expiryInfo(local(2026, 3, 7), NOW)).toEqual({ level: 'expired', label: 'Expired', daysLeft: 0, color: 'error' });
    expect(expiryInfo(inHours(-0.01), NOW).level).toBe('expired');
    expect(expiryInfo(NOW.toISOString(), NOW)).toMatchObject({ level: 'expired', color: 'error' });
  });

  it("says 'Expiring Soon' within 24 hours (later today or tomorrow morning), in the warning colour", () => {
    expect(expiryInfo(local(2026, 3, 10, 18), NOW)).toMatchObject({ level: 'soon', label: 'Expiring Soon', daysLeft: 0, color: 'warning' });
    expect(expiryInfo(inHours(24), NOW)).toMatchObject({ label: 'Expiring Soon', daysLeft: 1 });
    expect(expiryInfo(inHours(25), NOW)).toMatchObject({ level: 'warning', label: '1 day left', daysLeft: 1, color: 'warning' });
  });

  it('counts calendar days to the expiry date and warns at 7 days or fewer', () => {
    // Noon now, 08:00 in 2 days: two dates ahead, whatever the hours.
    expect(expiryInfo(local(2026, 3, 12, 8), NOW)).toMatchObject({ level: 'warning', label: '2 days left', daysLeft: 2 });
    expect(expiryInfo(local(2026, 3, 12, 23, 59), NOW)).toMatchObject({ label: '2 days left', daysLeft: 2 });
    expect(expiryInfo(local(2026, 3, 17, 0, 0, 1), NOW)).toMatchObject({ level: 'warning', label: '7 days left', daysLeft: 7, color: 'warning' });
    expect(expiryInfo(local(2026, 3, 17, 23, 59), NOW)).toMatchObject({ level: 'warning', label: '7 days left', color: 'warning' });
    expect(expiryInfo(local(2026, 3, 18, 0, 0, 1), NOW)).toMatchObject({ level: 'ok', label: '8 days left', daysLeft: 8, color: 'success' });
  });

  it('shows days up to 31 and whole months above (months when more than 31 days remain)', () => {
    expect(label(local(2026, 4, 9))).toBe('30 days left');
    expect(label(local(2026, 4, 10))).toBe('31 days left'); // exactly one calendar month of 31 days
    expect(expiryInfo(local(2026, 4, 11), NOW)).toMatchObject({ level: 'ok', label: '1 month left', daysLeft: 32, color: 'success' });
    expect(label(local(2026, 5, 9))).toBe('1 month left');
    expect(label(local(2026, 5, 10))).toBe('2 months left');
  });

  it("reads '3 months left' right after buying 3, and '12 months left' after a year", () => {
    // The renewal adds calendar months to this moment; the display is read a few seconds later.
    const bought = new Date(2026, 2, 10, 23, 59, 50);
    const readAt = new Date(2026, 2, 10, 23, 59, 58);
    expect(label(local(2026, 6, 10, 23, 59, 50), readAt)).toBe('3 months left');
    expect(label(local(2026, 6, 10, 23, 59, 50), new Date(bought.getTime() + 60_000))).toBe('2 months left'); // the next day
    expect(label(local(2027, 3, 10, 12, 0, 1))).toBe('12 months left');
    expect(label(local(2027, 3, 9, 23))).toBe('11 months left');
    // Exactly 3 calendar months from a month end: 30 November + 3 months is the last day of February.
    expect(label(local(2027, 2, 28, 9), new Date(2026, 10, 30, 9, 0, 5))).toBe('3 months left');
    expect(label(local(2027, 2, 28, 9), new Date(2026, 11, 1, 9))).toBe('2 months left');
  });

  it('counts across leap years: 29 February and a month from 29 January', () => {
    const jan29 = new Date(2028, 0, 29, 10); // 2028 is a leap year
    expect(label(local(2028, 2, 29, 10, 0, 1), jan29)).toBe('31 days left');
    expect(label(local(2028, 3, 1, 10), jan29)).toBe('1 month left');
    expect(expiryInfo(local(2028, 3, 1, 10), jan29).daysLeft).toBe(32);
    // 12 months bought on 29 February end on 28 February (no 29th in 2029): still '12 months left'.
    const feb29 = new Date(2028, 1, 29, 10);
    expect(label(local(2029, 2, 28, 10, 0, 1), feb29)).toBe('12 months left');
    expect(label(local(2029, 2, 27, 10), feb29)).toBe('11 months left');
    expect(expiryInfo(local(2029, 2, 28, 10, 0, 1), feb29).daysLeft).toBe(365);
    // In a common year the same dates are a day shorter.
    expect(label(local(2027, 3, 1, 10), new Date(2027, 0, 29, 10))).toBe('31 days left');
  });
});
