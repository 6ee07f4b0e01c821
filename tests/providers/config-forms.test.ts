import { describe, expect, it } from 'vitest';
import { creditOptionsSettingsSchema } from '../../src/contract';
import { discountSavings } from '../../src/resources/globalDiscounts/list';

/** The list fields of the credit options form read the text typed into them; null when refused. */
const list = (field: 'preset_amounts' | 'percentage_options', text: string) => {
  const parsed = creditOptionsSettingsSchema.shape[field].safeParse(text);
  return parsed.success ? parsed.data : null;
};

describe('global discount savings (validity_months - credits_required, percentage to one decimal)', () => {
  it.each([
    [12, 9, 3, '25.0'],
    [10, 9, 1, '10.0'],
    [7, 5, 2, '28.6'],
    [3, 3, 0, '0.0'],
    [6, 8, -2, '-33.3'],
  ])('%i months for %i credits saves %i (%s%%)', (months, credits, savings, percentage) => {
    expect(discountSavings(months, credits)).toEqual({ savings, percentage });
  });
});

describe('credit options lists typed as comma-separated text', () => {
  it('reads positive integers with any spacing', () => {
    expect(list('preset_amounts', '10, 25,50 ,  100')).toEqual([10, 25, 50, 100]);
    expect(list('percentage_options', '')).toEqual([]);
  });
  it('refuses anything that is not an integer within the bounds', () => {
    for (const text of ['10, abc', '10,,20', '1.5', '-5', '0', '101', '10 20']) expect(list('percentage_options', text)).toBeNull();
  });
});
