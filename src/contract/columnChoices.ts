/**
 * The columns a user may hide in the panel's lists. Apart from the preferences' schemas
 * (schemas/preferences.ts), so that the lists, which read them on every page, load without zod.
 */

/**
 * The lists whose columns a user may hide, by list name, and the columns each may hide (every column
 * but the ones that name the row or give its state, and the actions: the panel's hideableColumns of
 * each list's columns, a providers test keeps the two equal). Nothing else is stored.
 */
export const CHOOSABLE_COLUMNS = {
  accounts: ['full_name', 'pwd_txt', 'server.name', 'state', 'created_at'],
  managers: ['server.name', 'total_children', 'total_accounts', 'created_at', 'last_login_at'],
  resellers: ['parent.name', 'password', 'total_children', 'total_accounts', 'created_at'],
  dealers: ['reseller.name', 'manager.name', 'total_accounts', 'created_at', 'last_login_at'],
  transactions: ['coverage_start', 'coverage_end', 'remarks', 'balance_before', 'balance_after', 'manager', 'reseller', 'dealer'],
  'audit-logs': ['module', 'target_username', 'description', 'ip_address'],
} as const satisfies Record<string, readonly string[]>;
export type ChoosableList = keyof typeof CHOOSABLE_COLUMNS;
export const CHOOSABLE_LISTS = Object.keys(CHOOSABLE_COLUMNS) as ChoosableList[];
export const isChoosableList = (name: string): name is ChoosableList => Object.hasOwn(CHOOSABLE_COLUMNS, name);
