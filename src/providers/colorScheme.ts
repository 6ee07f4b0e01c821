/**
 * The signed-in user's colour scheme: 'system' (the default) follows the device's light or dark
 * setting as it changes, 'light' and 'dark' hold whatever it says. The choice lives on the server
 * (GET/PATCH /profile/preferences), so it follows the user to another browser, and is kept in
 * localStorage too, so a reload paints in it before the API answers (index.html's inline script).
 * Apart from the admin's site theme: that gives the colours; this only decides light or dark
 * ('system' also shows the site's dark when the admin made the site theme dark).
 */
import type { AxiosInstance } from 'axios';
import { useSyncExternalStore } from 'react';
import { COLOR_SCHEMES, type ColorScheme, STORAGE_KEYS, type UserPreferences } from '../contract';
import { SYSTEM_DARK, useMediaQuery } from './mediaQuery';

const valid = (value: unknown): value is ColorScheme => COLOR_SCHEMES.includes(value as ColorScheme);
const readCache = (): ColorScheme => {
  const stored = localStorage.getItem(STORAGE_KEYS.colorScheme);
  return valid(stored) ? stored : 'system';
};

let choice = readCache();
/** Bumped by every choice made here, so an older server answer never undoes a newer choice. */
let version = 0;
const listeners = new Set<() => void>();

function apply(next: ColorScheme) {
  localStorage.setItem(STORAGE_KEYS.colorScheme, next);
  choice = next;
  listeners.forEach((listener) => listener());
}

/** Whether the page is dark for a choice, the device's setting and the site theme. */
export const resolveDark = (scheme: ColorScheme, systemDark: boolean, siteDark: boolean): boolean =>
  scheme === 'dark' || (scheme === 'system' && (systemDark || siteDark));

export const colorScheme = {
  choice: (): ColorScheme => choice,
  systemDark: (): boolean => window.matchMedia(SYSTEM_DARK).matches,
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
   * unless a choice was made here meanwhile. A failure (offline, maintenance) keeps the cached choice.
   */
  load: (http: AxiosInstance): Promise<void> => {
    const asked = version;
    return http.get<{ data: UserPreferences }>('profile/preferences').then(
      ({ data }) => void (asked === version && valid(data?.data?.colorScheme) && apply(data.data.colorScheme)),
      () => undefined,
    );
  },
  /** Reads the cache again (tests). */
  reset() {
    version = 0;
    choice = readCache();
  },
};

/** The user's choice, re-rendering when it changes. */
export const useColorSchemeChoice = (): ColorScheme => useSyncExternalStore(colorScheme.subscribe, colorScheme.choice);

/** Whether the page is dark, following the choice and, for 'system', the device's setting as it changes. */
export const useDarkScheme = (siteDark: boolean): boolean => resolveDark(useColorSchemeChoice(), useMediaQuery(SYSTEM_DARK), siteDark);
