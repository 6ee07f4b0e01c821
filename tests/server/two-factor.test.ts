/**
 * Two-factor sign-in: enrolment in the profile, the second step of a sign-in, codes used once,
 * throttled guesses, challenges that expire and belong to one user, enforcement per role, and the
 * parent's reset within its subtree (docs/security.md#two-factor-sign-in).
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { generate } from 'otplib';
import { expect, it } from 'vitest';
import { ACCESS, AUTH, PROFILE, TWO_FACTOR } from '../../src/contract';
import { hashPassword } from '../../server/auth/passwords';
import { LOGIN_LIMIT } from '../../server/routes/auth';
import { insertUser } from '../../server/users';
import { type Client, type TestContext, describeEachDatabase } from './harness';

async function makeUser(ctx: TestContext, username: string, role: string, parent: string) {
  const parentRow = await ctx.db.kysely.selectFrom('users').selectAll().where('username', '=', parent).executeTakeFirstOrThrow();
  return insertUser(ctx.db.kysely, parentRow, { role, username, name: username, password_hash: await hashPassword('password123') });
}

async function signIn(ctx: TestContext, username: string, password = 'password123') {
  return ctx.anonymous.post('/login', { username, password });
}

async function tokenOf(ctx: TestContext, username: string): Promise<string> {
  const res = await signIn(ctx, username);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.token).toEqual(expect.any(String));
  return res.body.token;
}

/** Time passes for the user's codes: the step it last used is forgotten (a new code is accepted). */
const nextStep = (ctx: TestContext, userId: number) => ctx.db.kysely.updateTable('user_two_factor').set({ last_step: null }).where('user_id', '=', userId).execute();

/** Turns two-factor on for the signed-in client; answers the secret and the recovery codes. */
async function enrol(client: Client): Promise<{ secret: string; codes: string[] }> {
  const setup = await client.post('/profile/two-factor/setup');
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const { secret } = setup.body.data;
  const enabled = await client.post('/profile/two-factor/enable', { code: await generate({ secret }) });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return { secret, codes: enabled.body.recovery_codes };
}

