/** What the API tells the panel before sign-in: demo mode and its users, maintenance, the active theme. */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import type { PublicConfig } from '../contract';
import { MAINTENANCE_EVENT, http } from './http';

const EMPTY: PublicConfig = { demo_mode: false, demo_users: [], maintenance_mode: false, enable_trials: true, trial_days: 7, theme: null };

const AppConfigContext = createContext<{ config: PublicConfig; refetch: () => void }>({ config: EMPTY, refetch: () => undefined });

// Loaded outside Refine (the theme wraps Refine), so it keeps its own small state.
export function AppConfigProvider({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<PublicConfig>(EMPTY);
  const refetch = useCallback(() => {
    http
      .get<PublicConfig>('config')
      .then((res) => setConfig(res.data))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    refetch();
    window.addEventListener(MAINTENANCE_EVENT, refetch);
    return () => window.removeEventListener(MAINTENANCE_EVENT, refetch);
  }, [refetch]);
  return <AppConfigContext.Provider value={{ config, refetch }}>{children}</AppConfigContext.Provider>;
}

export const useAppConfig = () => useContext(AppConfigContext);
