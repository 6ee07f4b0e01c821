/**
 * Payloads of the managers, resellers and dealers calls. One builder per payload,
 * parameterised by the level's messages, so the three levels share their rules.
 */
import { z } from 'zod';
import { MANAGER_ALLOCATION_MAX, MAX_RECORD_ID, PASSWORD_MIN_LENGTH, USER_STATUSES } from '../constants';
import { CREDITS, ENTITY_FORM, HIERARCHY } from '../messages';
import { integerInput, looseBoolean, namedRefEntity, requiredText, userRefEntity } from './common';
import { ROLES } from '../roles';

export type UserStatus = (typeof USER_STATUSES)[number];

/** An optional id picked in a form: empty string and null mean none. */
const optionalId = (message: string) =>
  z.preprocess((v) => (v === '' ? null : integerInput(v)), z.number({ error: message }).int(message).positive(message).max(MAX_RECORD_ID, message).nullish());

/** Initial credits; `cap` replaces the general upper bound with a level's own limit and message. */
const credits = (message: string, cap?: { max: number; message: string }) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : integerInput(v)),
    z
      .number({ error: message })
      .int(message)
      .min(0, message)
      .max(cap?.max ?? 1_000_000, cap?.message ?? message)
      .default(0),
  );

const newPassword = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .max(1000)
    .refine((v) => v.length >= PASSWORD_MIN_LENGTH, HIERARCHY.passwordTooShort);

/** Empty keeps the current password. */
const editPassword = z
  .string()
  .max(1000)
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || v.length >= PASSWORD_MIN_LENGTH, HIERARCHY.passwordTooShort);

const username = z
  .string({ error: ENTITY_FORM.usernameRequired })
  .trim()
  .min(1, ENTITY_FORM.usernameRequired)
  .max(100)
  .refine((v) => /^[A-Za-z0-9._@-]+$/.test(v), HIERARCHY.usernameFormat);

const status = (allowed: readonly UserStatus[]) => z.enum(allowed as [UserStatus, ...UserStatus[]], { error: HIERARCHY.statusInvalid }).optional();

interface LevelMessages {
  name: string;
  password: string;
  credits: string;
  /** The most initial credits a new user of this level may get, when below the general bound. */
  creditsCap?: { max: number; message: string };
  statuses: readonly UserStatus[];
}

const LEVELS = {
  manager: {
    name: ENTITY_FORM.managerNameRequired,
    password: ENTITY_FORM.passwordRequiredManagers,
    credits: ENTITY_FORM.creditsPositive,
    // Admin mints a new manager's initial credits: the admin allocation cap of Add Credits.
    creditsCap: { max: MANAGER_ALLOCATION_MAX, message: CREDITS.adminAllocationCap },
    // Suspended is not offered for managers (docs/domain.md#account-status).
    statuses: ['active', 'inactive'],
  },
  reseller: {
    name: ENTITY_FORM.nameRequired,
    password: ENTITY_FORM.passwordRequiredResellers,
    credits: ENTITY_FORM.creditsPositive,
    statuses: USER_STATUSES,
  },
  dealer: {
    name: ENTITY_FORM.nameRequired,
    password: ENTITY_FORM.passwordRequiredAccounts,
    credits: ENTITY_FORM.creditsPositive,
    statuses: USER_STATUSES,
  },
} satisfies Record<string, LevelMessages>;

const baseCreate = (m: LevelMessages) => ({
  name: requiredText(m.name),
  username,
  password: newPassword(m.password),
  credits: credits(m.credits, m.creditsCap),
  is_active: looseBoolean.default(true),
  status: status(m.statuses),
  phone: z.string().trim().max(32).nullish(),
});

const baseUpdate = (m: LevelMessages) => ({
  name: requiredText(m.name).optional(),
  username: username.optional(),
  password: editPassword,
  is_active: looseBoolean.optional(),
  status: status(m.statuses),
  phone: z.string().trim().max(32).nullish(),
});

export const managerCreateBody = z.object({
  ...baseCreate(LEVELS.manager),
  server_id: optionalId(HIERARCHY.serverInvalid),
});
export const managerUpdateBody = z.object({
  ...baseUpdate(LEVELS.manager),
  server_id: optionalId(HIERARCHY.serverInvalid),
});

export const resellerCreateBody = z.object({
  ...baseCreate(LEVELS.reseller),
  /** Admin only: the manager to put the reseller under. */
  manager: optionalId(HIERARCHY.managerInvalid),
});
export const resellerUpdateBody = z.object({
  ...baseUpdate(LEVELS.reseller),
  /** Admin only: moving a reseller moves its whole subtree. */
  manager: optionalId(HIERARCHY.managerInvalid),
});

export const dealerCreateBody = z.object({
  ...baseCreate(LEVELS.dealer),
  /** The reseller to put the dealer under (a reseller creating one: itself). */
  reseller: optionalId(HIERARCHY.resellerInvalid),
});
export const dealerUpdateBody = z.object({ ...baseUpdate(LEVELS.dealer) });

