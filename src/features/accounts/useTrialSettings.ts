/** Whether trial accounts may be created, and how long they last: the API publishes both in /config. */
import { useAppConfig } from '../../providers/appConfig';

export function useTrialSettings(): { enabled: boolean; days: number | null } {
  const { config } = useAppConfig();
  return { enabled: config.enable_trials, days: config.trial_days };
}
