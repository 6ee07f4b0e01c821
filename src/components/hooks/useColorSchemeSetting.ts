/** The user's colour scheme and how to change it: shown at once, saved on the server, taken back with a toast if refused. */
import { type ColorScheme, PREFERENCES } from '../../contract';
import { colorScheme, useColorSchemeChoice } from '../../providers/colorScheme';
import { http } from '../../providers/http';
import { useNotify } from '../feedback/notify';

export function useColorSchemeSetting() {
  const choice = useColorSchemeChoice();
  const notify = useNotify();
  // Through the panel's HTTP client rather than a Refine mutation: the header has it on every screen,
  // and a mutation hook there would add to what the first load downloads.
  const choose = (next: ColorScheme) =>
    next === choice
      ? Promise.resolve()
      : colorScheme.save(http, next).catch((error: unknown) => notify.httpError(error, PREFERENCES.saveFailed.description, PREFERENCES.saveFailed.title));
  return { choice, choose };
}
