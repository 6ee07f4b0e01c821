/** Payloads of the end-user account calls, the MAC check and the renewal price lookup (spec 7). */
import { z } from 'zod';
import { MAX_RECORD_ID, RENEW_MONTHS } from '../constants';
import { normalizeMac } from '../mac';
import { ACCOUNTS, ENTITY_FORM, FIELD_RULES, HIERARCHY, RENEWAL } from '../messages';
import { integerInput, looseBoolean, parseCalendarDate, requiredText } from './common';
import { USER_STATUSES, type UserStatus } from './hierarchy';

export const ACCOUNT_STATES = ['online', 'offline'] as const;
export const MONTHS_MESSAGE = RENEWAL.invalidMonths.description;
/** Most accounts one bulk call may touch. */
export const BULK_MAX = 1000;

/** Whole numbers typed into forms often arrive as text ('12'); '' and null mean "not given". */
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : integerInput(value));

const int = (message: string, min: number, max: number) => z.number({ error: message }).int(message).min(min, message).max(max, message);

/** Renewal months: 1 to 50, 'Please enter a value between 1 and 50 months' otherwise. */
export const monthsField = z.preprocess(blankToUndefined, int(MONTHS_MESSAGE, RENEW_MONTHS.min, RENEW_MONTHS.max));
const optionalMonths = z.preprocess(blankToUndefined, int(MONTHS_MESSAGE, RENEW_MONTHS.min, RENEW_MONTHS.max).optional());

const optionalId = (message: string) =>
  z.preprocess(blankToUndefined, z.number({ error: message }).int(message).positive(message).max(MAX_RECORD_ID, message).optional());

/** A MAC address in any common notation, answered as its 12 uppercase hex digits. */
export const macField = (required: string = ENTITY_FORM.macRequired) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(64, ENTITY_FORM.invalidMac)
    .transform((value, ctx) => {
      const mac = normalizeMac(value);
      if (!mac) {
        ctx.addIssue({ code: 'custom', message: ENTITY_FORM.invalidMac });
        return z.NEVER;
      }
      return mac;
    });

/**
 * An optional date that cannot be in the past ('' and null mean none). A bare date means the end
 * of that day (UTC), so today is accepted.
 */
export const futureDate = (pastMessage: string) =>
  z
    .union([z.string(), z.null()], { error: pastMessage })
    .optional()
    .transform((value, ctx): string | null | undefined => {
      if (value === undefined) return undefined;
      const text = value?.trim();
      if (!text) return null;
      const ms = parseCalendarDate(text, 'end');
      if (Number.isNaN(ms)) {
        ctx.addIssue({ code: 'custom', message: FIELD_RULES.validDate });
        return z.NEVER;
      }
      if (ms < Date.now() - 60_000) {
        ctx.addIssue({ code: 'custom', message: pastMessage });
        return z.NEVER;
      }
      return new Date(ms).toISOString();
    });

const login = requiredText(ENTITY_FORM.usernameRequired, 100).refine((v) => v === '' || /^[A-Za-z0-9._@-]+$/.test(v), HIERARCHY.usernameFormat);
const fullName = requiredText(ENTITY_FORM.nameRequired, 255);
const status = z.enum(USER_STATUSES as unknown as [UserStatus, ...UserStatus[]], { error: HIERARCHY.statusInvalid }).optional();

export const accountCreateBody = z
  .object({
    login,
    full_name: fullName,
    password: z.string({ error: ENTITY_FORM.passwordRequiredAccounts }).min(1, ENTITY_FORM.passwordRequiredAccounts).max(255),
    mac_address: macField(),
    server_id: optionalId(HIERARCHY.serverInvalid),
    /** Months bought at creation; none (and no trial) creates an account without an expiry. */
    months: optionalMonths,
    is_trial: looseBoolean.optional().default(false),
    /** Admin only: an expiry set directly, without a purchase. */
    expiry_date: futureDate(ENTITY_FORM.expiryInPast),
    is_active: looseBoolean.optional(),
    status,
  })
  .superRefine((body, ctx) => {
    if (body.is_trial && body.months !== undefined) {
      ctx.addIssue({ code: 'custom', message: ACCOUNTS.trialWithMonths, path: ['months'] });
    }
  });
