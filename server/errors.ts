/**
 * The refusals domain code raises. Each names its kind; the HTTP layer (server/http/errors.ts) answers
 * a kind with its status, the message as it is and, for an invalid request, the messages per field
 * (docs/api.md). Domain code throws these and never imports the HTTP layer.
 */
import { ACCESS, AUTH, GENERAL } from '../src/contract';

export type DomainErrorKind = 'bad_request' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'invalid' | 'too_many_requests' | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Messages per field (an invalid request). */
    readonly errors?: Record<string, string[]>,
    /** Seconds after which a retry may succeed (a rate limit, a server refused for now). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** The summary line of field messages: the first message, and how many more there are. */
export function fieldSummary(errors: Record<string, string[]>): string {
  const all = Object.values(errors).flat();
  if (all.length === 0) return GENERAL.validationFailed;
  const more = all.length - 1;
  return more > 0 ? `${all[0]} (and ${more} more error${more > 1 ? 's' : ''})` : all[0];
}

export const validationError = (errors: Record<string, string | string[]>): DomainError => {
  const normalised = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
  return new DomainError('invalid', fieldSummary(normalised), normalised);
};
export const fieldError = (field: string, message: string) => validationError({ [field]: message });
export const notFound = (message: string = ACCESS.notFoundEntity) => new DomainError('not_found', message);
export const forbidden = (message: string = ACCESS.forbidden) => new DomainError('forbidden', message);
export const unauthenticated = (message: string = AUTH.unauthenticated) => new DomainError('unauthenticated', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const badRequest = (message: string) => new DomainError('bad_request', message);
export const tooManyRequests = (message: string, retryAfter: number) => new DomainError('too_many_requests', message, undefined, retryAfter);
export const unavailable = (message: string, retryAfter?: number) => new DomainError('unavailable', message, undefined, retryAfter);
