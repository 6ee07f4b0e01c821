/** The user's colour scheme and how to change it: shown at once, saved on the server, taken back with a toast if refused. */
import type { AxiosInstance } from 'axios';
import { type ColorScheme, PREFERENCES, type PreferencesPatch } from '../../contract';
import { colorScheme, useColorSchemeChoice } from '../../providers/colorScheme';
import { http as panelHttp } from '../../providers/http';
import { useNotify } from '../feedback/notify';

/**
 * Saves a choice on the server (PATCH /profile/preferences) after showing it; a refusal takes it back
 * and rejects like the request. Here rather than beside the scheme's state, which the first load
 * carries: only the profile page changes the scheme.
 */
export async function saveColorScheme(next: ColorScheme, http: AxiosInstance = panelHttp): Promise<void> {
  const previous = colorScheme.choice();
  colorScheme.choose(next);
  try {
    await http.patch('profile/preferences', { colorScheme: next } satisfies PreferencesPatch);
  } catch (error) {
    if (colorScheme.choice() === next) colorScheme.choose(previous);
    throw error;
  }
}

export function useColorSchemeSetting() {
  const choice = useColorSchemeChoice();
  const notify = useNotify();
  const choose = (next: ColorScheme) =>
    next === choice
      ? Promise.resolve()
      : saveColorScheme(next).catch((error: unknown) => notify.httpError(error, PREFERENCES.saveFailed.description, PREFERENCES.saveFailed.title));
  return { choice, choose };
}