export type ManagerCreateBody = z.infer<typeof managerCreateBody>;
export type ManagerUpdateBody = z.infer<typeof managerUpdateBody>;
export type ResellerCreateBody = z.infer<typeof resellerCreateBody>;
export type ResellerUpdateBody = z.infer<typeof resellerUpdateBody>;
export type DealerCreateBody = z.infer<typeof dealerCreateBody>;
export type DealerUpdateBody = z.infer<typeof dealerUpdateBody>;

/** PATCH {is_active} (or an explicit status) for the Activate/Deactivate toggle and bulk Suspend/Activate. */
export const userStatusBody = z
  .object({ is_active: looseBoolean.optional(), status: status(USER_STATUSES) })
  .refine((b) => b.is_active !== undefined || b.status !== undefined, {
    message: HIERARCHY.statusRequired,
    path: ['is_active'],
  });
export type UserStatusBody = z.infer<typeof userStatusBody>;

export const promoteDealerBody = z.object({
  manager_id: z.preprocess(
    integerInput,
    z.number({ error: HIERARCHY.managerRequired }).int(HIERARCHY.managerInvalid).positive(HIERARCHY.managerInvalid).max(MAX_RECORD_ID, HIERARCHY.managerInvalid),
  ),
});
export type PromoteDealerBody = z.infer<typeof promoteDealerBody>;

/** A manager, reseller or dealer as the API shows it. Panel users' passwords are never returned. */
/** A user above another whose status stops the other's branch. */
export const branchBlockerEntity = z.object({ id: z.number(), username: z.string(), role: z.enum(ROLES), status: z.string() });

export const hierarchyUserEntity = z.object({
  id: z.number(),
  name: z.string(),
  username: z.string(),
  phone: z.string().nullable(),
  role: z.enum(ROLES),
  /** Total balance (paid plus bonus). */
  credits: z.number(),
  bonus_credits: z.number(),
  paid_credits: z.number(),
  is_active: z.boolean(),
  /** Signs in with a second factor (a parent may reset it). */
  two_factor: z.boolean(),
  /** The last successful sign-in and its address; null: never. */
  last_login_at: z.string().nullable(),
  last_login_ip: z.string().nullable(),
  status: z.enum(USER_STATUSES),
  /** The server of the branch: a manager's own, else its manager's. */
  server_id: z.number().nullable(),
  server: namedRefEntity.nullable(),
  parent_id: z.number().nullable(),
  /** The user it sits under: a reseller's manager, a dealer's reseller (null for a manager). */
  parent: namedRefEntity.nullable(),
  manager: namedRefEntity.nullable(),
  reseller: namedRefEntity.nullable(),
  /** Direct children: resellers of a manager, dealers of a reseller. */
  total_children: z.number(),
  /** End-user accounts anywhere in its subtree. */
  total_accounts: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * The topmost user above that is not active, which stops this user's branch (no sign-in, no
   * credit operation) until it is active again; null (or absent) when the branch is active.
   */
  blocked_by: branchBlockerEntity.nullable().optional(),
});

export const LEDGER_ENTRY_TYPES = ['PURCHASED', 'USED', 'RECOVERED', 'TRIAL'] as const;

/** One ledger entry a credit move posted. */
export const postedEntryEntity = z.object({
  id: z.number(),
  transaction_number: z.string(),
  user_id: z.number(),
  type: z.enum(LEDGER_ENTRY_TYPES),
  credits: z.number(),
  bonus_credits: z.number(),
  balance_before: z.number(),
  balance_after: z.number(),
});

/** POST .../credits answer: { message, data: CreditMoveResult }. */
export const creditMoveResultEntity = z.object({
  user: hierarchyUserEntity,
  /** The caller's balance after the move (null for admin). */
  actor_credits: z.number().nullable(),
  credits: z.number(),
  bonus_credits: z.number(),
  transactions: z.array(postedEntryEntity),
});

/** GET /dealers/{id}/credits/recovery-history rows: allocations the dealer received. */
export const recoveryHistoryItemEntity = z.object({
  id: z.number(),
  transaction_number: z.string(),
  credits: z.number(),
  date: z.string(),
  remarks: z.string().nullable(),
  from: userRefEntity.nullable(),
  /** True once all of it was taken back (by recover-from-history or by normal recoveries). */
  recovered: z.boolean(),
  /** When credits were last taken back from it (null when none were). */
  recovered_at: z.string().nullable(),
  /** Taken back from it so far. */
  recovered_credits: z.number(),
  /** What recover-from-history would take now: what is left of it, at most the paid balance. */
  recoverable_credits: z.number(),
});

/** One ledger entry as the transaction lists show it (docs/domain.md#transactions). */
export const transactionEntryEntity = z.object({
  id: z.number(),
  transaction_number: z.string(),
  type: z.enum(LEDGER_ENTRY_TYPES),
  credits: z.number(),
  bonus_credits: z.number(),
  account: z.string().nullable(),
  account_id: z.number().nullable(),
  coverage_start: z.string().nullable(),
  coverage_end: z.string().nullable(),
  remarks: z.string().nullable(),
  date: z.string(),
  created_at: z.string(),
  balance_before: z.number(),
  balance_after: z.number(),
  user: userRefEntity,
  counterparty: userRefEntity.nullable(),
  manager: namedRefEntity.nullable(),
  reseller: namedRefEntity.nullable(),
  dealer: namedRefEntity.nullable(),
});
