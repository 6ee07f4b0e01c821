import { expect, it } from 'vitest';
import { AUTH, DEMO_USERNAMES, GENERAL, PROFILE, ROLES } from '../../src/contract';
import { hashPassword } from '../../server/auth/passwords';
import { hashToken } from '../../server/auth/tokens';
import { LOGIN_LIMIT } from '../../server/routes/auth';
import { insertUser } from '../../server/users';
import { type TestContext, describeEachDatabase, startTestServer, userId } from './harness';

/** A user of its own for a test that changes state (below `parent`), with password 'password123'. */
async function makeUser(ctx: TestContext, username: string, role: string, parent: string) {
  const parentRow = await ctx.db.kysely.selectFrom('users').selectAll().where('username', '=', parent).executeTakeFirstOrThrow();
  return insertUser(ctx.db.kysely, parentRow, { role, username, name: username, password_hash: await hashPassword('password123') });
}

async function login(ctx: TestContext, username: string, password: string) {
  return ctx.anonymous.post('/login', { username, password });
}

async function tokenOf(ctx: TestContext, username: string, password = 'password123'): Promise<string> {
  const res = await login(ctx, username, password);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

describeEachDatabase('auth', (ctx) => {
  it('signs a demo user in with any password and answers who am I', async () => {
    const res = await login(ctx, 'reseller', 'anything');
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.token.length).toBeGreaterThanOrEqual(32);
    expect(res.body.user).toMatchObject({ username: 'reseller', role: 'reseller' });
    const me = await ctx.client(res.body.token).get('/user');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('reseller');
  });

  it('answers 401 Unauthenticated. without a valid token', async () => {
    for (const client of [ctx.anonymous, ctx.client('not-a-token')]) {
      const res = await client.get('/user');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: AUTH.unauthenticated });
    }
    const malformedHeader = await ctx.anonymous.request('GET', '/user', undefined, { authorization: 'Token abc' });
    expect(malformedHeader.status).toBe(401);
  });

  it('refuses bad credentials and empty fields with 422 under username', async () => {
    const wrong = await login(ctx, 'manager2', 'wrong-password');
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.username).toEqual([AUTH.invalidCredentials]);
    const unknown = await login(ctx, 'nobody-here', 'password123');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.username).toEqual([AUTH.invalidCredentials]);
    const empty = await ctx.anonymous.post('/login', { username: '', password: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.username).toEqual([AUTH.fillAllFields]);
    expect(empty.body.errors.password).toEqual([AUTH.fillAllFields]);
    const missing = await ctx.anonymous.post('/login', {});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['password', 'username']);
  });

  it('stores tokens only hashed and refuses an expired one', async () => {
    const token = await tokenOf(ctx, 'reseller2');
    const rows = await ctx.db.kysely.selectFrom('auth_tokens').select(['token_hash', 'expires_at']).execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    const row = rows.find((r) => r.token_hash === hashToken(token));
    expect(row).toBeDefined();
    expect(Date.parse(row!.expires_at)).toBeGreaterThan(Date.now());
    expect((await ctx.client(token).get('/user')).status).toBe(200);
    await ctx.db.kysely
      .updateTable('auth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(token))
      .execute();
    const expired = await ctx.client(token).get('/user');
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ message: AUTH.unauthenticated });
  });

  it('refuses a disabled user at sign-in and its live tokens', async () => {
    const user = await makeUser(ctx, 'auth_disabled', 'dealer', 'reseller');
    const token = await tokenOf(ctx, 'auth_disabled');
    await ctx.db.kysely.updateTable('users').set({ status: 'inactive' }).where('id', '=', user.id).execute();
    expect((await ctx.client(token).get('/user')).status).toBe(401);
    const res = await login(ctx, 'auth_disabled', 'password123');
    expect(res.status).toBe(422);
    expect(res.body.errors.username).toEqual([AUTH.accountDisabled]);
  });

  it('logout revokes the token it was called with, and only that one', async () => {
    const first = await tokenOf(ctx, 'dealer');
    const second = await tokenOf(ctx, 'dealer');
    const out = await ctx.client(first).post('/logout');
    expect(out.status).toBe(204);
    const after = await ctx.client(first).get('/user');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: AUTH.unauthenticated });
    expect((await ctx.client(first).post('/logout')).status).toBe(401);
    expect((await ctx.client(second).get('/user')).status).toBe(200);
  });

  it('GET /user answers the current user without secrets; admin holds no credits', async () => {
    for (const role of ROLES) {
      const me = await (await ctx.as(role)).get('/user');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: await userId(ctx, role), username: role, role, is_active: true });
      expect(Object.keys(me.body).sort()).toEqual(
        ['bonus_credits', 'created_at', 'credits', 'id', 'is_active', 'name', 'phone', 'role', 'server_id', 'two_factor', 'two_factor_enrol', 'username'].sort(),
      );
      if (role === 'admin') expect(me.body.credits).toBeNull();
      else expect(typeof me.body.credits).toBe('number');
    }
    const manager = await (await ctx.as('manager')).get('/user');
    expect(manager.body.credits).toBeGreaterThan(0);
  });

  it('change-password validates with the profile messages', async () => {
    const client = await ctx.as('reseller2');
    const empty = await client.post('/change-password', {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({
      current_password: [PROFILE.allPasswordFields],
      new_password: [PROFILE.allPasswordFields],
      new_password_confirmation: [PROFILE.allPasswordFields],
    });
    const short = await client.post('/change-password', { current_password: 'password123', new_password: 'short', new_password_confirmation: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors.new_password).toEqual([PROFILE.passwordTooShort]);
    const mismatch = await client.post('/change-password', {
      current_password: 'password123',
      new_password: 'long-enough-1',
      new_password_confirmation: 'long-enough-2',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.new_password_confirmation).toEqual([PROFILE.passwordsMismatch]);
    expect(mismatch.body.message).toBe(PROFILE.passwordsMismatch);
    const wrongCurrent = await client.post('/change-password', {
      current_password: 'not-my-password',
      new_password: 'long-enough-1',
      new_password_confirmation: 'long-enough-1',
    });
    expect(wrongCurrent.status).toBe(422);
    expect(wrongCurrent.body.errors).toEqual({ current_password: [PROFILE.currentPasswordWrong] });
    // Nothing changed: the old password still signs in.
    expect((await login(ctx, 'reseller2', 'password123')).status).toBe(200);
  });

  it('change-password revokes the other sessions, keeps the calling one, and the new password is needed', async () => {
    const caller = await tokenOf(ctx, 'manager2');
    const other = await tokenOf(ctx, 'manager2');
    const bystander = await tokenOf(ctx, 'reseller2');
    const res = await ctx.client(caller).post('/change-password', {
      current_password: 'password123',
      new_password: 'brand-new-pass',
      new_password_confirmation: 'brand-new-pass',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(PROFILE.passwordChanged);
    expect((await ctx.client(caller).get('/user')).status).toBe(200);
    expect((await ctx.client(other).get('/user')).status).toBe(401);
    expect((await ctx.client(bystander).get('/user')).status).toBe(200);

    const old = await login(ctx, 'manager2', 'password123');
    expect(old.status).toBe(422);
    expect(old.body.errors.username).toEqual([AUTH.invalidCredentials]);
    const fresh = await tokenOf(ctx, 'manager2', 'brand-new-pass');

    // Back to the seeded password, so the rest of the suite sees the usual manager2.
    const back = await ctx.client(fresh).post('/change-password', {
      current_password: 'brand-new-pass',
      new_password: 'password123',
      new_password_confirmation: 'password123',
    });
    expect(back.status).toBe(200);
    expect((await ctx.client(caller).get('/user')).status).toBe(401);
  });

  it('update-profile requires a name, locks the username and stores the phone', async () => {
    const client = await ctx.as('dealer');
    const noName = await client.put('/update-profile', { name: '   ' });
    expect(noName.status).toBe(422);
    expect(noName.body.errors).toEqual({ name: [PROFILE.nameRequired] });
    const missing = await client.put('/update-profile', {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.name).toEqual([PROFILE.nameRequired]);

    const rename = await client.put('/update-profile', { name: 'Dan D.', username: 'someone-else' });
    expect(rename.status).toBe(422);
    expect(rename.body.errors).toEqual({ username: [PROFILE.usernameLocked] });
    expect(rename.body.message).toBe('Username cannot be changed');
    expect((await client.get('/user')).body).toMatchObject({ username: 'dealer', name: 'Dan Dealer' });

    const ok = await client.put('/update-profile', { name: '  Dan D.  ', username: 'dealer', phone: '+1 555 0100' });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe(PROFILE.updated);
    expect(ok.body.user).toMatchObject({ username: 'dealer', name: 'Dan D.', phone: '+1 555 0100' });
    expect((await client.get('/user')).body).toMatchObject({ name: 'Dan D.', phone: '+1 555 0100' });

    const cleared = await client.put('/update-profile', { name: 'Dan Dealer', phone: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.user.phone).toBeNull();

    const tooLong = await client.put('/update-profile', { name: 'Dan Dealer', phone: '1'.repeat(100) });
    expect(tooLong.status).toBe(422);
    expect(Object.keys(tooLong.body.errors)).toEqual(['phone']);
  });

  it('/user/manager-server answers the server of the caller’s manager for every role', async () => {
    const serverId = async (name: string) => (await ctx.db.kysely.selectFrom('servers').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const main = { id: await serverId('Main Server'), name: 'Main Server' };
    const backup = { id: await serverId('Backup Server'), name: 'Backup Server' };
    const expected: Record<string, { id: number; name: string } | null> = {
      admin: null,
      manager: main,
      reseller: main,
      dealer: main,
      manager2: backup,
      reseller2: backup,
      dealer2: backup,
    };
    for (const [username, server] of Object.entries(expected)) {
      const res = await (await ctx.as(username)).get('/user/manager-server');
      expect(res.status, username).toBe(200);
      if (server === null) expect(res.body, username).toEqual({ data: null });
      else expect(res.body.data, username).toMatchObject({ ...server, status: 'active' });
    }
  });

  it('in demo mode only the demo users skip the password check', async () => {
    for (const username of DEMO_USERNAMES) expect((await login(ctx, username, 'whatever-you-like')).status, username).toBe(200);
    for (const username of ['manager2', 'reseller2', 'dealer2']) {
      expect((await login(ctx, username, 'whatever-you-like')).status, username).toBe(422);
      expect((await login(ctx, username, 'password123')).status, username).toBe(200);
    }
  });

  it('in production mode the demo users need their real password, and /config says so', async () => {
    const { ctx: prod, stop } = await startTestServer(ctx.kind, { demoMode: false });
    try {
      const config = await prod.anonymous.get('/config');
      expect(config.status).toBe(200);
      expect(config.body).toMatchObject({ demo_mode: false, demo_users: [] });
      for (const username of DEMO_USERNAMES) {
        const wrong = await prod.anonymous.post('/login', { username, password: 'whatever-you-like' });
        expect(wrong.status, username).toBe(422);
        expect(wrong.body.errors.username).toEqual([AUTH.invalidCredentials]);
        const right = await prod.anonymous.post('/login', { username, password: 'password123' });
        expect(right.status, username).toBe(200);
      }
      // change-password checks the current password of a demo user too.
      const admin = await prod.as('admin');
      const res = await admin.post('/change-password', {
        current_password: 'not-it',
        new_password: 'long-enough-1',
        new_password_confirmation: 'long-enough-1',
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ current_password: [PROFILE.currentPasswordWrong] });
    } finally {
      await stop();
    }
  });

  it('rate limits failed sign-ins per IP and username with 429 and Retry-After', async () => {
    await makeUser(ctx, 'rl_target', 'dealer', 'reseller');
    await makeUser(ctx, 'rl_other', 'dealer', 'reseller');
    // Successful sign-ins are not counted.
    for (let i = 0; i < LOGIN_LIMIT.max + 2; i++) expect((await login(ctx, 'rl_target', 'password123')).status).toBe(200);

    for (let i = 0; i < LOGIN_LIMIT.max; i++) {
      const res = await login(ctx, 'rl_target', `wrong-${i}`);
      expect(res.status, `failure ${i + 1}`).toBe(422);
    }
    const limited = await login(ctx, 'rl_target', 'wrong-again');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: AUTH.tooManyAttempts });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_LIMIT.windowMs / 1000);
    // While limited, even the right password is refused: the limit is checked before the password.
    const blocked = await login(ctx, 'rl_target', 'password123');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();

    // Another username from the same address is unaffected.
    expect((await login(ctx, 'rl_other', 'wrong')).status).toBe(422);
    expect((await login(ctx, 'rl_other', 'password123')).status).toBe(200);

    // When the window has passed, the user may sign in again.
    await ctx.db.kysely
      .updateTable('rate_limits')
      .set({ window_start: Date.now() - LOGIN_LIMIT.windowMs - 1000 })
      .execute();
    expect((await login(ctx, 'rl_target', 'password123')).status).toBe(200);
  });

  it('counts parallel guesses before checking them: at most the limit gets its password checked', async () => {
    await makeUser(ctx, 'rl_burst', 'dealer', 'reseller');
    const attempts = [...Array.from({ length: 30 }, (_, i) => login(ctx, 'rl_burst', `guess-${i}`)), login(ctx, 'rl_burst', 'password123')];
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(LOGIN_LIMIT.max);
    expect(statuses.every((s) => [200, 422, 429].includes(s))).toBe(true);
  });

  it('guards routes by the matched route, whatever the spelling of the URL', async () => {
    for (const path of ['/%61pi/v1/system-settings', '/api/v1/%73ervers', '/%61%70%69/v1/user']) {
      const res = await ctx.anonymous.request('GET', path);
      expect(res.status, path).toBe(401);
    }
    const dealer = await ctx.as('dealer');
    expect((await dealer.request('GET', '/%61pi/v1/system-settings')).status).toBe(403);
  });

  it('GET /health answers 200 with the database kind', async () => {
    const res = await ctx.anonymous.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: ctx.kind });
  });

  it('GET /config tells the panel it is in demo mode, without a token', async () => {
    const res = await ctx.anonymous.get('/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ demo_mode: true, demo_users: [...DEMO_USERNAMES], maintenance_mode: false });
    expect(res.body).toHaveProperty('theme');
  });

  it('an unknown API path is a JSON 404', async () => {
    const res = await ctx.anonymous.get('/no-such-endpoint');
    expect(res.status).toBe(404);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.message).not.toBe(GENERAL.serverError);
  });
});
