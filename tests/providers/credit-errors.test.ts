import type { HttpError } from '@refinedev/core';
import { describe, expect, it } from 'vitest';
import { creditErrorToast, firstFieldMessage } from '../../src/features/credits/creditErrors';
import { CREDITS, HIERARCHY_PANEL } from '../../src/contract';

const unprocessable = (errors: Record<string, string[]>, message = 'The given data was invalid.'): HttpError => ({
  statusCode: 422,
  message,
  errors,
});

describe('creditErrorToast (add credits)', () => {
  it('maps a rate limit to its text, whatever else the body carries', () => {
    const toast = creditErrorToast(unprocessable({ rate_limit: ['Too many credit operations. Please wait before trying again.'], credits: ['x'] }));
    expect(toast).toEqual({ title: 'Rate Limit Exceeded', description: 'Too many credit operations. Please wait before trying again.' });
  });

  it('maps paid_credits to Insufficient Credits, keeping a more precise server text as description', () => {
    expect(creditErrorToast(unprocessable({ paid_credits: ['Insufficient Credits'] }))).toEqual({ title: 'Insufficient Credits' });
    expect(creditErrorToast(unprocessable({ paid_credits: ['Cannot recover more than available credits (12)'] }))).toEqual({
      title: 'Insufficient Credits',
      description: 'Cannot recover more than available credits (12)',
    });
  });

  it('maps promo_credits and recipient', () => {
    expect(creditErrorToast(unprocessable({ promo_credits: ['Invalid Promo Credits'] })).title).toBe('Invalid Promo Credits');
    expect(creditErrorToast(unprocessable({ recipient: ['Invalid Recipient'] })).title).toBe('Invalid Recipient');
  });

  it('gives the fixed order when several fields fail: paid before promo before recipient', () => {
    expect(creditErrorToast(unprocessable({ recipient: ['r'], promo_credits: ['p'], paid_credits: ['q'] })).title).toBe(CREDITS.paidCredits);
    expect(creditErrorToast(unprocessable({ recipient: ['r'], promo_credits: ['p'] })).title).toBe(CREDITS.promoCredits);
  });

  it('maps any other 422 to Validation Failed', () => {
    const expected = { title: 'Validation Failed', description: 'Please check your input and try again.' };
    expect(creditErrorToast(unprocessable({ credits: ['Admin allocation cannot exceed 10,000 credits'] }))).toEqual(expected);
    expect(creditErrorToast({ statusCode: 422, message: 'The given data was invalid.' })).toEqual(expected);
  });

  it('maps 403 to Unauthorized', () => {
    expect(creditErrorToast({ statusCode: 403, message: 'This action is unauthorized.' })).toEqual({
      title: 'Unauthorized',
      description: "You don't have permission to perform this action.",
    });
  });

  it('falls back to Failed to Add Credits, with the server message when there is one', () => {
    expect(creditErrorToast({ statusCode: 500, message: 'API Error' })).toEqual({ title: 'Failed to Add Credits' });
    expect(creditErrorToast({ statusCode: 404, message: 'Entity Not Found' })).toEqual({ title: 'Failed to Add Credits', description: 'Entity Not Found' });
    expect(creditErrorToast(undefined)).toEqual({ title: 'Failed to Add Credits' });
    expect(creditErrorToast({ statusCode: 0, message: 'Network Error' })).toEqual({ title: 'Failed to Add Credits', description: 'Network Error' });
  });

  it('uses the dialog fallback title for recoveries', () => {
    expect(creditErrorToast({ statusCode: 500, message: 'API Error' }, HIERARCHY_PANEL.recoverFailed)).toEqual({ title: 'Failed to Recover Credits' });
    // The 422 mapping applies to recoveries as well.
    expect(creditErrorToast(unprocessable({ recipient: ['Invalid Recipient'] }), HIERARCHY_PANEL.recoverFailed).title).toBe('Invalid Recipient');
  });
});

describe('firstFieldMessage', () => {
  it('reads arrays, strings and {message} objects', () => {
    expect(firstFieldMessage({ credits: ['a', 'b'] }, 'credits')).toBe('a');
    expect(firstFieldMessage({ credits: 'c' } as HttpError['errors'], 'credits')).toBe('c');
    expect(firstFieldMessage({ credits: { key: 'k', message: 'm' } } as HttpError['errors'], 'credits')).toBe('m');
    expect(firstFieldMessage({}, 'credits')).toBeUndefined();
    expect(firstFieldMessage(undefined, 'credits')).toBeUndefined();
  });
});
