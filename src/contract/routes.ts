/**
 * The product's route and menu table as data, read by the panel (menus, labels) and by the tests
 * (every route against the role matrix, every menu): each route, the roles it must allow and the
 * [resource, action] of the role matrix that guards it; each role's menu as resource names; each
 * resource's label. A resource that declares itself (src/contract/resources) adds its row, label and
 * menu links from its entry (registry.ts composes ROUTES, MENUS and RESOURCE_LABELS).
 */
import { ACCOUNT_SCREEN, CONFIG_SCREENS } from './messages';
import type { ResourceName } from './registry';
import { ROLES, type Role } from './roles';

export type Allowed = 'public' | readonly Role[];

export interface RouteSpec {
  /** The path as the route table writes it ({id} for a parameter). */
  path: string;
  /** A concrete URL for it. */
  example: string;
  /** Roles the required table allows ('signed-in' and 'any signed-in role' are the four roles). */
  spec: Allowed;
  /** The [resource, action] of the role matrix that guards the route; null: only signed-in. */
  access: readonly [ResourceName, string] | null;
  /** Roles the role matrix allows when it deliberately differs from the required table. */
  contract?: readonly Role[];
  /** Why it differs. */
  why?: string;
  /** Open to a signed-in user of an unknown role (only Dashboard and MAC Check, docs/domain.md#roles). */
  unknownRole?: boolean;
}

const SIGNED_IN: readonly Role[] = ROLES;
const ADMIN: readonly Role[] = ['admin'];

export const ROUTE_TABLE: RouteSpec[] = [
  { path: '/', example: '/', spec: SIGNED_IN, access: ['dashboard', 'list'], unknownRole: true },
  { path: '/login', example: '/login', spec: 'public', access: null },
  { path: '/unauthorized', example: '/unauthorized', spec: 'public', access: null },
  { path: '/dashboard', example: '/dashboard', spec: SIGNED_IN, access: ['dashboard', 'list'], unknownRole: true },
  { path: '/profile', example: '/profile', spec: SIGNED_IN, access: ['profile', 'list'] },
  { path: '/user/transactions', example: '/user/transactions?userId=3', spec: SIGNED_IN, access: ['transactions', 'list'] },
  { path: '/managers', example: '/managers', spec: ADMIN, access: ['managers', 'list'] },
  { path: '/managers/create', example: '/managers/create', spec: ADMIN, access: ['managers', 'create'] },
  { path: '/managers/edit/{id}', example: '/managers/edit/5', spec: ADMIN, access: ['managers', 'edit'] },
  { path: '/managers/{id}/transactions', example: '/managers/5/transactions', spec: ADMIN, access: ['managers', 'transactions'] },
  { path: '/resellers', example: '/resellers', spec: ['admin', 'manager'], access: ['resellers', 'list'] },
  { path: '/resellers/{id}/transactions', example: '/resellers/6/transactions', spec: ['admin', 'manager'], access: ['resellers', 'transactions'] },
  { path: '/mac-search', example: '/mac-search', spec: SIGNED_IN, access: ['mac-search', 'list'], unknownRole: true },
  { path: '/settings', example: '/settings', spec: ADMIN, access: ['settings', 'list'] },
  { path: '/credit-options-settings', example: '/credit-options-settings', spec: ADMIN, access: ['credit-options-settings', 'list'] },
  { path: '/users', example: '/users', spec: SIGNED_IN, access: ['accounts', 'list'] },
  { path: '/accounts', example: '/accounts', spec: SIGNED_IN, access: ['accounts', 'list'] },
  { path: '/user-search', example: '/user-search', spec: ['reseller'], access: ['user-search', 'list'] },
  {
    path: '/dealers',
    example: '/dealers',
    spec: SIGNED_IN,
    access: ['dealers', 'list'],
    contract: ['admin', 'manager', 'reseller'],
    why: 'contract: a dealer has no dealers below it (the dealer role is given only users, transactions, tickets, MAC check, announcements; its menu has no /dealers)',
  },
  {
    path: '/dealers/edit/{id}',
    example: '/dealers/edit/9',
    spec: SIGNED_IN,
    access: ['dealers', 'edit'],
    contract: ['admin', 'manager', 'reseller'],
    why: 'contract: only the dealer hierarchy above a dealer edits it',
  },
  {
    path: '/dealers/{id}/transactions',
    example: '/dealers/9/transactions',
    spec: ['admin', 'manager', 'reseller'],
    access: ['dealers', 'transactions'],
  },
  { path: '/tickets', example: '/tickets', spec: SIGNED_IN, access: ['tickets', 'list'] },
  { path: '/ticket-categories', example: '/ticket-categories', spec: ADMIN, access: ['ticket-categories', 'list'] },
  { path: '/transactions', example: '/transactions', spec: SIGNED_IN, access: ['transactions', 'list'] },
  { path: '/statements/{id}', example: '/statements/3', spec: SIGNED_IN, access: ['transactions', 'list'] },
  { path: '/servers', example: '/servers', spec: ADMIN, access: ['servers', 'list'] },
  { path: '/themes', example: '/themes', spec: ADMIN, access: ['themes', 'list'] },
  { path: '/user-promos', example: '/user-promos', spec: ADMIN, access: ['user-promos', 'list'] },
  { path: '/analytics', example: '/analytics', spec: ADMIN, access: ['analytics', 'list'] },
  { path: '/promos', example: '/promos', spec: ADMIN, access: ['promos', 'list'] },
  { path: '/global-discounts', example: '/global-discounts', spec: ADMIN, access: ['global-discounts', 'list'] },
  { path: '/announcements', example: '/announcements', spec: ADMIN, access: ['announcements', 'list'] },
  { path: '/user-announcements', example: '/user-announcements', spec: ['manager', 'reseller', 'dealer'], access: ['user-announcements', 'list'] },
  { path: '/audit-logs', example: '/audit-logs', spec: ADMIN, access: ['audit-logs', 'list'] },
  { path: '/credit-levels', example: '/credit-levels', spec: ADMIN, access: ['credit-levels', 'list'] },
];

