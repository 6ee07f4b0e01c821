import { z } from 'zod';
import { MAX_RECORD_ID } from '../constants';
import { FIELD_RULES, GENERAL } from '../messages';

/** A required text field whose every failure (missing, wrong type, blank) reads `message`. */
export const requiredText = (message: string, max = 255) =>
  z.string({ error: message }).trim().min(1, message).max(max, FIELD_RULES.tooLong(max));

export const optionalText = (max = 1000) =>
  z
    .string()
    .trim()
    .max(max, FIELD_RULES.tooLong(max))
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

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/** Date.parse rolls impossible dates over ('2099-02-30' becomes March 2nd): the day and time must exist. */
function onCalendar(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return false;
  return Number(m[4] ?? 0) <= 23 && Number(m[5] ?? 0) <= 59 && Number(m[6] ?? 0) <= 59;
}

/**
 * A date ('YYYY-MM-DD', taken as the start or the end of that UTC day) or a date-time, as epoch
 * milliseconds; NaN when the text is not a real calendar date.
 */
export function parseCalendarDate(text: string, bareDateIs: 'start' | 'end'): number {
  if (!onCalendar(text)) return Number.NaN;
  if (DATE_ONLY.test(text)) return Date.parse(`${text}T${bareDateIs === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`);
  return DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
}

/** The meta block of every paginated list (spec 7). */
export const listMetaSchema = z.object({
  total: z.number(),
  current_page: z.number(),
  per_page: z.number(),
  last_page: z.number(),
  from: z.number().nullable(),
  to: z.number().nullable(),
});

/** Every 4xx answer: a message and, for 422, the messages of each field. */
export const apiErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

/** A record's id and name where another record points to it (a promo's server). */
export const namedRefEntity = z.object({ id: z.number(), name: z.string() });
