/** A CSS media query's answer, re-rendering when the device's setting changes. */
import { useCallback, useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

export const SYSTEM_DARK = '(prefers-color-scheme: dark)';
export const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
