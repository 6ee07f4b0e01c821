/**
 * The product's required route table as data: each route, the roles it must allow, the contract
 * permission that guards it, and the roles the contract allows where it deliberately differs.
 */
import { ROLES, type Role } from '../../src/contract';

export type Allowed = 'public' | readonly Role[];

export interface SpecRoute {
  /** The path as the route table writes it ({id} for a parameter). */
  path: string;
  /** A concrete URL for it. */
  example: string;
  /** Roles the required table allows ('signed-in' and 'any signed-in role' are the four roles). */
  spec: Allowed;
  /** The [resource, action] of src/contract/roles.ts that guards the route; null: only signed-in. */
  access: readonly [string, string] | null;
  /** Roles the contract allows when it deliberately differs from the required table. */
  contract?: readonly Role[];
  /** Why it differs. */
  why?: string;
  /** Open to a signed-in user of an unknown role (only Dashboard and MAC Check, docs/domain.md#roles). */
  unknownRole?: boolean;
}

const SIGNED_IN: readonly Role[] = ROLES;
const ADMIN: readonly Role[] = ['admin'];

export const SPEC_ROUTES: SpecRoute[] = [
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

/** The roles that may open a route by the contract: the required ones, or the deliberate difference. */
export const contractRoles = (route: SpecRoute): 'public' | readonly Role[] => route.contract ?? route.spec;

/** '/managers/edit/:id' -> '/managers/edit/{id}' (React Router to the route table's notation). */
export const specPath = (routerPath: string): string => routerPath.replace(/:([A-Za-z_]+)/g, '{$1}');

export const routeFor = (path: string): SpecRoute | undefined => SPEC_ROUTES.find((r) => r.path === specPath(path));

export const UNKNOWN_ROLE = 'superuser';
