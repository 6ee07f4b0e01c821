/** What the API tells the panel before sign-in: demo mode and its users, maintenance, the active theme. */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { CONFIG_REFRESH_MS, type PublicConfig } from '../contract';
import { MAINTENANCE_EVENT, http } from './http';

const EMPTY: PublicConfig = { demo_mode: false, demo_users: [], maintenance_mode: false, enable_trials: true, trial_days: 7, theme: null };

const AppConfigContext = createContext<{ config: PublicConfig; refetch: () => void }>({ config: EMPTY, refetch: () => undefined });

const fetchConfig = () => http.get<PublicConfig>('config').then((res) => res.data);

let first: Promise<PublicConfig> | undefined;
/**
 * The first load, started as early as the entry module runs (beside the session check); a failure
 * answers the defaults, so the panel still opens, in the default theme.
 */
export const preloadAppConfig = () => (first ??= fetchConfig().catch(() => EMPTY));

// Loaded outside Refine (the theme wraps Refine), so it keeps its own small state. Nothing renders
// before the first answer: the panel opens in the active theme instead of switching to it.
export function AppConfigProvider({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<PublicConfig | null>(null);
  const refetch = useCallback(() => {
    fetchConfig()
      // An unchanged answer keeps the same object: the periodic read re-renders nothing.
      .then((next) => setConfig((current) => (current && JSON.stringify(current) === JSON.stringify(next) ? current : next)))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    void preloadAppConfig().then((loaded) => setConfig((current) => current ?? loaded));
    // Another admin may switch maintenance (or the theme) meanwhile: read it again now and then, and
    // when the user comes back to the tab, so the bar and the maintenance page follow without a reload.
    const whenVisible = () => {
      if (document.visibilityState === 'visible') refetch();
    };
    const timer = window.setInterval(whenVisible, CONFIG_REFRESH_MS);
    window.addEventListener(MAINTENANCE_EVENT, refetch);
    window.addEventListener('focus', refetch);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener(MAINTENANCE_EVENT, refetch);
      window.removeEventListener('focus', refetch);
    };
  }, [refetch]);
  if (!config) return null;
  return <AppConfigContext.Provider value={{ config, refetch }}>{children}</AppConfigContext.Provider>;
}

export const useAppConfig = () => useContext(AppConfigContext);
