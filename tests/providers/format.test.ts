/** Counts and names read right: one credit, two credits, a name then its username in brackets. */
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, HIERARCHY_PANEL, grouped, nameWithUsername, plural, pluralWord } from '../../src/contract';

describe('plural', () => {
  it('is singular for exactly one and plural otherwise', () => {
    expect(plural(1, 'credit')).toBe('1 credit');
    expect(plural(0, 'credit')).toBe('0 credits');
    expect(plural(2, 'account')).toBe('2 accounts');
    expect(plural(-1, 'credit')).toBe('-1 credit');
    expect(plural(3, 'entry')).toBe('3 entries');
    expect(pluralWord(5, 'box', 'boxes')).toBe('boxes');
  });

  it('builds the messages that used to say "(s)"', () => {
    expect(ACCOUNTS.bulkDone(1, 'renewed')).toBe('1 account renewed successfully.');
    expect(ACCOUNTS.bulkDone(2, 'renewed')).toBe('2 accounts renewed successfully.');
    expect(HIERARCHY_PANEL.stopImpact({ resellers: 1, dealers: 2, accounts: 1 })).toBe(
      'It and the 1 reseller and 2 dealers below it will not be able to sign in, spend or move credits until activated again. The 1 end-user account of the branch keep their service.',
    );
  });
});

describe('nameWithUsername', () => {
  it('puts one space between the name and the bracketed username', () => {
    expect(nameWithUsername('Nina Newmanager', 'nina.mgr')).toBe('Nina Newmanager (nina.mgr)');
  });

  it('shows the username alone when there is no other name', () => {
    expect(nameWithUsername('', 'nina.mgr')).toBe('nina.mgr');
    expect(nameWithUsername(null, 'nina.mgr')).toBe('nina.mgr');
    expect(nameWithUsername('nina.mgr', 'nina.mgr')).toBe('nina.mgr');
  });
});

describe('grouped', () => {
  it('writes thousands as en-US does, for whole numbers, fractions and negatives', () => {
    for (const n of [0, 7, 999, 1000, 12345, 1234567, 1000000, -1234, -999, 1234.5, 0.25, 98765.4321]) {
      expect(grouped(n), String(n)).toBe(n.toLocaleString('en-US', { maximumFractionDigits: 20 }));
    }
  });
});
