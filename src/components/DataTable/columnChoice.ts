/**
 * The columns a user has hidden in a list. The choice lives on the server (the hiddenColumns of
 * GET/PATCH /profile/preferences), so it follows the user to another browser, and is kept in this
 * browser's localStorage per user and list too, so a list paints with it before the API answers.
 * `useColumnChoice(listName)` gives the hidden columns' names and a setter: a change shows at once and
 * is saved on the server; the server's choice is read once per user and page load, on first use.
 */
import type { AxiosInstance } from 'axios';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { CHOOSABLE_COLUMNS, type ChoosableList, PREFERENCES, type PreferencesPatch, type UserPreferences, isChoosableList } from '../../contract';
import { http as panelHttp } from '../../providers/http';
import { useCurrentUser } from '../../providers/identity';
import { useNotify } from '../feedback/notify';

/** The storage key of a user's choice for a list. */
export const columnChoiceKey = (userId: string | number, listName: string) => `panel.columns.${userId}.${listName}`;

const NONE: string[] = [];

/** Parsed choices by storage key, so a render gets the same array until the choice changes. */
const cache = new Map<string, string[]>();
/** Bumped per key by each choice made here, so an older server answer never undoes a newer choice. */
const versions = new Map<string, number>();
/** The server's choices read, per user, once per page load. */
const loads = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();

function read(key: string, list: ChoosableList): string[] {
  const cached = cache.get(key);
  if (cached) return cached;
  let hidden = NONE;
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    // Only the list's own choosable columns: anything else stored (by hand, or an older release) is ignored.
    if (Array.isArray(stored)) hidden = (CHOOSABLE_COLUMNS[list] as readonly string[]).filter((name) => stored.includes(name));
  } catch {
    // Unreadable or refused storage: every column shows.
  }
  cache.set(key, hidden);
  return hidden;
}

function apply(key: string, hidden: string[]) {
  cache.set(key, hidden);
  try {
    if (hidden.length > 0) localStorage.setItem(key, JSON.stringify(hidden));
    else localStorage.removeItem(key);
  } catch {
    // Storage full or refused: the choice holds until the page is left.
  }
  listeners.forEach((listener) => listener());
}

export const columnChoice = {
  /**
   * Takes the user's choices from the server, once per user and page load, for every list not chosen
   * here meanwhile (a list the server has none for shows every column). A failure keeps the cached ones.
   */
  load(userId: string | number, http: AxiosInstance = panelHttp): Promise<void> {
    const user = String(userId);
    const pending = loads.get(user);
    if (pending) return pending;
    const keys = Object.fromEntries(
      Object.keys(CHOOSABLE_COLUMNS).map((list) => {
        const key = columnChoiceKey(user, list);
        return [list, { key, asked: versions.get(key) ?? 0 }];
      }),
    );
    const loading = http.get<{ data: UserPreferences }>('profile/preferences').then(
      ({ data }) => {
        const stored = data?.data?.hiddenColumns ?? {};
        for (const [list, { key, asked }] of Object.entries(keys)) {
          const hidden = stored[list as ChoosableList] ?? NONE;
          // The same choice as shown keeps its array: each list showing it would otherwise render again.
          const shown = cache.get(key);
          if (shown && shown.length === hidden.length && shown.every((name, i) => name === hidden[i])) continue;
          if ((versions.get(key) ?? 0) === asked) apply(key, [...hidden]);
        }
      },
      () => undefined,
    );
    loads.set(user, loading);
    return loading;
  },
  /** A choice made in this browser: shown at once and cached, then saved on the server. */
  save(userId: string | number, list: ChoosableList, hidden: string[], http: AxiosInstance = panelHttp): Promise<unknown> {
    const key = columnChoiceKey(userId, list);
    versions.set(key, (versions.get(key) ?? 0) + 1);
    apply(key, hidden);
    return http.patch('profile/preferences', { hiddenColumns: { [list]: hidden.length > 0 ? hidden : null } } satisfies PreferencesPatch);
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** Forgets what was read (tests, and a new sign-in). */
  reset() {
    cache.clear();
    versions.clear();
    loads.clear();
  },
};

export function useColumnChoice(listName: string): [hidden: string[], setHidden: (hidden: string[]) => void] {
  const { user } = useCurrentUser();
  const notify = useNotify();
  // Nobody known yet (the identity is loading), or a list without a choice: nothing hidden, nothing stored.
  const list = isChoosableList(listName) ? listName : null;
  const userId = user && list ? user.id : null;
  const key = userId !== null && list ? columnChoiceKey(userId, list) : null;
  const snapshot = useCallback(() => (key && list ? read(key, list) : NONE), [key, list]);
  const hidden = useSyncExternalStore(columnChoice.subscribe, snapshot);
  useEffect(() => {
    if (userId !== null) void columnChoice.load(userId);
  }, [userId]);
  const setHidden = useCallback(
    (next: string[]) => {
      if (userId === null || !list) return;
      // Kept in this browser when the server refuses or is out of reach; the toast says it did not follow.
      columnChoice.save(userId, list, next).catch((error: unknown) => notify.httpError(error, PREFERENCES.saveFailed.description, PREFERENCES.saveFailed.title));
    },
    [list, notify, userId],
  );
  return [hidden, setHidden];
}
