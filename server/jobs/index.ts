import { runAutoRenew } from '../accounts/autoRenew';
import { pruneExpiredTokens } from '../auth/tokens';
import { serverChecksJob } from '../servers/check';
import type { Job } from './scheduler';

/** Every background job of the API. */
export const jobs: Job[] = [
  { name: 'prune-expired-tokens', everyMs: 60 * 60_000, run: async (db) => void (await pruneExpiredTokens(db)) },
  { name: 'auto-renew-accounts', everyMs: 60_000, run: async (db) => void (await runAutoRenew(db)) },
  serverChecksJob,
];
