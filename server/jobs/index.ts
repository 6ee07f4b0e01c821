import { pruneSignIns } from '../auth/signIns';
import { pruneExpiredTokens } from '../auth/tokens';
import { CHECK_EVERY_MS, checkActiveServers } from '../provisioning/check';
import { runAutoRenew } from './autoRenew';
import { BulkJobRunner } from './bulkAccounts';
import type { Job } from './scheduler';
import type { Config } from '../config';
import { scanEvents } from '../notifications/events';
import { deliverPending } from '../notifications/outbox';

export const serverChecksJob: Job = { name: 'check-servers', everyMs: CHECK_EVERY_MS, run: async (db) => void (await checkActiveServers(db)) };

/** Every background job of the API. */
export const jobs: Job[] = [
  { name: 'prune-expired-tokens', everyMs: 60 * 60_000, run: async (db) => void (await pruneExpiredTokens(db)) },
  { name: 'prune-sign-in-history', everyMs: 24 * 60 * 60_000, run: async (db) => void (await pruneSignIns(db)) },
  { name: 'auto-renew-accounts', everyMs: 60_000, run: async (db) => void (await runAutoRenew(db)) },
  serverChecksJob,
  // Bulk jobs a stopped process left running go on from their cursor.
  { name: 'resume-bulk-jobs', everyMs: 30_000, run: (db) => BulkJobRunner.of(db).resume() },
];

/** The notification jobs: record the periodic events (expiry, low balance, announcements), then deliver the outbox. */
export const notificationJobs = (config: Pick<Config, 'appKey' | 'production'>): Job[] => [
  { name: 'notification-events', everyMs: 5 * 60_000, run: async (db) => void (await scanEvents(db)) },
  { name: 'deliver-notifications', everyMs: 30_000, run: async (db) => void (await deliverPending(db, config)) },
];

/** Every job of an API process with this configuration. */
export const jobsOf = (config: Pick<Config, 'appKey' | 'production'>): Job[] => [...jobs, ...notificationJobs(config)];
