/**
 * The breakpoints the window matches, as antd's Grid.useBreakpoint names them (xs: below sm; sm to
 * xxl: at least that width), known on the first render. antd's hook answers {} on the first render
 * and the real screens from a layout effect, so the frame first rendered the phone drawer and the
 * tables their phone-first columns, then everything again for the window it is.
 */
import { theme } from 'antd';
import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';

export type Screens = Record<'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'xxl', boolean>;

export function useScreens(): Screens {
  const { token } = theme.useToken();
  const { screenXSMax, screenSM, screenMD, screenLG, screenXL, screenXXL } = token;
  const queries = useMemo(
    () =>
      Object.entries({
        xs: `(max-width: ${screenXSMax}px)`,
        sm: `(min-width: ${screenSM}px)`,
        md: `(min-width: ${screenMD}px)`,
        lg: `(min-width: ${screenLG}px)`,
        xl: `(min-width: ${screenXL}px)`,
        xxl: `(min-width: ${screenXXL}px)`,
      }).map(([name, query]) => [name, window.matchMedia(query)] as const),
    [screenXSMax, screenSM, screenMD, screenLG, screenXL, screenXXL],
  );
  const subscribe = useCallback(
    (onChange: () => void) => {
      for (const [, list] of queries) list.addEventListener('change', onChange);
      return () => {
        for (const [, list] of queries) list.removeEventListener('change', onChange);
      };
    },
    [queries],
  );
  // The same object while nothing changes: a new one would render the caller again.
  const last = useRef<Screens | null>(null);
  const snapshot = () => {
    const next = Object.fromEntries(queries.map(([name, list]) => [name, list.matches])) as Screens;
    const previous = last.current;
    if (previous && queries.every(([name]) => previous[name as keyof Screens] === next[name as keyof Screens])) return previous;
    last.current = next;
    return next;
  };
  return useSyncExternalStore(subscribe, snapshot);
}
