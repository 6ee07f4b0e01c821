/**
 * Whether trial accounts may be created, and how long they last. Admin reads the system settings;
 * the other roles cannot, so they read the public config when it carries the setting, and otherwise
 * are offered the trial and told by the API when trials are disabled.
 */
import { useEffect, useState } from 'react';
import { useCurrentUser } from '../../hooks/useRole';
import { useAppConfig } from '../../providers/appConfig';
import { fetchSystemSettings } from '../../providers/systemSettings';

export function useTrialSettings(): { enabled: boolean; days: number | null } {
  const { role } = useCurrentUser();
  const { config } = useAppConfig();
  const published = config as { enable_trials?: boolean; trial_days?: number };
  const [admin, setAdmin] = useState<{ enabled: boolean; days: number } | null>(null);

  useEffect(() => {
    if (role !== 'admin') return;
    let live = true;
    fetchSystemSettings()
      .then((s) => live && setAdmin({ enabled: Boolean(s.enable_trials), days: Number(s.trial_days) }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [role]);

  if (admin) return admin;
  if (typeof published.enable_trials === 'boolean') return { enabled: published.enable_trials, days: published.trial_days ?? null };
  return { enabled: true, days: null };
}
