/**
 * Sign-in throttling cannot be turned against a user: failures slow the guessing
 * address, never the right password from another address, and one address trying many usernames is
 * slowed too. Each attacker is an address of its own on loopback (127.0.x.y: the client binds it), or,
 * behind a trusted proxy, an X-Forwarded-For entry.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { AUTH } from '../../src/contract';
import { hashPassword } from '../../server/auth/passwords';
import { throttleAddress } from '../../server/http/clientAddress';
import { LOGIN_ADDRESS_LIMIT, LOGIN_LIMIT, LOGIN_USER_DELAY_MS, LOGIN_USER_SLOWDOWN } from '../../server/routes/auth';
import { insertUser } from '../../server/users';
import { type TestContext, describeEachDatabase } from './harness';

interface Answer {
  status: number;
  retryAfter: number | null;
  body: any;
}

/** A sign-in sent from the loopback address `from`, optionally through a proxy's X-Forwarded-For. */
function loginFrom(ctx: TestContext, from: string, username: string, password: string, forwardedFor?: string): Promise<Answer> {
  const url = new URL(`${ctx.baseUrl}/api/v1/login`);
  const payload = JSON.stringify({ username, password });
  const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
  if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode!, retryAfter: retryAfter === undefined ? null : Number(retryAfter), body: text ? JSON.parse(text) : null });
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** Time passes for every counter: each window started `ms` earlier. */
async function elapse(ctx: TestContext, ms: number) {
  await ctx.db.kysely
    .updateTable('rate_limits')
    .set({ window_start: sql`window_start - ${ms}` })
    .execute();
}

async function makeUser(ctx: TestContext, username: string, password = 'password123') {
  const parent = await ctx.db.kysely.selectFrom('users').selectAll().where('username', '=', 'reseller').executeTakeFirstOrThrow();
  await insertUser(ctx.db.kysely, parent, { role: 'dealer', username, name: username, password_hash: await hashPassword(password) });
}

/** A refusal as docs/security.md gives it: 429, its message and a Retry-After within the window. */
function expectRefused(answer: Answer, windowMs: number, label: string) {
  expect(answer.status, label).toBe(429);
  expect(answer.body, label).toEqual({ message: AUTH.tooManyAttempts });
  expect(answer.retryAfter, label).toBeGreaterThan(0);
  expect(answer.retryAfter, label).toBeLessThanOrEqual(windowMs / 1000);
}

