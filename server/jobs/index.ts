import { pruneSignIns } from '../auth/signIns';
import { pruneExpiredTokens } from '../auth/tokens';
import { CHECK_EVERY_MS, checkActiveServers } from '../provisioning/check';
import { runAutoRenew } from './autoRenew';
import type { Job } from './scheduler';

export const serverChecksJob: Job = { name: 'check-servers', everyMs: CHECK_EVERY_MS, run: async (db) => void (await checkActiveServers(db)) };

/** Every background job of the API. */
export const jobs: Job[] = [
  { name: 'prune-expired-tokens', everyMs: 60 * 60_000, run: async (db) => void (await pruneExpiredTokens(db)) },
  { name: 'prune-sign-in-history', everyMs: 24 * 60 * 60_000, run: async (db) => void (await pruneSignIns(db)) },
  { name: 'auto-renew-accounts', everyMs: 60_000, run: async (db) => void (await runAutoRenew(db)) },
  serverChecksJob,
];
