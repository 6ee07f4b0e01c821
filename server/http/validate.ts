/** Validation inside a handler (bodies whose rules depend on the route's key or on stored values). */
import type { z } from 'zod';
import { GENERAL } from '../../src/contract';
import { validationError } from './errors';

/** The parsed value, or a 422 {message, errors} keyed by field like the route-level validation. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // No prototype: a field named 'constructor' or '__proto__' is a key like any other.
  const errors: Record<string, string[]> = Object.create(null);
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.') || 'body';
    (errors[field] ??= []).push(issue.message || GENERAL.validationFailed);
  }
  throw validationError(errors);
}
