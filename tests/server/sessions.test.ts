/**
 * Sessions and the sign-in history (docs/security.md#sessions) on SQLite and PostgreSQL: the list with
 * the current session marked, ending one or all others, someone else's session (404), a password
 * change ending the others, failures recorded from distinct addresses (the client binds 127.0.0.x),
 * the last sign-in on a parent's member details, last used written at most once a minute, pruning.
 */
import http from 'node:http';
import { generate } from 'otplib';
import { expect, it } from 'vitest';
import { SESSIONS } from '../../src/contract';
import { pruneSignIns } from '../../server/auth/signIns';
import { describeUserAgent } from '../../server/auth/userAgent';
import { PASSWORD, createBranch } from './hierarchyFixtures';
import { type TestContext, describeEachDatabase } from './harness';

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A call sent from the loopback address `from` with a user agent of its own. */
function callFrom(
  ctx: TestContext,
  from: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const url = new URL(`${ctx.baseUrl}/api/v1${path}`);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const sent: http.OutgoingHttpHeaders = { ...headers };
  if (payload !== undefined) Object.assign(sent, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress: from, agent: false, headers: sent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function signInFrom(ctx: TestContext, from: string, username: string, userAgent: string, password = PASSWORD): Promise<string> {
  const res = await callFrom(ctx, from, 'POST', '/login', { username, password }, { 'user-agent': userAgent });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

describeEachDatabase('sessions', (ctx) => {
  it('parses user agents into a readable browser and system', () => {
    expect(describeUserAgent(FIREFOX)).toBe('Firefox 133 on Windows');
    expect(describeUserAgent(SAFARI)).toBe('Safari 17 on iPhone');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toBe(
      'Edge 131 on Linux',
    );
    expect(describeUserAgent('curl/8.5.0')).toBe('curl 8');
    expect(describeUserAgent('')).toBeNull();
  });

  it('lists the user’s sessions with address and browser, the current one marked, and ends one of them', async () => {
    const { dealer } = await createBranch(ctx);
    const first = await signInFrom(ctx, '127.0.0.2', dealer.username, FIREFOX);
    const second = await signInFrom(ctx, '127.0.0.3', dealer.username, SAFARI);
    const list = await ctx.client(second).get('/sessions');
    expect(list.status).toBe(200);
    // The fixture's own session plus the two above.
    expect(list.body.data).toHaveLength(3);
    const current = list.body.data.filter((s: any) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ ip_address: '127.0.0.3', browser: 'Safari 17 on iPhone' });
    const other = list.body.data.find((s: any) => s.ip_address === '127.0.0.2');
    expect(other).toMatchObject({ browser: 'Firefox 133 on Windows', current: false });

    expect((await ctx.client(second).delete(`/sessions/${other.id}`)).status).toBe(204);
    expect((await ctx.client(first).get('/user')).status).toBe(401);
    // Ended already: nothing to end.
    expect((await ctx.client(second).delete(`/sessions/${other.id}`)).status).toBe(404);
    expect((await ctx.client(second).get('/sessions')).body.data).toHaveLength(2);
  });

  it('answers 404 for another user’s session and leaves it alive', async () => {
    const { reseller, dealer } = await createBranch(ctx);
    const victim = await signInFrom(ctx, '127.0.0.2', dealer.username, FIREFOX);
    const [row] = (await ctx.client(victim).get('/sessions')).body.data.filter((s: any) => s.current);
    // Not even its parent ends it.
    expect((await reseller.client.delete(`/sessions/${row.id}`)).status).toBe(404);
    expect((await (await ctx.as('admin')).delete(`/sessions/${row.id}`)).status).toBe(404);
    expect((await ctx.client(victim).get('/user')).status).toBe(200);
  });

  it('ends all other sessions and keeps the current one', async () => {
    const { dealer } = await createBranch(ctx);
    const others = [await signInFrom(ctx, '127.0.0.2', dealer.username, FIREFOX), await signInFrom(ctx, '127.0.0.3', dealer.username, SAFARI)];
    const res = await dealer.client.post('/sessions/end-others');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: SESSIONS.endedOthers(2), ended: 2 });
    for (const token of others) expect((await ctx.client(token).get('/user')).status).toBe(401);
    const left = await dealer.client.get('/sessions');
    expect(left.body.data).toHaveLength(1);
    expect(left.body.data[0].current).toBe(true);
    // Again: nothing left to end.
    expect((await dealer.client.post('/sessions/end-others')).body.ended).toBe(0);
  });

  it('ends the other sessions when the password changes', async () => {
    const { dealer } = await createBranch(ctx);
    const other = await signInFrom(ctx, '127.0.0.2', dealer.username, FIREFOX);
    const res = await dealer.client.post('/change-password', {
      current_password: PASSWORD,
      new_password: 'another-pass-123',
      new_password_confirmation: 'another-pass-123',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await ctx.client(other).get('/user')).status).toBe(401);
    expect((await dealer.client.get('/sessions')).body.data).toHaveLength(1);
  });

  it('ends the other sessions when the second factor is turned on', async () => {
    const { dealer } = await createBranch(ctx);
    const other = await signInFrom(ctx, '127.0.0.2', dealer.username, FIREFOX);
    const { secret } = (await dealer.client.post('/profile/two-factor/setup')).body.data;
    expect((await dealer.client.post('/profile/two-factor/enable', { code: await generate({ secret }) })).status).toBe(200);
    expect((await ctx.client(other).get('/user')).status).toBe(401);
    expect((await dealer.client.get('/user')).status).toBe(200);
  });

  it('records sign-ins in the history: failures from distinct addresses, a wrong two-factor code, the success', async () => {
    const { dealer } = await createBranch(ctx);
    expect((await callFrom(ctx, '127.0.0.2', 'POST', '/login', { username: dealer.username, password: 'wrong-1' }, { 'user-agent': FIREFOX })).status).toBe(422);
    expect((await callFrom(ctx, '127.0.0.3', 'POST', '/login', { username: dealer.username, password: 'wrong-2' }, { 'user-agent': SAFARI })).status).toBe(422);
    const { secret } = (await dealer.client.post('/profile/two-factor/setup')).body.data;
    expect((await dealer.client.post('/profile/two-factor/enable', { code: await generate({ secret }) })).status).toBe(200);
    const challenged = await callFrom(ctx, '127.0.0.4', 'POST', '/login', { username: dealer.username, password: PASSWORD });
    expect(challenged.body.two_factor).toBeDefined();
    const wrongCode = await callFrom(ctx, '127.0.0.4', 'POST', '/login/two-factor', { challenge: challenged.body.two_factor.challenge, code: '000000' });
    expect(wrongCode.status).toBe(422);
    await ctx.db.kysely.updateTable('user_two_factor').set({ last_step: null }).where('user_id', '=', dealer.id).execute();
    const code = await generate({ secret });
    const signedIn = await callFrom(ctx, '127.0.0.4', 'POST', '/login/two-factor', { challenge: challenged.body.two_factor.challenge, code }, { 'user-agent': FIREFOX });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);

    const history = await ctx.client(signedIn.body.token).get('/sign-in-history');
    expect(history.status).toBe(200);
    const rows = history.body.data.map((r: any) => [r.outcome, r.reason, r.ip_address]);
    expect(rows.slice(0, 4)).toEqual([
      ['success', 'totp', '127.0.0.4'],
      ['failure', 'wrong_code', '127.0.0.4'],
      ['failure', 'wrong_password', '127.0.0.3'],
      ['failure', 'wrong_password', '127.0.0.2'],
    ]);
    expect(history.body.data[2].browser).toBe('Safari 17 on iPhone');
    // The fixture's own sign-in comes last.
    expect(history.body.meta).toMatchObject({ total: 5, current_page: 1, total_exact: true });

    const paged = await ctx.client(signedIn.body.token).get('/sign-in-history?page=2&per_page=2');
    expect(paged.body.data.map((r: any) => r.reason)).toEqual(['wrong_password', 'wrong_password']);
    expect(paged.body.meta).toMatchObject({ total: 5, current_page: 2, per_page: 2, last_page: 3, from: 3, to: 4 });
    // The list conventions: a bad page is a 422, a page size over the cap is the cap.
    expect((await ctx.client(signedIn.body.token).get('/sign-in-history?page=0')).status).toBe(422);
    expect((await ctx.client(signedIn.body.token).get('/sign-in-history?filter[outcome]=failure')).body.meta.total).toBe(3);
    // Another user's history is not reachable: each sees its own.
    const own = await (await ctx.as('dealer')).get('/sign-in-history');
    expect(own.body.data.every((r: any) => r.ip_address === null || r.ip_address.startsWith('127.'))).toBe(true);
    expect(own.body.data.some((r: any) => r.reason === 'wrong_code')).toBe(false);
  });

  it('shows parents the last sign-in of their members', async () => {
    const { reseller, dealer } = await createBranch(ctx);
    await signInFrom(ctx, '127.0.0.3', dealer.username, FIREFOX);
    const shown = await reseller.client.get(`/dealers/${dealer.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ last_login_ip: '127.0.0.3', last_login_at: expect.any(String) });
    const listed = await reseller.client.get('/dealers');
    expect(listed.body.data.find((d: any) => d.id === dealer.id).last_login_ip).toBe('127.0.0.3');
    // A failure does not count as a sign-in.
    await callFrom(ctx, '127.0.0.2', 'POST', '/login', { username: dealer.username, password: 'wrong' });
    expect((await reseller.client.get(`/dealers/${dealer.id}`)).body.data.last_login_ip).toBe('127.0.0.3');
  });

  it('writes last used at most once a minute', async () => {
    const { dealer } = await createBranch(ctx);
    const token = await signInFrom(ctx, '127.0.0.2', dealer.username, FIREFOX);
    const rowOf = async () => (await ctx.client(token).get('/sessions')).body.data.find((s: any) => s.current);
    const first = await rowOf();
    expect(first.last_used_at).toEqual(expect.any(String));
    const old = new Date(Date.now() - 5 * 60_000).toISOString();
    await ctx.db.kysely.updateTable('auth_tokens').set({ last_used_at: old }).where('id', '=', first.id).execute();
    const touched = await rowOf();
    expect(Date.parse(touched.last_used_at)).toBeGreaterThan(Date.parse(old));
    const recent = new Date(Date.now() - 10_000).toISOString();
    await ctx.db.kysely.updateTable('auth_tokens').set({ last_used_at: recent }).where('id', '=', first.id).execute();
    expect((await rowOf()).last_used_at).toBe(recent);
  });

  it('prunes sign-in events older than 90 days', async () => {
    const { dealer } = await createBranch(ctx);
    const old = new Date(Date.now() - 91 * 86_400_000).toISOString();
    await ctx.db.kysely
      .insertInto('sign_in_events')
      .values({ user_id: dealer.id, outcome: 'failure', reason: 'wrong_password', ip_address: '127.0.0.9', user_agent: null, created_at: old })
      .execute();
    expect((await dealer.client.get('/sign-in-history')).body.meta.total).toBe(2);
    await pruneSignIns(ctx.db.kysely);
    const left = await dealer.client.get('/sign-in-history');
    expect(left.body.meta.total).toBe(1);
    expect(left.body.data[0].outcome).toBe('success');
  });

  it('answers 404 for a session id that does not exist and 401 without a session', async () => {
    const { dealer } = await createBranch(ctx);
    expect((await dealer.client.delete('/sessions/999999')).status).toBe(404);
    const anonymous = await ctx.anonymous.get('/sessions');
    expect(anonymous.status).toBe(401);
  });
});
