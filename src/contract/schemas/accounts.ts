/** Payloads of the end-user account calls, the MAC check and the renewal price lookup. */
import { z } from 'zod';
import { MAX_RECORD_ID, RENEW_MONTHS, USER_STATUSES } from '../constants';
import { normalizeMac } from '../mac';
import { ACCOUNTS, ACCOUNT_MOVES, ENTITY_FORM, FIELD_RULES, HIERARCHY, RENEWAL } from '../messages';
import { integerInput, looseBoolean, namedRefEntity, parseCalendarDate, recordId, requiredText, userRefEntity } from './common';
import type { UserStatus } from './hierarchy';

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
  /** Empty keeps the current password. */
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
    (v) => (v === '' || v === undefined ? null : (blankToUndefined(v) ?? null)),
    z.union([z.null(), z.literal(0), int(MONTHS_MESSAGE, RENEW_MONTHS.min, RENEW_MONTHS.max)], { error: MONTHS_MESSAGE }),
  ),
  auto_renew_end_date: futureDate(ACCOUNTS.autoRenewEndPast),
});
export type AutoRenewBody = z.infer<typeof autoRenewBody>;

const accountIds = z
  .array(
    z.preprocess(
      blankToUndefined,
      z
        .number({ error: ACCOUNTS.accountIdsRequired })
        .int(ACCOUNTS.accountIdsRequired)
        .positive(ACCOUNTS.accountIdsRequired)
        .max(MAX_RECORD_ID, ACCOUNTS.accountIdsRequired),
    ),
    {
      error: ACCOUNTS.accountIdsRequired,
    },
  )
  .min(1, ACCOUNTS.accountIdsRequired)
  .max(BULK_MAX, ACCOUNTS.bulkTooMany(BULK_MAX))
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

export const bulkAccountsBody = z.object({ account_ids: accountIds });
export type BulkAccountsBody = z.infer<typeof bulkAccountsBody>;

/** POST /accounts/move and its preview: the accounts, and the user in the caller's subtree (the caller too) who takes them. */
export const accountMoveBody = z.object({ account_ids: accountIds, to_owner_id: recordId(ACCOUNT_MOVES.newOwnerRequired) });
export type AccountMoveBody = z.infer<typeof accountMoveBody>;

export const accountMovePreviewEntity = z.object({
  to: z.object({ id: z.number(), name: z.string(), username: z.string(), role: z.string() }),
  moving: z.array(z.object({ id: z.number(), login: z.string(), from: z.string() })),
  already_there: z.number(),
  refused: z.array(z.object({ id: z.number(), login: z.string(), reason: z.string() })),
});
export type AccountMovePreview = z.infer<typeof accountMovePreviewEntity>;

export const accountMoveResultEntity = z.object({ moved: z.number(), account_ids: z.array(z.number()) });

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

/** An end-user account. */
export const accountEntity = z.object({
  id: z.number(),
  login: z.string(),
  full_name: z.string(),
  /** The device portal password: plain for reseller and dealer callers, '********' for admin and manager. */
  pwd_txt: z.string(),
  /** Colon-separated uppercase ('00:1A:79:00:00:01'). */
  mac_address: z.string(),
  expiry_date: z.string().nullable(),
  validity_months: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.enum(USER_STATUSES),
  is_active: z.boolean(),
  is_promo: z.boolean(),
  bonus_months: z.number(),
  auto_renew_months: z.number().nullable(),
  auto_renew_end_date: z.string().nullable(),
  /** Set when an automatic renewal failed (insufficient credits); cleared by a renewal or re-enabling. */
  auto_renew_failed_at: z.string().nullable(),
  auto_renew_error: z.string().nullable(),
  server_id: z.number().nullable(),
  server: namedRefEntity.nullable(),
  state: z.enum(ACCOUNT_STATES),
  last_active: z.string().nullable(),
  ip_address: z.string().nullable(),
  connection_status: z.string(),
  is_trial: z.boolean(),
  owner: userRefEntity,
});

