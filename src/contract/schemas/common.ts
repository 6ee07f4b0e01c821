import { z } from 'zod';
import { MAX_RECORD_ID } from '../constants';
import { GENERAL } from '../messages';

/** A required text field whose every failure (missing, wrong type, blank) reads `message`. */
export const requiredText = (message: string, max = 255) =>
  z.string({ error: message }).trim().min(1, message).max(max);

export const optionalText = (max = 1000) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v === '' ? null : (v ?? null)));

/** Accepts true/false, 1/0 and "true"/"false"/"1"/"0" (query strings and form posts send text). */
export const looseBoolean = z.union([
  z.boolean(),
  z.literal(1).transform(() => true),
  z.literal(0).transform(() => false),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
]);

/** An integer that may arrive as a numeric string. */
export const intLike = (message: string = GENERAL.fieldRequired) =>
  z.coerce.number({ error: message }).int(message);

/** A record id: a positive integer that fits the id columns. */
export const recordId = (message: string = GENERAL.invalidId) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(MAX_RECORD_ID, message);

export const idParam = z.object({ id: recordId() });
export type IdParam = z.infer<typeof idParam>;

/** Optional ISO date or date-time; empty string means none. */
export const optionalDate = z
  .union([z.iso.datetime({ offset: true }), z.iso.date(), z.literal(''), z.null()])
  .optional()
  .transform((v) => (v ? new Date(v).toISOString() : null));
