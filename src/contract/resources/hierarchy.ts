/**
 * The hierarchy as a tool: the caller and every manager, reseller and dealer below it as one tree,
 * each with its balance and the accounts of its branch (live, active, expiring soon), blocked ones
 * marked (docs/domain.md#the-hierarchy-tree).
 */
import { z } from 'zod';
import { EXPIRING_WINDOWS, ROLES, defineResource, plural } from '../core';

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
  access: { list: ['admin', 'manager', 'reseller'] },
  menu: { admin: 'Accounts', manager: 'top', reseller: 'top' },
});
