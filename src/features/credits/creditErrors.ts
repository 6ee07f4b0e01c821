/**
 * The one mapping from a failed credit call to the toast the user sees (messages.ts, CREDITS):
 * a 422 is read by the field that carries the error (rate_limit, paid, promo, recipient); a 403 is a permission
 * refusal; anything else falls back to the dialog's failure title with the server's message.
 */
import type { HttpError } from '@refinedev/core';
import { CREDITS } from '../../contract';
import { errorText } from '../../components/feedback';

export interface CreditErrorToast {
  title: string;
  description?: string;
}

/** The first message of a field in a Laravel-style `errors` object. */
export function firstFieldMessage(errors: HttpError['errors'] | undefined, field: string): string | undefined {
  const value = errors?.[field];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'message' in value && typeof value.message === 'string') return value.message;
  return undefined;
}

const FIELD_TITLES: Array<[field: string, title: string]> = [
  ['paid_credits', CREDITS.paidCredits],
  ['promo_credits', CREDITS.promoCredits],
  ['recipient', CREDITS.recipient],
];

/**
 * What to show for a failed add or recover call. `fallbackTitle` is the dialog's own failure title
 * ('Failed to Add Credits' by default).
 */
export function creditErrorToast(error: unknown, fallbackTitle: string = CREDITS.addFailed): CreditErrorToast {
  const e = (error ?? {}) as Partial<HttpError>;
  if (e.statusCode === 422) {
    const errors = e.errors;
    if (errors && 'rate_limit' in errors) return { ...CREDITS.rateLimit };
    for (const [field, title] of FIELD_TITLES) {
      if (errors && field in errors) {
        const detail = firstFieldMessage(errors, field);
        return detail && detail !== title ? { title, description: detail } : { title };
      }
    }
    return { ...CREDITS.validation };
  }
  if (e.statusCode === 403) return { ...CREDITS.unauthorized };
  const message = errorText(e, '');
  return message ? { title: fallbackTitle, description: message } : { title: fallbackTitle };
}
