/**
 * A user's own preferences (GET and PATCH /profile/preferences), stored per user on the server so
 * they follow the user to another browser. One object, so a new preference is one more field here.
 */
import { z } from 'zod';
import { COLOR_SCHEMES } from '../constants';
import { PREFERENCES } from '../preferenceMessages';
import { CHOOSABLE_COLUMNS, CHOOSABLE_LISTS, type ChoosableList } from '../columnChoices';

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
