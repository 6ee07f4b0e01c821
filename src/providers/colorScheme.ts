/**
 * The signed-in user's colour scheme: 'system' (the default) follows the device's light or dark
 * setting as it changes, 'light' and 'dark' hold whatever it says. The choice lives on the server
 * (GET/PATCH /profile/preferences), so it follows the user to another browser, and is kept in
 * localStorage too, so a reload paints in it before the API answers. Apart from the admin's site
 * theme: that gives the colours; this only decides light or dark ('system' also shows the site's dark
 * when the admin made the site theme dark).
 */
import type { AxiosInstance } from 'axios';
import { useSyncExternalStore } from 'react';
import { COLOR_SCHEMES, type ColorScheme, type PreferencesPatch, STORAGE_KEYS, type UserPreferences } from '../contract';

const DARK_QUERY = '(prefers-color-scheme: dark)';

const isScheme = (value: unknown): value is ColorScheme => (COLOR_SCHEMES as readonly unknown[]).includes(value);

function readCache(): ColorScheme {
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.colorScheme);
    return isScheme(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

let choice: ColorScheme = readCache();
/** Bumped by every choice made here, so an older server answer never undoes a newer choice. */
let version = 0;
const listeners = new Set<() => void>();

function apply(next: ColorScheme) {
  try {
    localStorage.setItem(STORAGE_KEYS.colorScheme, next);
  } catch {
    // Storage refused (private mode, full): the choice still holds for this page.
  }
  if (next === choice) return;
  choice = next;
  listeners.forEach((listener) => listener());
}

/** Whether the page is dark for a choice, the device's setting and the site theme. */
export const resolveDark = (scheme: ColorScheme, systemDark: boolean, siteDark: boolean): boolean =>
  scheme === 'dark' || (scheme === 'system' && (systemDark || siteDark));

const systemQuery = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null);

export const colorScheme = {
  choice: (): ColorScheme => choice,
  systemDark: (): boolean => systemQuery()?.matches ?? false,
  /** Whether the page is dark now, for the active site theme. */
  isDark: (siteDark: boolean): boolean => resolveDark(choice, colorScheme.systemDark(), siteDark),
  /** A choice made in this browser: shown at once and cached. */
  choose(next: ColorScheme) {
    version++;
    apply(next);
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /**
   * Takes the signed-in user's choice from the server (after sign-in and on each load of the panel),
   * unless a choice was made here meanwhile. A failure keeps the cached choice.
   */
  async load(http: AxiosInstance): Promise<void> {
    const asked = version;
    try {
      const { data } = await http.get<{ data: UserPreferences }>('profile/preferences');
      if (asked === version && isScheme(data?.data?.colorScheme)) apply(data.data.colorScheme);
    } catch {
      // Offline, maintenance, an ended session: the cached choice stands.
    }
  },
  /**
   * A choice made in this browser: shown at once, cached, and saved on the server (PATCH
   * /profile/preferences); a refusal takes it back and rejects like the request.
   */
  async save(http: AxiosInstance, next: ColorScheme): Promise<void> {
    const previous = choice;
    colorScheme.choose(next);
    try {
      await http.patch('profile/preferences', { colorScheme: next } satisfies PreferencesPatch);
    } catch (error) {
      if (choice === next) colorScheme.choose(previous);
      throw error;
    }
  },
  /** Forget the in-memory state (tests). */
  reset() {
    version = 0;
    choice = readCache();
  },
};

function subscribeSystem(listener: () => void) {
  const query = systemQuery();
  query?.addEventListener('change', listener);
  return () => query?.removeEventListener('change', listener);
}

/** The user's choice, re-rendering when it changes. */
export const useColorSchemeChoice = (): ColorScheme => useSyncExternalStore(colorScheme.subscribe, colorScheme.choice, colorScheme.choice);

/** Whether the page is dark, following the choice and, for 'system', the device's setting as it changes. */
export function useDarkScheme(siteDark: boolean): boolean {
  const scheme = useColorSchemeChoice();
  const systemDark = useSyncExternalStore(subscribeSystem, colorScheme.systemDark, () => false);
  return resolveDark(scheme, systemDark, siteDark);
}
