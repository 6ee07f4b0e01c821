/**
 * A user's own preferences (GET and PATCH /profile/preferences), stored per user on the server so
 * they follow the user to another browser. One object, so a new preference is one more field here.
 */
import { z } from 'zod';
import { COLOR_SCHEMES } from '../constants';
import { PREFERENCES } from '../preferenceMessages';

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

/** One list's hidden columns: only its own choosable columns, each once (so never more than it has). */
const hiddenOf = (list: ChoosableList) => {
  const known = CHOOSABLE_COLUMNS[list];
  // The count first, so a huge list is one message rather than one per name.
  return z
    .array(z.unknown(), { error: PREFERENCES.hiddenColumnsInvalid })
    .refine((names) => names.length <= known.length, PREFERENCES.duplicateColumn)
    .pipe(z.array(z.enum(known, { error: PREFERENCES.unknownColumn(list, known) })).refine((names) => new Set(names).size === names.length, PREFERENCES.duplicateColumn));
};
/** Per list, its hidden columns; a list name not known is refused (its name is not echoed back). */
const hiddenColumns = <T extends z.ZodType>(perList: (list: ChoosableList) => T) =>
  z.strictObject(Object.fromEntries(CHOOSABLE_LISTS.map((list) => [list, perList(list).optional()])) as Record<ChoosableList, z.ZodOptional<T>>, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? PREFERENCES.unknownList(CHOOSABLE_LISTS) : PREFERENCES.hiddenColumnsInvalid),
  });

const colorScheme = z.enum(COLOR_SCHEMES, { error: PREFERENCES.colorSchemeInvalid });

/** What the API answers: every preference, its default where the user chose none. */
export const userPreferences = z.object({
  colorScheme: colorScheme.default('system'),
  /** Per list (by its name), the columns the user hid. */
  hiddenColumns: hiddenColumns(hiddenOf).optional(),
});
export type UserPreferences = z.infer<typeof userPreferences>;

/**
 * A change, as a JSON merge patch (RFC 7396): a field given replaces the stored one, and inside
 * hiddenColumns each list given replaces that list's, null forgetting it; fields not given keep theirs.
 */
export const preferencesPatch = z.object({
  colorScheme: colorScheme.optional(),
  hiddenColumns: hiddenColumns((list) => hiddenOf(list).nullable()).optional(),
});
export type PreferencesPatch = z.infer<typeof preferencesPatch>;
