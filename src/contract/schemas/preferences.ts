/**
 * A user's own preferences (GET and PATCH /profile/preferences), stored per user on the server so
 * they follow the user to another browser. One object, so a new preference is one more field here.
 */
import { z } from 'zod';
import { COLOR_SCHEMES } from '../constants';
import { PREFERENCES } from '../preferenceMessages';
import { hasForbiddenCharacters } from './common';

/** Bounds that keep one user's stored preferences small. */
export const PREFERENCE_LIMITS = { lists: 50, columns: 100, name: 64 } as const;

const name = z
  .string({ error: PREFERENCES.hiddenColumnsInvalid })
  .min(1, PREFERENCES.hiddenColumnsInvalid)
  .max(PREFERENCE_LIMITS.name, PREFERENCES.hiddenColumnsInvalid)
  .refine((v) => !hasForbiddenCharacters(v), PREFERENCES.hiddenColumnsInvalid);
const columnNames = z.array(name, { error: PREFERENCES.hiddenColumnsInvalid }).max(PREFERENCE_LIMITS.columns, PREFERENCES.hiddenColumnsInvalid);
const tooManyLists = (lists: object) => Object.keys(lists).length <= PREFERENCE_LIMITS.lists;

const colorScheme = z.enum(COLOR_SCHEMES, { error: PREFERENCES.colorSchemeInvalid });

/** What the API answers: every preference, its default where the user chose none. */
export const userPreferences = z.object({
  colorScheme: colorScheme.default('system'),
  /** Per list (by its name), the columns the user hid. */
  hiddenColumns: z
    .record(name, columnNames, { error: PREFERENCES.hiddenColumnsInvalid })
    .refine(tooManyLists, PREFERENCES.tooManyLists(PREFERENCE_LIMITS.lists))
    .optional(),
});
export type UserPreferences = z.infer<typeof userPreferences>;

/**
 * A change, as a JSON merge patch (RFC 7396): a field given replaces the stored one, and inside
 * hiddenColumns each list given replaces that list's, null forgetting it; fields not given keep theirs.
 */
export const preferencesPatch = z.object({
  colorScheme: colorScheme.optional(),
  hiddenColumns: z
    .record(name, columnNames.nullable(), { error: PREFERENCES.hiddenColumnsInvalid })
    .refine(tooManyLists, PREFERENCES.tooManyLists(PREFERENCE_LIMITS.lists))
    .optional(),
});
export type PreferencesPatch = z.infer<typeof preferencesPatch>;
