import { describe, expect, it } from 'vitest';
import { discountSavings } from '../../src/resources/globalDiscounts';
import { parseIntegerList } from '../../src/resources/creditOptionsSettings';

describe('global discount savings (spec 2: validity_months - credits_required, percentage to one decimal)', () => {
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
    expect(parseIntegerList('10, 25,50 ,  100', 1, 1_000_000)).toEqual([10, 25, 50, 100]);
    expect(parseIntegerList('', 1, 100)).toEqual([]);
  });
  it('refuses anything that is not an integer within the bounds', () => {
    for (const text of ['10, abc', '10,,20', '1.5', '-5', '0', '101', '10 20']) expect(parseIntegerList(text, 1, 100)).toBeNull();
  });
});
