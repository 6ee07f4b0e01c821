/**
 * Sign-in against guessing (docs/security.md): an unknown username costs the same time as a known one (a
 * dummy hash is checked). The limits themselves: signin-throttle.test.ts.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH } from '../../src/contract';
import { hashPassword } from '../../server/auth/passwords';
import { insertUser } from '../../server/users';
import { type TestContext, startTestServer } from './harness';

// The fastest of several tries: other processes only ever add time, so the minimum is the estimate of
// a path's own cost that a busy machine disturbs least (a median moved by 75% under full load).
const fastest = (values: number[]) => Math.min(...values);

describe('sign-in against guessing [sqlite, behind one proxy]', () => {
  const ctx = {} as TestContext;
  let stop: () => Promise<void> = async () => {};
  let address = 0;
  /** A sign-in from an address of its own (TRUST_PROXY=1: the test client is the proxy). */
  const login = (username: string, password: string, from = `203.0.113.${(address++ % 250) + 1}`) =>
    ctx.anonymous.request('POST', '/login', { username, password }, { 'x-forwarded-for': from });

  beforeAll(async () => {
    const started = await startTestServer('sqlite', { trustProxy: 1 });
    Object.assign(ctx, started.ctx);
    stop = started.stop;
  });
  afterAll(async () => stop());

  it('takes as long for an unknown username as for a known one with a wrong password', { timeout: 60_000 }, async () => {
    const parent = await ctx.db.kysely.selectFrom('users').selectAll().where('username', '=', 'reseller').executeTakeFirstOrThrow();
    const samples = 15;
    const password_hash = await hashPassword('password123');
    for (let i = 0; i < samples; i++) {
      await insertUser(ctx.db.kysely, parent, { role: 'dealer', username: `timing_known_${i}`, name: 'Timing', password_hash });
    }
    await login('timing_warm_up', 'x');
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so a busy machine slows both alike; one attempt per username stays below every limit.
    for (let i = 0; i < samples; i++) {
      for (const [name, times] of [
        [`timing_known_${i}`, known],
        [`timing_unknown_${i}`, unknown],
      ] as const) {
        const started = performance.now();
        const res = await login(name, 'wrong-password');
        times.push(performance.now() - started);
        expect(res.status).toBe(422);
        expect(res.body.errors.username).toEqual([AUTH.invalidCredentials]);
      }
    }
    const ratio = fastest(unknown) / fastest(known);
    const figures = `fastest unknown ${fastest(unknown).toFixed(1)} ms, known ${fastest(known).toFixed(1)} ms`;
    expect(ratio, figures).toBeGreaterThan(0.6);
    expect(ratio, figures).toBeLessThan(1.7);
  });
});
