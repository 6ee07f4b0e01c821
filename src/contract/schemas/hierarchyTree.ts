/** The hierarchy tree and members' caps on the wire (src/contract/resources/hierarchy.ts; docs/domain.md#caps). */
import { z } from 'zod';
import { EXPIRING_WINDOWS, MAX_BALANCE } from '../constants';
import { CAPS, HIERARCHY_TREE } from '../messages';
import { ROLES } from '../roles';
import { intBetween } from './configFields';

/** The largest limits one may set. */
export const CAP_LIMITS = { maxAccounts: 10_000_000, trialsPerDay: 10_000, creditsPerDay: MAX_BALANCE } as const;

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
