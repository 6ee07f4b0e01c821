/** The amounts the credit pickers offer: configured presets, apart from the amounts computed from a balance. */
import { describe, expect, it } from 'vitest';
import { RECOVERY_SHARES, creditChoices, defaultCreditOptionsSettings, fallbackCreditOptions, generateCreditOptions } from '../../src/contract';

describe('creditChoices', () => {
  it('lists the presets within the balance first, then the named percentages and all of it', () => {
    expect(creditChoices(defaultCreditOptionsSettings(), 745)).toEqual([
      { value: 10 },
      { value: 25 },
      { value: 50 },
      { value: 100 },
      { value: 200 },
      { value: 500 },
      { value: 186, share: '25% of your balance' },
      { value: 372, share: '50% of your balance' },
      { value: 558, share: '75% of your balance' },
      { value: 745, share: 'All your credits' },
    ]);
  });

  it('keeps a computed amount equal to a preset once, as the preset (all of it stays named)', () => {
    const choices = creditChoices(defaultCreditOptionsSettings(), 200);
    expect(choices).toEqual([{ value: 10 }, { value: 25 }, { value: 50 }, { value: 100 }, { value: 150, share: '75% of your balance' }, { value: 200, share: 'All your credits' }]);
    expect(new Set(choices.map((c) => c.value)).size).toBe(choices.length);
  });

  it('snaps percentages to the step, keeps the minimum, names recovery shares, and has none for admin', () => {
    const settings = { ...defaultCreditOptionsSettings(), increment_step: 25, min_credits: 30, preset_amounts: [30, 60] };
    expect(creditChoices(settings, 130, RECOVERY_SHARES)).toEqual([
      { value: 30 },
      { value: 60 },
      { value: 50, share: '50% of the paid credits' },
      { value: 75, share: '75% of the paid credits' },
      { value: 125, share: '100% of the paid credits' },
      { value: 130, share: 'All paid credits' },
    ]);
    expect(creditChoices(defaultCreditOptionsSettings(), null).every((c) => c.share === undefined)).toBe(true);
    expect(creditChoices({ ...settings, is_active: false }, 40)).toEqual(fallbackCreditOptions(40).map((value) => ({ value })));
    expect(generateCreditOptions(settings, 130)).toEqual([30, 50, 60, 75, 125, 130]);
  });
});
