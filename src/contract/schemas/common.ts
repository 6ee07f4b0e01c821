import { z } from 'zod';
import { MAX_RECORD_ID } from '../constants';
import { ROLES } from '../roles';
import { FIELD_RULES, GENERAL } from '../messages';

// In the browser, zod validates without compiling code: its compiled fast path (and even the probe
// for it) calls new Function, which the panel's Content-Security-Policy (script-src 'self') refuses.
if (typeof window !== 'undefined') z.config({ jitless: true });

/**
 * Characters no field takes: C0 and C1 controls other than tab, line feed and carriage return (NUL
 * among them, which PostgreSQL cannot store), DEL, and lone UTF-16 surrogates (broken Unicode that no
 * UTF-8 encoder can store faithfully).
 */
const FORBIDDEN_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const hasForbiddenCharacters = (text: string): boolean => FORBIDDEN_CHARACTERS.test(text);

/** A required text field whose every failure (missing, wrong type, blank) reads `message`. */
export const requiredText = (message: string, max = 255) => z.string({ error: message }).trim().min(1, message).max(max, FIELD_RULES.tooLong(max));

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

const INTEGER_TEXT = /^[+-]?\d{1,16}$/;
const DECIMAL_TEXT = /^[+-]?(?:\d{1,16}(?:\.\d{1,16})?|\.\d{1,16})$/;

/**
 * Whole numbers as forms send them: a number stays as it is, text of decimal digits ('12', ' 12 ',
 * '-3') becomes its number, anything else is left for the number schema to refuse. So `true`, '0x10',
 * '1e3', '' and [] are not numbers, as z.coerce.number() would make them (1, 16, 1000, 0, 0).
 */
export const integerInput = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return INTEGER_TEXT.test(text) ? Number(text) : value;
};

/** Like integerInput, with a decimal fraction allowed ('0.25', '12.5'); no exponent, no hex. */
export const decimalInput = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return DECIMAL_TEXT.test(text) ? Number(text) : value;
};

/** An integer that may arrive as a string of decimal digits. */
export const intLike = (message: string = GENERAL.fieldRequired) => z.preprocess(integerInput, z.number({ error: message }).int(message));

/** A record id: a positive integer that fits the id columns (path parameters arrive as text). */
export const recordId = (message: string = GENERAL.invalidId) =>
  z.preprocess(integerInput, z.number({ error: message }).int(message).positive(message).max(MAX_RECORD_ID, message));

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

/**
 * An optional date or date-time ('' and null mean none), as ISO text. A bare date bounds the whole
 * day: as a start it is its first moment, as an end its last.
 */
export const optionalCalendarDate = (edge: 'start' | 'end') =>
  z
    .union([z.string(), z.null()], { error: FIELD_RULES.validDate })
    .optional()
    .transform((value, ctx): string | null => {
      const text = value?.trim();
      if (!text) return null;
      const ms = parseCalendarDate(text, edge);
      if (Number.isNaN(ms)) {
        ctx.addIssue({ code: 'custom', message: FIELD_RULES.validDate });
        return z.NEVER;
      }
      return new Date(ms).toISOString();
    });

/** The meta block of every paginated list (docs/api.md#lists). */
export const listMetaSchema = z.object({
  total: z.number(),
  current_page: z.number(),
  per_page: z.number(),
  last_page: z.number(),
  from: z.number().nullable(),
  to: z.number().nullable(),
  /** False when `total` is a lower bound: the list has more rows than that (EXACT_TOTAL_LIMIT). */
  total_exact: z.boolean(),
});

/** Every 4xx answer: a message and, for 422, the messages of each field. */
export const apiErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

/** A record's id and name where another record points to it (a promo's server). */
export const namedRefEntity = z.object({ id: z.number(), name: z.string() });

/** A user where another record names it (an account's owner, a ledger entry's counterparty). */
export const userRefEntity = z.object({ id: z.number(), name: z.string(), username: z.string(), role: z.enum(ROLES) });

/** `{ data: [...], meta }`: a page of a list. */
export const paginatedOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: listMetaSchema });

/** `{ data }`: one record or one result. */
export const dataOf = <T extends z.ZodType>(data: T) => z.object({ data });

/** `{ message, data }`: a write's answer, with what it wrote. */
export const messageDataOf = <T extends z.ZodType>(data: T) => z.object({ message: z.string(), data });

/** `{ message }` alone. */
export const messageOnly = z.object({ message: z.string() });

/** A 204 answer: no body (OpenAPI shows the status without content). */
export const noContent = z.null().describe('No content.');
