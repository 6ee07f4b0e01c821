/**
 * The circuit breaker of one server's middleware. A server that keeps failing (unreachable, timed
 * out, its locks never granted) is refused at once for a cool-down instead of being waited on by
 * every request that needs it; then one trial call decides whether it is back (closed) or not (open
 * again). Only failures of the server count: an answer, even a refusal (a MAC already taken, a
 * trigger saying no), shows that it answers.
 *
 * The state lives in the API process: several processes on one PostgreSQL each learn a server's
 * failures on their own (docs/middleware.md).
 */
import type { ServerBreaker } from '../../src/contract';

export interface BreakerOptions {
  /** Consecutive failures that open the breaker. */
  failures: number;
  cooldownMs: number;
}

/** What a call was let through as: an ordinary call, the half-open trial, or a check that probes. */
export type Admission = 'call' | 'trial' | 'probe';

export class Breaker {
  private failures = 0;
  private openedAt: number | null = null;
  private retryAt: number | null = null;
  private trialRunning = false;

  constructor(
    private readonly options: BreakerOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Lets a call through, or answers null when it must be refused now. A `probe` (the connection
   * check an admin or the scheduler runs) always goes through, so a repaired server can be seen.
   */
  admit(probe = false): Admission | null {
    if (probe) return 'probe';
    if (this.retryAt === null) return 'call';
    if (this.now() < this.retryAt || this.trialRunning) return null;
    this.trialRunning = true;
    return 'trial';
  }

  /** Milliseconds until a refused call may be tried again (for Retry-After). */
  retryInMs(): number {
    return this.retryAt === null ? 0 : Math.max(0, this.retryAt - this.now());
  }

  /** The server answered: the breaker closes. */
  succeeded(admission: Admission): void {
    if (admission === 'trial') this.trialRunning = false;
    this.failures = 0;
    this.openedAt = null;
    this.retryAt = null;
  }

  /** The server failed the call: counted; the threshold, or a failed trial, opens the breaker. */
  failed(admission: Admission): void {
    if (admission === 'trial') this.trialRunning = false;
    this.failures += 1;
    const open = this.retryAt !== null;
    if (admission === 'trial' || (open && admission === 'probe') || (!open && this.failures >= this.options.failures)) {
      const now = this.now();
      this.openedAt = open ? (this.openedAt ?? now) : now;
      this.retryAt = now + this.options.cooldownMs;
    }
  }

  /** The call ended without telling anything about the server (the pool's queue was full). */
  released(admission: Admission): void {
    if (admission === 'trial') this.trialRunning = false;
  }

  state(): ServerBreaker {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const state = this.retryAt === null ? 'closed' : this.trialRunning || this.now() >= this.retryAt ? 'half_open' : 'open';
    return { state, failures: this.failures, opened_at: iso(this.openedAt), retry_at: iso(this.retryAt) };
  }
}
