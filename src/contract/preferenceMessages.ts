/**
 * The messages of the signed-in user's own preferences (GET/PATCH /profile/preferences) and their
 * screen. A module apart from messages.ts: that one is part of the panel's first load, and these are
 * read only by the profile page (a lazily loaded chunk) and the API.
 */
export const PREFERENCES = {
  colorSchemeInvalid: 'Colour scheme must be system, light or dark',
  hiddenColumnsInvalid: 'Hidden columns must be lists of column names, each under the name of its list',
  unknownList: (lists: readonly string[]) => `Columns can be hidden only in these lists: ${lists.join(', ')}`,
  unknownColumn: (list: string, columns: readonly string[]) => `Not a column that can be hidden in ${list}: choose from ${columns.join(', ')}`,
  duplicateColumn: 'Each column can be hidden once',
  /** The colour scheme's choices, as the profile and the user menu name them. */
  colorSchemes: { system: 'System', light: 'Light', dark: 'Dark' },
  colorScheme: 'Colour scheme',
  colorSchemeHelp: "System follows your device's light or dark setting, unless the site's theme is dark.",
  appearance: 'Appearance',
  saved: 'Preferences saved.',
  saveFailed: { title: 'Save Failed', description: 'Failed to save your preferences' },
} as const;