/** The price of a renewal of `months` on a server (POST /global-discounts/calculate-credits). */
export const renewalQuoteEntity = z.object({
  server_id: z.number().nullable(),
  months: z.number(),
  credits: z.number(),
  price_per_month: z.number(),
  default_credits: z.number(),
  /** What the months would cost without a discount, and the difference. */
  regular_credits: z.number(),
  savings: z.number(),
  discount_id: z.number().nullable(),
  discount_name: z.string().nullable(),
  /** The discount gives more months than it costs: the account becomes a promo account. */
  is_promo: z.boolean(),
  bonus_months: z.number(),
});

/** The quote as the renewal dialogs read it: what the caller pays and whether its balance covers it. */
export const renewalQuoteAnswerEntity = renewalQuoteEntity.extend({
  /** 0 for admin, who renews without spending credits. */
  payable_credits: z.number(),
  /** The caller's balance (null for admin). */
  user_credits: z.number().nullable(),
  sufficient: z.boolean(),
});

/** What a renewal or recovery did (POST /accounts/{id}/credits, bulk-renew). */
export const renewalResultEntity = z.object({
  account_id: z.number(),
  months: z.number(),
  /** Credits charged (renew) or refunded (recover); 0 for admin. */
  credits: z.number(),
  discount_id: z.number().nullable(),
  coverage_start: z.string(),
  coverage_end: z.string(),
  transaction_number: z.string().nullable(),
});

/** An account write that may move credits: the account, the renewal (if any) and the caller's balance after it. */
export const accountCreditAnswer = z.object({
  message: z.string(),
  data: accountEntity,
  renewal: renewalResultEntity.nullable(),
  /** The caller's balance after the call (null for admin). */
  user_credits: z.number().nullable(),
});

export const accountMessageEntity = z.object({
  id: z.number(),
  account_id: z.number(),
  message: z.string(),
  sender: userRefEntity.nullable(),
  created_at: z.string(),
});

/** GET /accounts/{id}/stb-info: the box behind an account, as its server's middleware (or the panel) knows it. */
export const stbInfoEntity = z.object({
  account_id: z.number(),
  login: z.string(),
  mac_address: z.string(),
  state: z.enum(ACCOUNT_STATES),
  connection_status: z.string(),
  last_active: z.string().nullable(),
  ip_address: z.string().nullable(),
  stb_type: z.string().nullable(),
  serial_number: z.string().nullable(),
  version: z.string().nullable(),
  image_version: z.string().nullable(),
  hw_version: z.string().nullable(),
  device_id: z.string().nullable(),
  server: namedRefEntity.nullable(),
});

/** POST /accounts/bulk-suspend and bulk-activate. */
export const bulkStatusResultEntity = z.object({ updated: z.number(), account_ids: z.array(z.number()) });

/** POST /accounts/bulk-renew: the renewed accounts, each renewal, the credits charged and the caller's balance after. */
export const bulkRenewResultEntity = z.object({
  accounts: z.array(accountEntity),
  renewals: z.array(renewalResultEntity),
  credits: z.number(),
  user_credits: z.number().nullable(),
});

/** POST /accounts/bulk-message. */
export const bulkMessageResultEntity = z.object({ sent: z.number(), account_ids: z.array(z.number()) });

/** GET /mac-search answer: { data: MacSearchResult }. */
export const macSearchResultEntity = z.object({
  mac: z.string(),
  found: z.boolean(),
  /** The MAC exists, but only on accounts outside the caller's subtree (whose is not said). */
  registered_elsewhere: z.boolean(),
  account: accountEntity.nullable(),
  accounts: z.array(accountEntity),
  message: z.string(),
});

/** POST /mac-search/delete: the account removed. */
export const macDeleteResultEntity = z.object({ id: z.number(), login: z.string(), mac_address: z.string() });
