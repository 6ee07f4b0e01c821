/**
 * The roles and the role matrix of the resources declared here; with the rows of the resources that
 * declare themselves (src/contract/resources) it is PERMISSIONS (registry.ts), read by the panel's
 * access-control provider and menus and by the API's per-route guard.
 */
export const ROLES = ['admin', 'manager', 'reseller', 'dealer'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** The role a user of each role creates below itself. */
export const CHILD_ROLE: Record<Role, Role | null> = {
  admin: 'manager',
  manager: 'reseller',
  reseller: 'dealer',
  dealer: null,
};

export const PANEL_NAMES: Record<Role, string> = {
  admin: 'ADMIN PANEL',
  manager: 'MANAGER PANEL',
  reseller: 'RESELLER PANEL',
  dealer: 'DEALER PANEL',
};

/** Role badge colour: red for admin, default for manager, muted for others. */
export const ROLE_BADGE_COLOR: Record<Role, string | undefined> = {
  admin: 'red',
  manager: 'default',
  reseller: 'default',
  dealer: 'default',
};

const ALL: readonly Role[] = ROLES;
const ADMIN: readonly Role[] = ['admin'];
const UP_TO_MANAGER: readonly Role[] = ['admin', 'manager'];
const UP_TO_RESELLER: readonly Role[] = ['admin', 'manager', 'reseller'];
const BELOW_ADMIN: readonly Role[] = ['manager', 'reseller', 'dealer'];

/** These actions for admin only: `access: adminOnly(...CRUD)` is a plain admin resource's row. */
export const adminOnly = (...actions: string[]) => Object.fromEntries(actions.map((a) => [a, ADMIN]));
export const CRUD = ['list', 'show', 'create', 'edit', 'delete'];

/** A resource/action pair in no row is allowed to nobody. */
export const PERMISSION_TABLE = {
  dashboard: { list: ALL },
  profile: { list: ALL, edit: ALL },
  /** The caller's own API tokens (a signed-in session only, never a token). */
  'api-tokens': { list: ALL, create: ALL, delete: ALL },
  /** View the panel as a user of one's subtree (docs/security.md#view-as). */
  'view-as': { create: UP_TO_RESELLER },
  managers: {
    ...adminOnly(...CRUD, 'credits', 'transactions', 'status'),
  },
  resellers: {
    list: UP_TO_MANAGER,
    show: UP_TO_MANAGER,
    create: UP_TO_MANAGER,
    edit: UP_TO_MANAGER,
    delete: UP_TO_MANAGER,
    status: UP_TO_MANAGER,
    credits: UP_TO_MANAGER,
    transactions: UP_TO_MANAGER,
  },
  dealers: {
    list: UP_TO_RESELLER,
    show: UP_TO_RESELLER,
    create: UP_TO_RESELLER,
    edit: UP_TO_RESELLER,
    delete: UP_TO_RESELLER,
    status: UP_TO_RESELLER,
    credits: UP_TO_RESELLER,
    transactions: UP_TO_RESELLER,
    promote: UP_TO_MANAGER,
  },
  accounts: {
    list: ALL,
    show: ALL,
    create: ALL,
    edit: ALL,
    delete: ALL,
    status: ALL,
    credits: ALL,
    transactions: ALL,
    message: ALL,
    /** To another owner in the caller's subtree: only a user with members below it. */
    move: UP_TO_RESELLER,
  },
  transactions: { list: ALL },
  'mac-search': { list: ALL, delete: ALL },
  'user-search': { list: ['reseller'] as readonly Role[] },
  tickets: { list: ALL, show: ALL, create: ALL, edit: ALL, reply: ALL, delete: ADMIN },
  'ticket-categories': { ...adminOnly(...CRUD), pick: ALL },
  servers: { ...adminOnly(...CRUD, 'check'), pick: ALL },
  themes: { ...adminOnly(...CRUD, 'status') },
  'user-promos': { ...adminOnly(...CRUD) },
  promos: { ...adminOnly(...CRUD) },
  'global-discounts': { ...adminOnly(...CRUD), pick: ALL },
  announcements: { ...adminOnly(...CRUD, 'status') },
  'user-announcements': { list: BELOW_ADMIN, show: BELOW_ADMIN },
  'audit-logs': { ...adminOnly('list', 'show') },
  'credit-levels': { ...adminOnly('list', 'edit') },
  'credit-options-settings': { ...adminOnly('list', 'edit') },
  'credit-options': { list: ALL },
  settings: { ...adminOnly('list', 'edit') },
  analytics: { ...adminOnly('list') },
} satisfies Record<string, Record<string, readonly Role[]>>;