const countOf = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describeEachDatabase('sign-in throttling', (ctx) => {
  it('guesses on one username from many addresses leave its owner signing in from a fresh address, after a short wait', async () => {
    await makeUser(ctx, 'spread_owner');
    for (let i = 1; i <= LOGIN_USER_SLOWDOWN.max + 1; i++) {
      expect((await loginFrom(ctx, `127.0.1.${i}`, 'spread_owner', `guess-${i}`)).status, `guess from 127.0.1.${i}`).toBe(422);
    }
    const started = performance.now();
    const owner = await loginFrom(ctx, '127.0.1.200', 'spread_owner', 'password123');
    expect(owner.status).toBe(200);
    // The friction the owner passes: the username under attack costs a short wait.
    expect(performance.now() - started).toBeGreaterThanOrEqual(LOGIN_USER_DELAY_MS - 20);
    // The addresses really were distinct: the audit log has the owner's.
    const audit = await ctx.db.kysely
      .selectFrom('audit_logs')
      .select('ip_address')
      .where('action', '=', 'login')
      .where('target_username', '=', 'spread_owner')
      .executeTakeFirstOrThrow();
    expect(audit.ip_address).toBe('127.0.1.200');
  });

  it('one address guessing one username for minutes is refused, its owner signs in from elsewhere, and the guesser stays refused', async () => {
    await makeUser(ctx, 'steady_owner');
    const guesser = '127.0.2.1';
    const statuses: number[] = [];
    // Six minutes of guessing, one more try each minute than the per-minute limit allows.
    for (let minute = 0; minute < 6; minute++) {
      for (let i = 0; i <= LOGIN_LIMIT.max; i++) {
        const answer = await loginFrom(ctx, guesser, 'steady_owner', `guess-${minute}-${i}`);
        statuses.push(answer.status);
        if (answer.status === 429) expectRefused(answer, LOGIN_ADDRESS_LIMIT.windowMs, `minute ${minute}, try ${i}`);
      }
      await elapse(ctx, LOGIN_LIMIT.windowMs + 1000);
    }
    expect(countOf(statuses, 422) + countOf(statuses, 429)).toBe(statuses.length);
    expect(countOf(statuses, 422)).toBe(LOGIN_ADDRESS_LIMIT.max);

    expect((await loginFrom(ctx, '127.0.2.2', 'steady_owner', 'password123')).status).toBe(200);
    // The guessing address is refused before its password is checked, the right one included, and
    // the owner's sign-in elsewhere did not take its failures away.
    expectRefused(await loginFrom(ctx, guesser, 'steady_owner', 'password123'), LOGIN_ADDRESS_LIMIT.windowMs, 'guesser, right password');
    expectRefused(await loginFrom(ctx, guesser, 'dealer', 'password123'), LOGIN_ADDRESS_LIMIT.windowMs, 'guesser, another username');

    await elapse(ctx, LOGIN_ADDRESS_LIMIT.windowMs);
    expect((await loginFrom(ctx, guesser, 'steady_owner', 'password123')).status).toBe(200);
  });

  it('one address trying many usernames is refused before its 40th, and other addresses are not', async () => {
    await makeUser(ctx, 'spray_39', 'Summer-2026!');
    const sprayer = '127.0.3.1';
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const answer = await loginFrom(ctx, sprayer, `spray_${i}`, 'Summer-2026!');
      statuses.push(answer.status);
      if (answer.status === 429) expectRefused(answer, LOGIN_ADDRESS_LIMIT.windowMs, `username ${i}`);
    }
    expect(statuses.indexOf(429)).toBe(LOGIN_ADDRESS_LIMIT.max);
    expect(statuses.slice(LOGIN_ADDRESS_LIMIT.max)).toEqual(Array(40 - LOGIN_ADDRESS_LIMIT.max).fill(429));
    expect((await loginFrom(ctx, '127.0.3.2', 'spray_0', 'Summer-2026!')).status).toBe(422);
    expect((await loginFrom(ctx, '127.0.3.2', 'spray_39', 'Summer-2026!')).status).toBe(200);
  });

  it("an address's own successful sign-ins do not take its failures away", async () => {
    await makeUser(ctx, 'sprayer_own');
    const sprayer = '127.0.4.1';
    const failures: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < 40; i++) {
      failures.push((await loginFrom(ctx, sprayer, `own_spray_${i}`, 'x')).status);
      if (i % 4 === 0) own.push((await loginFrom(ctx, sprayer, 'sprayer_own', 'password123')).status);
    }
    expect(countOf(failures, 422)).toBe(LOGIN_ADDRESS_LIMIT.max);
    expect(own).toContain(200);
    expect(own.at(-1)).toBe(429);
  });

  it('a parallel burst from one address gets no more password checks than the limits allow', async () => {
    const across = await Promise.all(Array.from({ length: 40 }, (_, i) => loginFrom(ctx, '127.0.5.1', `burst_${i}`, 'x')));
    expect(
      countOf(
        across.map((a) => a.status),
        422,
      ),
    ).toBe(LOGIN_ADDRESS_LIMIT.max);
    expect(
      countOf(
        across.map((a) => a.status),
        429,
      ),
    ).toBe(40 - LOGIN_ADDRESS_LIMIT.max);
    const onOne = await Promise.all(Array.from({ length: 20 }, (_, i) => loginFrom(ctx, '127.0.5.2', 'burst_one', `x-${i}`)));
    expect(
      countOf(
        onOne.map((a) => a.status),
        422,
      ),
    ).toBe(LOGIN_LIMIT.max);
    expect(
      countOf(
        onOne.map((a) => a.status),
        429,
      ),
    ).toBe(20 - LOGIN_LIMIT.max);
  });
});

describeEachDatabase(
  'sign-in throttling behind a trusted proxy',
  (ctx) => {
    it('counts an IPv6 client by its /64: many addresses in one network are one address', async () => {
      const statuses: number[] = [];
      for (let i = 1; i <= 40; i++) statuses.push((await loginFrom(ctx, '127.0.0.1', `v6_${i}`, 'x', `2001:db8:0:1::${i.toString(16)}`)).status);
      expect(statuses.indexOf(429)).toBe(LOGIN_ADDRESS_LIMIT.max);
      expect((await loginFrom(ctx, '127.0.0.1', 'v6_1', 'x', '2001:db8:0:2::1')).status).toBe(422);
    });
  },
  { trustProxy: 1 },
);

describe('throttleAddress', () => {
  it('keeps an IPv4 address and takes an IPv6 address by its /64', () => {
    expect(throttleAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(throttleAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(throttleAddress('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(throttleAddress('2001:0db8:0000:0001:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:0:1::/64');
    expect(throttleAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(throttleAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(throttleAddress('::1')).toBe('0:0:0:0::/64');
    expect(throttleAddress('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });
});
