/** Field types of the admin configuration forms: bounded numbers, switches and integer lists. */
import { z } from 'zod';
import { MAX_RECORD_ID } from '../constants';
import { decimalInput } from './common';
import { FIELD_RULES } from '../messages';
import { withMeta } from './fieldMeta';

/**
 * Numbers typed into forms often arrive as text: '12' is 12 and '0.5' is 0.5; '', 'abc', '0x10' and
 * '1e3' are not numbers.
 */
const numeric = decimalInput;

/**
 * An integer within [min, max]; every failure (missing, wrong type, out of range) reads `message`,
 * except above `max` when `maxMessage` is given. The default max fits a 32-bit integer column.
 */
export const boundedInt = (message: string, min: number, max: number = MAX_RECORD_ID, maxMessage: string = message) =>
  withMeta(
    z.preprocess(
      numeric,
      // One check, so one message per field even when several rules fail.
      z.number({ error: message }).superRefine((n, ctx) => {
        if (!Number.isInteger(n) || n < min) ctx.addIssue({ code: 'custom', message });
        else if (n > max) ctx.addIssue({ code: 'custom', message: maxMessage });
      }),
    ),
    { min, max },
  );

/** A labelled integer within [min, max]: its message, its bounds and its label from one statement. */
export const intBetween = (label: string, min: number, max: number) => withMeta(boundedInt(FIELD_RULES.between(label, min, max), min, max), { label, min, max });

/** A number within [min, max]; every failure reads `message`. */
export const boundedNumber = (message: string, min: number, max: number) =>
  withMeta(
    z.preprocess(
      numeric,
      z.number({ error: message }).refine((n) => n >= min && n <= max, message),
    ),
    { min, max },
  );

/** true/false, 1/0 or their text forms; anything else reads `message`. */
export const switchField = (message: string) =>
  z.preprocess(
    (value) => {
      if (value === 1 || value === '1' || value === 'true') return true;
      if (value === 0 || value === '0' || value === 'false') return false;
      return value;
    },
    z.boolean({ error: message }),
  );

/**
 * A list of integers within [min, max], sent as an array or as comma-separated text ('10, 25, 50');
 * answered ascending without duplicates. Errors name the field, not an item of it.
 */
export const intList = (message: string, min: number, max: number) =>
  z.unknown().transform((value, ctx): number[] => {
    const items =
      typeof value === 'string' ? (value.trim() === '' ? [] : value.split(',').map((part) => numeric(part.trim()))) : Array.isArray(value) ? value.map(numeric) : null;
    const valid = items !== null && items.length <= 100 && items.every((n) => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max);
    if (!valid) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return [...new Set(items as number[])].sort((a, b) => a - b);
  });