/** A menu names resources in order; a group names its label and the resources under it. */
export type MenuSpec = Array<ResourceName | { group: string; children: ResourceName[] }>;

/** The menu of each role in its order and grouping (docs/domain.md#routes-and-menus). */
export const MENU_TABLE: Record<Role, MenuSpec> = {
  admin: [
    'dashboard',
    { group: 'Accounts', children: ['managers', 'resellers', 'dealers', 'accounts'] },
    'transactions',
    'mac-search',
    { group: 'Tickets', children: ['tickets', 'ticket-categories'] },
    { group: 'Settings', children: ['global-discounts', 'user-promos', 'themes', 'announcements', 'servers', 'settings'] },
  ],
  manager: ['dashboard', 'user-announcements', 'resellers', 'dealers', 'accounts', 'transactions', 'tickets', 'mac-search'],
  reseller: ['dashboard', 'user-announcements', 'dealers', 'accounts', 'mac-search', { group: 'Search', children: ['user-search'] }, 'transactions', 'tickets'],
  dealer: ['dashboard', 'user-announcements', 'accounts', 'transactions', 'tickets', 'mac-search'],
};

/** A signed-in user of an unknown role: only Dashboard and MAC Check (docs/domain.md#roles). */
export const UNKNOWN_ROLE_MENU: MenuSpec = ['dashboard', 'mac-search'];

/** What each resource is called in the menus and as its pages' title. */
export const LABEL_TABLE: Partial<Record<ResourceName, string>> = {
  dashboard: 'Dashboard',
  profile: 'Profile',
  managers: 'Managers',
  resellers: 'Resellers',
  dealers: 'Dealers',
  accounts: ACCOUNT_SCREEN.title,
  transactions: 'Transactions',
  'mac-search': ACCOUNT_SCREEN.macCheck,
  'user-search': ACCOUNT_SCREEN.userSearch,
  tickets: 'Tickets',
  'ticket-categories': 'Ticket Categories',
  'global-discounts': 'User Promo',
  'user-promos': 'Dealer Promo',
  themes: 'Themes',
  announcements: 'Announcements',
  'user-announcements': 'Announcements',
  servers: 'Servers',
  settings: 'System Settings',
  'credit-levels': 'Credit Levels',
  'credit-options-settings': CONFIG_SCREENS.creditOptionsTitle,
  'audit-logs': 'Audit Logs',
  analytics: 'Analytics',
};
