import { describe, expect, it } from 'vitest';
import { expiryInfo } from '../../src/components/display/expiry';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const inHours = (h: number) => new Date(NOW.getTime() + h * 3_600_000).toISOString();
const inDays = (d: number) => inHours(d * 24);

describe('account expiry display', () => {
  it('has nothing to say without an expiry', () => {
    expect(expiryInfo(null, NOW)).toMatchObject({ level: 'none', label: 'No expiry', daysLeft: null });
    expect(expiryInfo('not a date', NOW).level).toBe('none');
  });

  it('shows a date in the past (or now) as expired, in red', () => {
    expect(expiryInfo(inDays(-3), NOW)).toEqual({ level: 'expired', label: 'Expired', daysLeft: 0, color: 'error' });
    expect(expiryInfo(inHours(-0.01), NOW).level).toBe('expired');
    expect(expiryInfo(NOW.toISOString(), NOW).level).toBe('expired');
  });

  it("says 'Expiring Soon' within 24 hours, in the warning colour", () => {
    expect(expiryInfo(inHours(1), NOW)).toMatchObject({ level: 'soon', label: 'Expiring Soon', color: 'warning' });
    expect(expiryInfo(inHours(24), NOW).label).toBe('Expiring Soon');
    expect(expiryInfo(inHours(25), NOW).label).not.toBe('Expiring Soon');
  });

  it('warns when 7 days or fewer remain and counts the days', () => {
    expect(expiryInfo(inHours(25), NOW)).toMatchObject({ level: 'warning', label: '2 days left', daysLeft: 2, color: 'warning' });
    expect(expiryInfo(inDays(7), NOW)).toMatchObject({ level: 'warning', label: '7 days left', color: 'warning' });
    expect(expiryInfo(inHours(7 * 24 + 1), NOW)).toMatchObject({ level: 'ok', label: '8 days left', color: 'success' });
  });

  it('counts days up to 31 days and months above', () => {
    expect(expiryInfo(inDays(31), NOW)).toMatchObject({ level: 'ok', label: '31 days left' });
    expect(expiryInfo(inDays(32), NOW)).toMatchObject({ level: 'ok', label: '1 months left' });
    expect(expiryInfo(inDays(95), NOW).label).toBe('3 months left');
    expect(expiryInfo(new Date('2027-03-10T12:00:01.000Z').toISOString(), NOW).label).toBe('12 months left');
  });
});