/** The second step of a sign-in, sent from the loopback address `from` (an attacker of its own). */
function secondStepFrom(ctx: TestContext, from: string, body: unknown): Promise<{ status: number; body: any }> {
  const url = new URL(`${ctx.baseUrl}/api/v1/login/two-factor`);
  const payload = JSON.stringify(body);
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

describeEachDatabase('two-factor sign-in', (ctx) => {
  it('enrols with a QR code and a secret confirmed by a code, keeps the secret encrypted and the recovery codes hashed', async () => {
    const user = await makeUser(ctx, 'tf_enrol', 'dealer', 'reseller');
    const client = ctx.client(await tokenOf(ctx, 'tf_enrol'));
    const other = ctx.client(await tokenOf(ctx, 'tf_enrol'));
    expect((await client.get('/profile/two-factor')).body.data).toEqual({ enabled: false, required: false, recovery_codes_left: 0 });

    const setup = await client.post('/profile/two-factor/setup');
    expect(setup.status).toBe(200);
    const { secret, otpauth_url, qr_code } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain('tf_enrol');
    expect(qr_code).toMatch(/^data:image\/png;base64,/);

    // Not on until a code of the secret confirms it.
    const wrong = await client.post('/profile/two-factor/enable', { code: '000000' === (await generate({ secret })) ? '111111' : '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.code).toEqual([TWO_FACTOR.codeInvalid]);
    const notDigits = await client.post('/profile/two-factor/enable', { code: 'abc' });
    expect(notDigits.status).toBe(422);
    expect((await client.get('/user')).body.two_factor).toBe(false);

    const enabled = await client.post('/profile/two-factor/enable', { code: await generate({ secret }) });
    expect(enabled.status).toBe(200);
    expect(enabled.body.message).toBe(TWO_FACTOR.enabled);
    const codes: string[] = enabled.body.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await client.get('/user')).body.two_factor).toBe(true);
    expect((await client.get('/profile/two-factor')).body.data).toEqual({ enabled: true, required: false, recovery_codes_left: 10 });
    // Turning it on ends the other sessions, not this one.
    expect((await other.get('/user')).status).toBe(401);

    // Nothing readable in the database: the secret is encrypted, the codes hashed.
    const row = await ctx.db.kysely.selectFrom('user_two_factor').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(secret);
    expect(row.secret_enc).toMatch(/^v1:/);
    const stored = await ctx.db.kysely.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(stored.some((s) => s.code_hash.includes(code) || s.code_hash.includes(code.replace('-', '')))).toBe(false);

    // Set up again while it is on: refused.
    expect((await client.post('/profile/two-factor/setup')).status).toBe(409);
    const audit = await ctx.db.kysely.selectFrom('audit_logs').select('action').where('entity_id', '=', user.id).where('action', '=', 'enable_two_factor').execute();
    expect(audit).toHaveLength(1);
  });

  it('asks for the code in a second step: no session for the password alone, a session for the code, each code once', async () => {
    const user = await makeUser(ctx, 'tf_login', 'dealer', 'reseller');
    const { secret, codes } = await enrol(ctx.client(await tokenOf(ctx, 'tf_login')));
    const tokensBefore = await ctx.db.kysely.selectFrom('auth_tokens').select('id').where('user_id', '=', user.id).execute();

    const first = await signIn(ctx, 'tf_login');
    expect(first.status).toBe(200);
    expect(first.body.token).toBeUndefined();
    expect(first.body.two_factor.challenge).toEqual(expect.any(String));
    expect(Date.parse(first.body.two_factor.expires_at)).toBeGreaterThan(Date.now());
    // The password alone opened no session, and the challenge is no token.
    expect(await ctx.db.kysely.selectFrom('auth_tokens').select('id').where('user_id', '=', user.id).execute()).toHaveLength(tokensBefore.length);
    expect((await ctx.client(first.body.two_factor.challenge).get('/user')).status).toBe(401);
    // A wrong password still answers as before: no challenge.
    expect((await signIn(ctx, 'tf_login', 'wrong-password')).status).toBe(422);

    await nextStep(ctx, user.id);
    const code = await generate({ secret });
    const second = await ctx.anonymous.post('/login/two-factor', { challenge: first.body.two_factor.challenge, code });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.user).toMatchObject({ username: 'tf_login', two_factor: true });
    expect((await ctx.client(second.body.token).get('/user')).status).toBe(200);

    // The same code again, with a new challenge: refused (same time step).
    const again = await signIn(ctx, 'tf_login');
    const replay = await ctx.anonymous.post('/login/two-factor', { challenge: again.body.two_factor.challenge, code });
    expect(replay.status).toBe(422);
    expect(replay.body.errors.code).toEqual([TWO_FACTOR.codeInvalid]);

    // A recovery code, in any case and without its dash, once.
    const recovery = codes[0].toLowerCase().replace('-', '');
    const withRecovery = await ctx.anonymous.post('/login/two-factor', { challenge: again.body.two_factor.challenge, code: recovery });
    expect(withRecovery.status).toBe(200);
    const third = await signIn(ctx, 'tf_login');
    const recoveryAgain = await ctx.anonymous.post('/login/two-factor', { challenge: third.body.two_factor.challenge, code: codes[0] });
    expect(recoveryAgain.status).toBe(422);
    expect((await ctx.client(withRecovery.body.token).get('/profile/two-factor')).body.data.recovery_codes_left).toBe(9);
    const audit = await ctx.db.kysely.selectFrom('audit_logs').select('new_values').where('entity_id', '=', user.id).where('action', '=', 'login').execute();
    // The sign-in before the enrolment names no second factor.
    expect(audit.map((a) => JSON.parse(a.new_values ?? '{}').second_factor ?? 'none').sort()).toEqual(['none', 'recovery', 'totp']);
  });

  it('refuses a challenge that expired, was used, is unknown, or is sent with another user’s code', async () => {
    const alice = await makeUser(ctx, 'tf_alice', 'dealer', 'reseller');
    const bob = await makeUser(ctx, 'tf_bob', 'dealer', 'reseller');
    const aliceFactor = await enrol(ctx.client(await tokenOf(ctx, 'tf_alice')));
    const bobFactor = await enrol(ctx.client(await tokenOf(ctx, 'tf_bob')));
    await nextStep(ctx, alice.id);
    await nextStep(ctx, bob.id);

    const unknown = await ctx.anonymous.post('/login/two-factor', { challenge: 'not-a-challenge', code: await generate({ secret: aliceFactor.secret }) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.challenge).toEqual([TWO_FACTOR.challengeExpired]);

    // Alice's challenge with Bob's code and Bob's recovery code: no session for anyone.
    const aliceChallenge = (await signIn(ctx, 'tf_alice')).body.two_factor.challenge;
    const bobCode = await generate({ secret: bobFactor.secret });
    const crossed = await ctx.anonymous.post('/login/two-factor', { challenge: aliceChallenge, code: bobCode });
    expect(crossed.status).toBe(422);
    expect(crossed.body.errors.code).toEqual([TWO_FACTOR.codeInvalid]);
    expect((await ctx.anonymous.post('/login/two-factor', { challenge: aliceChallenge, code: bobFactor.codes[0] })).status).toBe(422);
    // Bob's code and recovery code are still his to use.
    const bobChallenge = (await signIn(ctx, 'tf_bob')).body.two_factor.challenge;
    expect((await ctx.anonymous.post('/login/two-factor', { challenge: bobChallenge, code: bobFactor.codes[0] })).status).toBe(200);

    // Used: the challenge opens one session only.
    const aliceCode = await generate({ secret: aliceFactor.secret });
    expect((await ctx.anonymous.post('/login/two-factor', { challenge: aliceChallenge, code: aliceCode })).status).toBe(200);
    await nextStep(ctx, alice.id);
    const reused = await ctx.anonymous.post('/login/two-factor', { challenge: aliceChallenge, code: aliceCode });
    expect(reused.status).toBe(422);
    expect(reused.body.errors.challenge).toEqual([TWO_FACTOR.challengeExpired]);

    // Expired: the right code after the challenge's time is refused.
    const late = (await signIn(ctx, 'tf_alice')).body.two_factor.challenge;
    await ctx.db.kysely
      .updateTable('login_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', alice.id)
      .execute();
    const expired = await ctx.anonymous.post('/login/two-factor', { challenge: late, code: aliceCode });
    expect(expired.status).toBe(422);
    expect(expired.body.errors.challenge).toEqual([TWO_FACTOR.challengeExpired]);
  });

  it('accepts one of two parallel uses of a challenge and code', async () => {
    const user = await makeUser(ctx, 'tf_race', 'dealer', 'reseller');
    const { secret } = await enrol(ctx.client(await tokenOf(ctx, 'tf_race')));
    await nextStep(ctx, user.id);
    const challenge = (await signIn(ctx, 'tf_race')).body.two_factor.challenge;
    const code = await generate({ secret });
    const answers = await Promise.all([1, 2, 3].map(() => ctx.anonymous.post('/login/two-factor', { challenge, code })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422]);
  });

  it('throttles wrong codes like wrong passwords: the guessing address is refused, even with the right code', async () => {
    const user = await makeUser(ctx, 'tf_guessed', 'dealer', 'reseller');
    const { secret } = await enrol(ctx.client(await tokenOf(ctx, 'tf_guessed')));
    await nextStep(ctx, user.id);
    const challenge = (await signIn(ctx, 'tf_guessed')).body.two_factor.challenge;
    const right = await generate({ secret });
    const guesser = '127.0.5.1';
    for (let i = 0; i < LOGIN_LIMIT.max; i += 1) {
      const wrong = String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');
      expect((await secondStepFrom(ctx, guesser, { challenge, code: wrong })).status, `guess ${i}`).toBe(422);
    }
    const refused = await secondStepFrom(ctx, guesser, { challenge, code: right });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(AUTH.tooManyAttempts);
    // The owner from elsewhere gets in.
    expect((await secondStepFrom(ctx, '127.0.5.2', { challenge, code: right })).status).toBe(200);
  });

  it('turns off with the current password or a code, never without; the other sessions end', async () => {
    const user = await makeUser(ctx, 'tf_off', 'dealer', 'reseller');
    const client = ctx.client(await tokenOf(ctx, 'tf_off'));
    const { secret } = await enrol(client);
    await nextStep(ctx, user.id);
    const challenge = (await signIn(ctx, 'tf_off')).body.two_factor.challenge;
    const other = ctx.client((await ctx.anonymous.post('/login/two-factor', { challenge, code: await generate({ secret }) })).body.token);
    expect((await other.get('/user')).status).toBe(200);

    const none = await client.post('/profile/two-factor/disable', {});
    expect(none.status).toBe(422);
    expect(none.body.errors.password).toEqual([TWO_FACTOR.turnOffCredential]);
    const wrongPassword = await client.post('/profile/two-factor/disable', { password: 'not-it' });
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.body.errors.password).toEqual([PROFILE.currentPasswordWrong]);
    const wrongCode = await client.post('/profile/two-factor/disable', { code: '12345x' });
    expect(wrongCode.status).toBe(422);
    expect((await client.get('/user')).body.two_factor).toBe(true);

    const off = await client.post('/profile/two-factor/disable', { password: 'password123' });
    expect(off.status).toBe(200);
    expect((await client.get('/user')).body.two_factor).toBe(false);
    expect((await other.get('/user')).status).toBe(401);
    expect(await ctx.db.kysely.selectFrom('recovery_codes').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect((await signIn(ctx, 'tf_off')).body.token).toEqual(expect.any(String));
    expect((await client.post('/profile/two-factor/disable', { password: 'password123' })).status).toBe(409);

    // With a code instead of the password.
    const again = await enrol(client);
    await nextStep(ctx, user.id);
    expect((await client.post('/profile/two-factor/disable', { code: await generate({ secret: again.secret }) })).status).toBe(200);
  });

  it('enforces two-factor for a role: its users without one may only enrol, then work as usual', async () => {
    const admin = await ctx.as('admin');
    await makeUser(ctx, 'tf_forced', 'dealer', 'reseller');
    await makeUser(ctx, 'tf_free', 'reseller', 'manager');
    const before = ctx.client(await tokenOf(ctx, 'tf_forced'));
    expect((await admin.put('/system-settings/two-factor-dealer', { two_factor_dealer: true })).status).toBe(200);
    try {
      // A session opened before the rule is held to it as well.
      const refused = await before.get('/accounts');
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(TWO_FACTOR.enrolmentRequired);

      const login = await signIn(ctx, 'tf_forced');
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ two_factor: false, two_factor_enrol: true });
      const client = ctx.client(login.body.token);
      for (const [method, url] of [
        ['GET', '/accounts'],
        ['GET', '/dashboard/stats'],
        ['GET', '/profile/preferences'],
        ['POST', '/change-password'],
      ] as const) {
        const res = await client.request(method, url, method === 'POST' ? {} : undefined);
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.message).toBe(TWO_FACTOR.enrolmentRequired);
      }
      expect((await client.get('/user')).status).toBe(200);
      expect((await client.get('/profile/two-factor')).body.data).toMatchObject({ enabled: false, required: true });

      await enrol(client);
      expect((await client.get('/accounts')).status).toBe(200);
      expect((await client.get('/user')).body.two_factor_enrol).toBe(false);
      // Required: it cannot be turned off.
      const off = await client.post('/profile/two-factor/disable', { password: 'password123' });
      expect(off.status).toBe(409);
      expect(off.body.message).toBe(TWO_FACTOR.requiredCannotTurnOff);

      // Another role is not held.
      const free = await signIn(ctx, 'tf_free');
      expect(free.body.user.two_factor_enrol).toBe(false);
      expect((await ctx.client(free.body.token).get('/accounts')).status).toBe(200);
      // A non-admin cannot change the rule.
      expect((await ctx.client(free.body.token).put('/system-settings/two-factor-dealer', { two_factor_dealer: false })).status).toBe(403);
    } finally {
      await admin.put('/system-settings/two-factor-dealer', { two_factor_dealer: false });
    }
  });

  it('lets a parent reset a second factor within its subtree only, audited; never an administrator’s', async () => {
    const dealer = await makeUser(ctx, 'tf_child', 'dealer', 'reseller');
    const dealerClient = ctx.client(await tokenOf(ctx, 'tf_child'));
    await enrol(dealerClient);

    const stranger = await ctx.as('reseller2');
    expect((await stranger.post(`/dealers/${dealer.id}/two-factor/reset`)).status).toBe(404);
    const self = await ctx.as('dealer');
    expect((await self.post(`/dealers/${dealer.id}/two-factor/reset`)).status).toBe(403);
    const adminId = (await ctx.db.kysely.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirstOrThrow()).id;
    const admin = await ctx.as('admin');
    expect((await admin.post(`/managers/${adminId}/two-factor/reset`)).status).toBe(404);
    expect((await admin.post(`/dealers/${dealer.id + 100000}/two-factor/reset`)).status).toBe(404);
    expect((await dealerClient.get('/user')).body.two_factor).toBe(true);

    const parent = await ctx.as('reseller');
    const reset = await parent.post(`/dealers/${dealer.id}/two-factor/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe(TWO_FACTOR.resetDone);
    expect((await dealerClient.get('/user')).status).toBe(401);
    expect((await signIn(ctx, 'tf_child')).body.token).toEqual(expect.any(String));
    expect((await parent.post(`/dealers/${dealer.id}/two-factor/reset`)).status).toBe(409);
    const audit = await ctx.db.kysely.selectFrom('audit_logs').selectAll().where('entity_id', '=', dealer.id).where('action', '=', 'reset_two_factor').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].user_id).toBe((await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', 'reseller').executeTakeFirstOrThrow()).id);

    // The list shows who has a second factor.
    const listed = await parent.get(`/dealers/${dealer.id}`);
    expect(listed.body.data.two_factor).toBe(false);
  });

  it('keeps answering maintenance before asking for a code', async () => {
    await makeUser(ctx, 'tf_maint', 'dealer', 'reseller');
    await enrol(ctx.client(await tokenOf(ctx, 'tf_maint')));
    const admin = await ctx.as('admin');
    await admin.put('/system-settings/maintenance-mode', { maintenance_mode: true });
    try {
      const res = await signIn(ctx, 'tf_maint');
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(ACCESS.maintenance);
    } finally {
      await admin.put('/system-settings/maintenance-mode', { maintenance_mode: false });
    }
  });

  // Last: it ends the admin's sessions.
  it("resets the admin's second factor from the command line only", async () => {
    const admin = ctx.client(await tokenOf(ctx, 'admin'));
    await enrol(admin);
    const adminId = (await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    // No route reaches the admin's own: not as a manager, not by anyone.
    expect((await admin.post(`/managers/${adminId}/two-factor/reset`)).status).toBe(404);
    expect((await signIn(ctx, 'admin')).body.two_factor).toBeDefined();
    if (ctx.kind !== 'sqlite') return;
    const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(ctx.db.kysely);
    const file = rows.find((r) => r.name === 'main')!.file;
    const run = (username: string) =>
      promisify(execFile)('npx', ['tsx', 'server/cli.ts', 'reset-2fa', username], { env: { ...process.env, DATABASE_URL: `sqlite:${file}`, DEMO_MODE: 'false' } });
    const done = await run('admin');
    expect(done.stdout).toContain('Two-factor sign-in of admin reset');
    expect((await admin.get('/user')).status).toBe(401);
    expect((await signIn(ctx, 'admin')).body.token).toEqual(expect.any(String));
    expect((await run('admin')).stdout).toContain('has no second factor');
    const audit = await ctx.db.kysely.selectFrom('audit_logs').selectAll().where('entity_id', '=', adminId).where('action', '=', 'reset_two_factor').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].user_id).toBeNull();
  }, 60_000);
});
