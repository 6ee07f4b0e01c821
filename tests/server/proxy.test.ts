/**
 * TRUST_PROXY: a hop count or a list of proxy addresses. The client address that the
 * sign-in limit and the audit log use is the right-most X-Forwarded-For entry the trusted proxies did
 * not write, so a client cannot forge it by writing entries of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH } from '../../src/contract';
import { type TrustProxy, loadConfig, parseTrustProxy } from '../../server/config';
import { LOGIN_LIMIT } from '../../server/routes/auth';
import { type TestContext, startTestServer } from './harness';

describe('TRUST_PROXY', () => {
  it('reads false, a hop count or a list of proxy addresses and ranges', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('10.0.0.5')).toEqual(['10.0.0.5']);
    expect(parseTrustProxy('10.0.0.5, 10.1.0.0/16,::1,fd00::/8, loopback')).toEqual(['10.0.0.5', '10.1.0.0/16', '::1', 'fd00::/8', 'loopback']);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('stops the start-up on anything else, so a typo cannot trust every forwarded address', () => {
    for (const bad of ['yes', 'all', '*', '10.0.0', '10.0.0.0/33', 'proxy.example.com', '1.5', '-1', '99', '10.0.0.1/8/1']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
    }
  });
});

/** The server answers from 127.0.0.1: the test client is "the proxy" in front of it. */
function behindProxy(trustProxy: TrustProxy, run: (ctx: TestContext) => void) {
  describe(`client address with TRUST_PROXY=${JSON.stringify(trustProxy)}`, () => {
    const ctx = {} as TestContext;
    let stop: () => Promise<void> = async () => {};
    beforeAll(async () => {
      const started = await startTestServer('sqlite', { trustProxy });
      Object.assign(ctx, started.ctx);
      stop = started.stop;
    });
    afterAll(async () => stop());
    run(ctx);
  });
}

async function loginFrom(ctx: TestContext, forwardedFor: string, username: string, password: string) {
  return ctx.anonymous.request('POST', '/login', { username, password }, { 'x-forwarded-for': forwardedFor });
}

async function lastLoginAddress(ctx: TestContext, username: string): Promise<string | null> {
  const row = await ctx.db.kysely
    .selectFrom('audit_logs')
    .select('ip_address')
    .where('module', '=', 'auth')
    .where('action', '=', 'login')
    .where('target_username', '=', username)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return row.ip_address;
}

/** 30 wrong passwords, each claiming another address on the left of X-Forwarded-For. */
async function forgedGuesses(ctx: TestContext, realClient: (forged: string) => string) {
  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await loginFrom(ctx, realClient(`198.51.100.${i + 1}`), 'reseller2', `wrong-${i}`);
    statuses.push(res.status);
    if (res.status === 429) expect(res.body).toEqual({ message: AUTH.tooManyAttempts });
  }
  return statuses;
}

behindProxy(1, (ctx) => {
  it('takes the entry the proxy appended, not the ones the client wrote', async () => {
    expect((await loginFrom(ctx, '6.6.6.6, 203.0.113.7', 'manager2', 'password123')).status).toBe(200);
    expect(await lastLoginAddress(ctx, 'manager2')).toBe('203.0.113.7');
    expect((await loginFrom(ctx, '203.0.113.8', 'manager2', 'password123')).status).toBe(200);
    expect(await lastLoginAddress(ctx, 'manager2')).toBe('203.0.113.8');
  });

  it('limits forged-address guesses as one client: the password check is reached only LOGIN_LIMIT.max times', async () => {
    const statuses = await forgedGuesses(ctx, (forged) => `${forged}, 203.0.113.9`);
    expect(statuses.filter((s) => s === 422)).toHaveLength(LOGIN_LIMIT.max);
    expect(statuses.slice(LOGIN_LIMIT.max).every((s) => s === 429)).toBe(true);
    const keys = await ctx.db.kysely.selectFrom('rate_limits').select('key').where('key', 'like', 'login:%').execute();
    expect(keys.map((k) => k.key)).not.toEqual(expect.arrayContaining([expect.stringContaining('198.51.100.')]));
  });
});

behindProxy(2, (ctx) => {
  it('skips two proxies: the client is the second entry from the right', async () => {
    expect((await loginFrom(ctx, '6.6.6.6, 203.0.113.10, 10.0.0.2', 'manager2', 'password123')).status).toBe(200);
    expect(await lastLoginAddress(ctx, 'manager2')).toBe('203.0.113.10');
  });
});

behindProxy(['127.0.0.1', '10.0.0.0/8'], (ctx) => {
  it('trusts only listed proxies: the first untrusted address from the right is the client', async () => {
    expect((await loginFrom(ctx, '6.6.6.6, 203.0.113.11, 10.0.0.2', 'manager2', 'password123')).status).toBe(200);
    expect(await lastLoginAddress(ctx, 'manager2')).toBe('203.0.113.11');
    const statuses = await forgedGuesses(ctx, (forged) => `${forged}, 203.0.113.12, 10.1.2.3`);
    expect(statuses.filter((s) => s === 422)).toHaveLength(LOGIN_LIMIT.max);
  });
});

behindProxy(['10.9.9.9'], (ctx) => {
  it('ignores X-Forwarded-For from a peer that is not a listed proxy', async () => {
    expect((await loginFrom(ctx, '203.0.113.13', 'manager2', 'password123')).status).toBe(200);
    expect(await lastLoginAddress(ctx, 'manager2')).toBe('127.0.0.1');
  });
});

behindProxy(false, (ctx) => {
  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    expect((await loginFrom(ctx, '203.0.113.14', 'manager2', 'password123')).status).toBe(200);
    expect(await lastLoginAddress(ctx, 'manager2')).toBe('127.0.0.1');
  });
});
