/**
 * The hierarchy as a tool: the caller and every manager, reseller and dealer below it as one tree,
 * each with its balance and the accounts of its branch (live, active, expiring soon), blocked ones
 * marked (docs/domain.md#the-hierarchy-tree).
 */
import { z } from 'zod';
import { EXPIRING_WINDOWS, MAX_BALANCE, ROLES, defineResource, intBetween, plural } from '../core';

export const HIERARCHY_TREE = {
  title: 'Hierarchy',
  loadFailed: 'Failed to load the hierarchy',
  expiringWindow: 'Expiring within',
  search: 'Find a member',
  branch: 'Branch',
  balance: 'Balance',
  accounts: 'Accounts',
  active: 'Active',
  expiring: (days: string) => `Expiring in ${plural(Number(days), 'day')}`,
  window: (days: string) => plural(Number(days), 'day'),
  blocked: 'Blocked',
  blockedWhy: (status: string) => (status === 'active' ? 'A member above is not active' : `Status: ${status}`),
  openAccounts: 'Accounts',
  openExpiring: 'Expiring accounts',
  openTransactions: 'Transactions',
  empty: 'No managers, resellers or dealers below you yet.',
  windowInvalid: `The window must be one of: ${EXPIRING_WINDOWS.join(', ')} days.`,
} as const;

/** The limits a user above sets on a member (docs/domain.md#caps). */
export const CAP_LIMITS = { maxAccounts: 10_000_000, trialsPerDay: 10_000, creditsPerDay: MAX_BALANCE } as const;

export const CAPS = {
  title: 'Limits',
  maxAccounts: 'Maximum live accounts',
  trialsPerDay: 'Trials per day',
  creditsPerDay: 'Credits it may give per day',
  noLimit: 'No limit',
  help: 'Empty means no limit. Days are UTC days.',
  saved: (username: string) => `Limits of ${username} saved.`,
  saveFailed: 'Failed to save the limits',
  /** The refusals: whose limit, and what it allows. */
  accountsReached: (username: string, max: number) => `The branch of ${username} may have at most ${plural(max, 'live account')}.`,
  trialsReached: (username: string, max: number) => `The branch of ${username} may start at most ${plural(max, 'trial')} a day.`,
  creditsReached: (max: number, left: number) => `You may give at most ${plural(max, 'credit')} a day; ${plural(left, 'credit')} left today.`,
  /** The capped user's own view (its dashboard). */
  yours: 'Your limits',
  usage: (used: number, max: number) => `${used} of ${max}`,
} as const;

const optionalCap = (label: string, max: number) => z.preprocess((v) => (v === '' || v === undefined ? null : v), intBetween(label, 0, max).nullable());

export const memberCapsBody = z.object({
  max_accounts: optionalCap(CAPS.maxAccounts, CAP_LIMITS.maxAccounts),
  trials_per_day: optionalCap(CAPS.trialsPerDay, CAP_LIMITS.trialsPerDay),
  credits_per_day: optionalCap(CAPS.creditsPerDay, CAP_LIMITS.creditsPerDay),
});
export type MemberCaps = z.output<typeof memberCapsBody>;

/** A member's limits and what it uses of them now (accounts) and today (trials, credits given). */
export const memberCapsEntity = z.object({
  user_id: z.number(),
  caps: z.object({ max_accounts: z.number().nullable(), trials_per_day: z.number().nullable(), credits_per_day: z.number().nullable() }),
  usage: z.object({ accounts: z.number(), trials_today: z.number(), credits_given_today: z.number() }),
});
export type MemberCapsView = z.infer<typeof memberCapsEntity>;

export const hierarchyTreeQuery = z.object({
  expiring_days: z.enum(EXPIRING_WINDOWS, { error: HIERARCHY_TREE.windowInvalid }).default('7'),
});

/** A member's figures for its whole branch: its own accounts and those of everyone below it. */
export const hierarchyNode = z.object({
  id: z.number(),
  parent_id: z.number().nullable(),
  role: z.enum(ROLES),
  username: z.string(),
  name: z.string(),
  status: z.string(),
  credits: z.number(),
  /** Not active itself, or below a member that is not (its branch is stopped). */
  blocked: z.boolean(),
  accounts: z.number(),
  active_accounts: z.number(),
  expiring_accounts: z.number(),
});
export type HierarchyNode = z.infer<typeof hierarchyNode>;

/** The caller first, then its subtree in path order (a parent before its children). */
export const hierarchyTree = z.object({
  expiring_days: z.enum(EXPIRING_WINDOWS),
  nodes: z.array(hierarchyNode),
});
export type HierarchyTree = z.infer<typeof hierarchyTree>;

export default defineResource({
  name: 'hierarchy',
  label: HIERARCHY_TREE.title,
  // A dealer has no one below it.
  access: { list: ['admin', 'manager', 'reseller'], caps: ['admin', 'manager', 'reseller'] },
  menu: { admin: 'Accounts', manager: 'top', reseller: 'top' },
});