export type AccountCreateBody = z.infer<typeof accountCreateBody>;

export const accountUpdateBody = z.object({
  login: login.optional(),
  full_name: fullName.optional(),
  /** Empty keeps the current password (spec 5). */
  password: z
    .string()
    .max(255)
    .nullish()
    .transform((v) => (v ? v : null)),
  mac_address: macField().optional(),
  server_id: optionalId(HIERARCHY.serverInvalid),
  expiry_date: futureDate(ENTITY_FORM.expiryInPast),
  is_active: looseBoolean.optional(),
  status,
});
export type AccountUpdateBody = z.infer<typeof accountUpdateBody>;

export const ACCOUNT_CREDIT_ACTIONS = ['renew', 'recover'] as const;

/** POST /accounts/{id}/credits: renew for months, or recover unused months. */
export const accountCreditsBody = z.object({
  action: z.enum(ACCOUNT_CREDIT_ACTIONS, { error: HIERARCHY.actionInvalid }),
  months: monthsField,
});
export type AccountCreditsBody = z.infer<typeof accountCreditsBody>;

/** POST /accounts/{id}/auto-renew: months 1-50 enables, 0 or null disables. */
export const autoRenewBody = z.object({
  months: z.preprocess(
    (v) => (v === '' || v === undefined ? null : blankToUndefined(v) ?? null),
    z.union([z.null(), z.literal(0), int(MONTHS_MESSAGE, RENEW_MONTHS.min, RENEW_MONTHS.max)], { error: MONTHS_MESSAGE }),
  ),
  auto_renew_end_date: futureDate(ACCOUNTS.autoRenewEndPast),
});
export type AutoRenewBody = z.infer<typeof autoRenewBody>;

const accountIds = z
  .array(z.preprocess(blankToUndefined, z.number({ error: ACCOUNTS.accountIdsRequired }).int(ACCOUNTS.accountIdsRequired).positive(ACCOUNTS.accountIdsRequired).max(MAX_RECORD_ID, ACCOUNTS.accountIdsRequired)), {
    error: ACCOUNTS.accountIdsRequired,
  })
  .min(1, ACCOUNTS.accountIdsRequired)
  .max(BULK_MAX, ACCOUNTS.bulkTooMany(BULK_MAX))
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

export const bulkAccountsBody = z.object({ account_ids: accountIds });
export type BulkAccountsBody = z.infer<typeof bulkAccountsBody>;

export const bulkRenewBody = z.object({ account_ids: accountIds, months: monthsField });
export type BulkRenewBody = z.infer<typeof bulkRenewBody>;

/** A message shown on the selected accounts' devices; stored per account. */
export const bulkMessageBody = z.object({ account_ids: accountIds, message: requiredText(ACCOUNTS.messageRequired, 1000) });
export type BulkMessageBody = z.infer<typeof bulkMessageBody>;

/** GET /mac-search?mac=&server_id= */
export const macSearchQuery = z.object({
  mac: macField(ENTITY_FORM.invalidMac),
  server_id: optionalId(HIERARCHY.serverInvalid),
});
export type MacSearchQuery = z.infer<typeof macSearchQuery>;

/** POST /mac-search/delete {mac, server_id} */
export const macDeleteBody = z.object({
  mac: macField(ENTITY_FORM.invalidMac),
  server_id: optionalId(HIERARCHY.serverInvalid),
});
export type MacDeleteBody = z.infer<typeof macDeleteBody>;

/** POST /global-discounts/calculate-credits {server_id, months} */
export const calculateCreditsBody = z.object({
  server_id: optionalId(HIERARCHY.serverInvalid),
  months: monthsField,
});
export type CalculateCreditsBody = z.infer<typeof calculateCreditsBody>;
