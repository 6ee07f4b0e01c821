/**
 * Personal API tokens: created once and stored hashed, scoped on every route of the route table,
 * bound to their allowed addresses, refused once revoked or expired, never beyond their user (role,
 * branch, security settings), counted per token, and named in the audit log.
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { ACCESS, API_TOKENS, API_TOKENS_PER_USER, API_TOKEN_REQUESTS_PER_MINUTE, AUTH, type ApiTokenScope, type Role } from '../../src/contract';
import { createApiToken } from '../../server/auth/apiTokens';
import { tokenNeedOf } from '../../server/http/apiTokenGuard';
import { DERIVED_TIMEOUT, USER_OF, allowed, apiRoutes, fillPath, isPublic, label, readsFirst, takesBody } from './apiSurface';
import { type TestContext, describeEachDatabase, userId } from './harness';
import { createBranch, uniqueName } from './hierarchyFixtures';

interface Answer {
  status: number;
  body: any;
}

/** A request with a bearer token from the loopback address `from` (the client binds it). */
function requestFrom(ctx: TestContext, from: string, method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const url = new URL(`${ctx.baseUrl}/api/v1${path}`);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${token}` };
  if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress: from, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** A token minted straight into the table (the derived walk needs more than one user's limit). */
async function mint(ctx: TestContext, username: string, scopes: ApiTokenScope[], allowedAddresses: string[] = []) {
  const id = await userId(ctx, username);
  // Older tokens of the walk are spent: keep the user under the limit.
  await ctx.db.kysely.deleteFrom('api_tokens').where('user_id', '=', id).where('name', '=', 'walk').execute();
  const { token, entry } = await createApiToken(ctx.db.kysely, id, { name: 'walk', scopes, expiresInDays: 1, allowedAddresses });
  return { token, entry, client: ctx.client(token) };
}

const SCOPE_SETS: Array<{ role: Role; scopes: ApiTokenScope[] }> = [
  { role: 'admin', scopes: ['read'] },
  { role: 'dealer', scopes: ['read'] },
  { role: 'reseller', scopes: ['read', 'accounts'] },
  { role: 'reseller', scopes: ['read', 'credits'] },
  { role: 'admin', scopes: ['read', 'accounts', 'credits'] },
];

describeEachDatabase('API tokens', (ctx) => {
  it('states what a token needs on every route: reads read, account work accounts, credit moves credits, security a session', () => {
    const needs = Object.fromEntries(
      apiRoutes(ctx)
        .filter((r) => !isPublic(r))
        .map((r) => [label(r), tokenNeedOf(r.method, r.url, r.config)]),
    );
    const sessionReads = ['GET /api/v1/api-tokens', 'GET /api/v1/sessions', 'GET /api/v1/sign-in-history'];
    for (const [route, need] of Object.entries(needs)) {
      if (route.startsWith('GET ')) expect(need, route).toBe(sessionReads.includes(route) ? 'session' : 'read');
    }
    expect(needs).toMatchObject({
      'POST /api/v1/accounts': 'accounts',
      'POST /api/v1/accounts/:id/credits': 'accounts',
      'POST /api/v1/accounts/bulk-renew': 'accounts',
      'POST /api/v1/accounts/move': 'accounts',
      'PATCH /api/v1/resellers/:id': 'accounts',
      'POST /api/v1/resellers/:id/credits': 'credits',
      'POST /api/v1/dealers/:id/credits/recover-from-history': 'credits',
      'POST /api/v1/managers/:id/credits': 'credits',
      'GET /api/v1/api-tokens': 'session',
      'POST /api/v1/api-tokens': 'session',
      'DELETE /api/v1/api-tokens/:id': 'session',
      'POST /api/v1/change-password': 'session',
      'PUT /api/v1/update-profile': 'session',
      'POST /api/v1/profile/two-factor/setup': 'session',
      'POST /api/v1/profile/two-factor/disable': 'session',
      'POST /api/v1/dealers/:id/two-factor/reset': 'session',
      'POST /api/v1/logout': 'session',
      'POST /api/v1/sessions/end-others': 'session',
      'POST /api/v1/view-as/:id': 'session',
      'POST /api/v1/accounts/bulk/:id/apply': 'accounts',
      'PUT /api/v1/system-settings/:key': 'session',
    });
  });

  it('documents token use and each operation’s scope in the OpenAPI', async () => {
    const res = await ctx.anonymous.get('/api/docs/json');
    expect(res.status).toBe(200);
    expect(res.body.components.securitySchemes.bearer.description).toContain('Authorization: Bearer cpt_');
    expect(res.body.paths['/api/v1/accounts'].post['x-token-scope']).toBe('accounts');
    expect(res.body.paths['/api/v1/accounts'].get['x-token-scope']).toBe('read');
    expect(res.body.paths['/api/v1/resellers/{id}/credits'].post['x-token-scope']).toBe('credits');
    expect(res.body.paths['/api/v1/api-tokens'].post['x-token-scope']).toBe('session');
    expect(res.body.paths['/api/v1/accounts'].post.description).toContain('accounts');
    // Every operation that takes a bearer token states its scope.
    const publicPaths = new Set(
      apiRoutes(ctx)
        .filter(isPublic)
        .map((r) => r.url.replace(/:([A-Za-z_]\w*)(\([^)]*\))?/g, '{$1}')),
    );
    const missing: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(res.body.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!publicPaths.has(path) && !operation['x-token-scope']) missing.push(`${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each(SCOPE_SETS)(
    'a $role token with $scopes gets exactly what its scopes and role allow on every route',
    async ({ role, scopes }) => {
      const failures: string[] = [];
      const uid = await userId(ctx, USER_OF[role]);
      for (const route of readsFirst(apiRoutes(ctx)).filter((r) => !isPublic(r))) {
        // A token of its own per request: a call that revokes or signs out cannot spoil the next.
        const { client } = await mint(ctx, USER_OF[role], scopes);
        const url = fillPath(route.url, uid);
        const res = await client.request(route.method, url, takesBody(route.method) ? {} : undefined);
        const where = `${route.method} ${url} with ${role} [${scopes}]`;
        const got = `${res.status} ${JSON.stringify(res.body)?.slice(0, 160)}`;
        const need = tokenNeedOf(route.method, route.url, route.config);
        if (res.status >= 500) failures.push(`${where}: server error ${got}`);
        else if (!allowed(route, role)) {
          if (res.status !== 403 || res.body?.message !== ACCESS.forbidden) failures.push(`${where}: expected the role's 403, got ${got}`);
        } else if (need === 'session') {
          if (res.status !== 403 || res.body?.message !== API_TOKENS.sessionOnly) failures.push(`${where}: expected 403 session only, got ${got}`);
        } else if (!scopes.includes(need)) {
          if (res.status !== 403 || res.body?.message !== API_TOKENS.scopeMissing(need)) failures.push(`${where}: expected 403 missing ${need}, got ${got}`);
        } else if (res.status === 401 || res.status === 403) {
          failures.push(`${where}: within scope and role but refused: ${got}`);
        }
      }
      expect(failures).toEqual([]);
    },
    DERIVED_TIMEOUT,
  );

  it('is created once: answered in full a single time, stored as its SHA-256, listed by prefix with its scopes and dates', async () => {
    const reseller = await ctx.as('reseller');
    const created = await reseller.post('/api-tokens', { name: 'deploy script', scopes: ['accounts'], expires_in_days: 7 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { token, data } = created.body;
    expect(token).toMatch(/^cpt_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(token.startsWith(`${data.prefix}_`)).toBe(true);
    expect(data).toMatchObject({ name: 'deploy script', scopes: ['read', 'accounts'], allowed_addresses: [], last_used_at: null, last_used_ip: null });
    expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBe(7 * 86_400_000);
    const row = await ctx.db.kysely.selectFrom('api_tokens').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token.slice(data.prefix.length + 1));
    const list = await reseller.get('/api-tokens');
    expect(list.status).toBe(200);
    const listed = list.body.data.find((t: { id: number }) => t.id === data.id);
    expect(listed).toEqual(data);
    expect(JSON.stringify(list.body)).not.toContain(token);
    // The default is read only.
    const plain = await reseller.post('/api-tokens', { name: 'reader' });
    expect(plain.status).toBe(201);
    expect(plain.body.data.scopes).toEqual(['read']);
  });

  it('refuses bad input per field: a blank name, an unknown scope, an address that is not one, a lifetime past a year', async () => {
    const dealer = await ctx.as('dealer');
    const res = await dealer.post('/api-tokens', { name: ' ', scopes: ['admin'], expires_in_days: 400, allowed_addresses: ['10.0.0.0/33', 'example.com'] });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toEqual([API_TOKENS.nameRequired]);
    expect(res.body.errors.expires_in_days).toEqual([API_TOKENS.expiryInvalid]);
    expect(res.body.errors['allowed_addresses.0']).toEqual([API_TOKENS.addressInvalid('10.0.0.0/33')]);
    expect(res.body.errors['allowed_addresses.1']).toEqual([API_TOKENS.addressInvalid('example.com')]);
    expect(Object.keys(res.body.errors).some((field) => field.startsWith('scopes'))).toBe(true);
  });

  it('stops at the per-user limit of live tokens (409), and an expired one does not count', async () => {
    const { dealer } = await createBranch(ctx);
    for (let i = 0; i < API_TOKENS_PER_USER; i++) expect((await dealer.client.post('/api-tokens', { name: `t${i}` })).status).toBe(201);
    const over = await dealer.client.post('/api-tokens', { name: 'one too many' });
    expect(over.status).toBe(409);
    expect(over.body.message).toBe(API_TOKENS.tooMany);
    await ctx.db.kysely.updateTable('api_tokens').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('user_id', '=', dealer.id).where('name', '=', 't0').execute();
    expect((await dealer.client.post('/api-tokens', { name: 'replacement' })).status).toBe(201);
  });

  it('a read-only token reads as its user and is refused every change; its role and subtree still apply', async () => {
    const { reseller, dealer } = await createBranch(ctx, { reseller: 20 });
    const token = (await dealer.client.post('/api-tokens', { name: 'reader' })).body.token as string;
    const api = ctx.client(token);
    const me = await api.get('/user');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(dealer.username);
    expect((await api.get('/accounts')).status).toBe(200);
    const create = await api.post('/accounts', { login: uniqueName('acc'), full_name: 'X', password: 'x', mac_address: '00:1A:79:00:00:01', months: 1 });
    expect(create.status).toBe(403);
    expect(create.body.message).toBe(API_TOKENS.scopeMissing('accounts'));
    // Another branch's member is out of scope: 404, as for the user's session.
    const outside = await api.get(`/accounts/${999_999}`);
    expect(outside.status).toBe(404);
    // A reseller's token with every scope still cannot do what a reseller cannot.
    const all = (await reseller.client.post('/api-tokens', { name: 'all', scopes: ['accounts', 'credits'] })).body.token as string;
    const asReseller = ctx.client(all);
    expect((await asReseller.post('/managers', {})).status).toBe(403);
    const moved = await asReseller.post(`/dealers/${dealer.id}/credits`, { action: 'renew', credits: 10 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });

  it('an accounts token creates accounts but moves no credits; a credits token the reverse', async () => {
    const { reseller, dealer } = await createBranch(ctx, { reseller: 50 });
    const accounts = ctx.client((await reseller.client.post('/api-tokens', { name: 'accounts', scopes: ['accounts'] })).body.token);
    const credits = ctx.client((await reseller.client.post('/api-tokens', { name: 'credits', scopes: ['credits'] })).body.token);
    const account = { login: uniqueName('acc'), full_name: 'Token Account', password: 'pw', mac_address: '00:1A:79:00:10:01', months: 1 };
    expect((await credits.post('/accounts', account)).body.message).toBe(API_TOKENS.scopeMissing('accounts'));
    const made = await accounts.post('/accounts', account);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await accounts.post(`/dealers/${dealer.id}/credits`, { action: 'renew', credits: 10 })).body.message).toBe(API_TOKENS.scopeMissing('credits'));
    const moved = await credits.post(`/dealers/${dealer.id}/credits`, { action: 'renew', credits: 10 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });

  it('cannot manage tokens, passwords, second factors or the profile, nor sign out a session', async () => {
    const dealer = await ctx.as('dealer');
    const api = ctx.client((await dealer.post('/api-tokens', { name: 'all scopes', scopes: ['accounts', 'credits'] })).body.token);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api-tokens'],
      ['POST', '/api-tokens', { name: 'child' }],
      ['DELETE', '/api-tokens/1'],
      ['POST', '/change-password', { current_password: 'password123', new_password: 'newpassword1', new_password_confirmation: 'newpassword1' }],
      ['PUT', '/update-profile', { name: 'Renamed' }],
      ['PATCH', '/profile/preferences', { color_scheme: 'dark' }],
      ['POST', '/profile/two-factor/setup', {}],
      ['POST', '/logout', {}],
    ];
    for (const [method, path, body] of calls) {
      const res = await api.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toBe(API_TOKENS.sessionOnly);
    }
    expect((await ctx.db.kysely.selectFrom('api_tokens').select('id').where('name', '=', 'child').execute()).length).toBe(0);
  });

  it('revoked or expired: 401 at once; a user cannot revoke another user’s token (404)', async () => {
    const reseller = await ctx.as('reseller');
    const dealer = await ctx.as('dealer');
    const created = (await dealer.post('/api-tokens', { name: 'short lived' })).body;
    const api = ctx.client(created.token);
    expect((await api.get('/user')).status).toBe(200);
    const foreign = await reseller.delete(`/api-tokens/${created.data.id}`);
    expect(foreign.status).toBe(404);
    expect((await api.get('/user')).status).toBe(200);
    expect((await dealer.delete(`/api-tokens/${created.data.id}`)).status).toBe(204);
    const revoked = await api.get('/user');
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe(AUTH.unauthenticated);
    expect((await dealer.delete(`/api-tokens/${created.data.id}`)).status).toBe(404);

    const other = (await dealer.post('/api-tokens', { name: 'expiring' })).body;
    await ctx.db.kysely
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', other.data.id)
      .execute();
    expect((await ctx.client(other.token).get('/user')).status).toBe(401);
    // A made-up token of the right shape is refused too.
    expect((await ctx.client(`${other.data.prefix}_${'x'.repeat(43)}`).get('/user')).status).toBe(401);
  });

  it('with allowed addresses: answers from an address in a range, refuses one outside it (IPv4 and IPv6 ranges)', async () => {
    const reseller = await ctx.as('reseller');
    const bound = (await reseller.post('/api-tokens', { name: 'bound', allowed_addresses: ['127.0.0.2/32', '2001:db8::/32'] })).body;
    expect(bound.data.allowed_addresses).toEqual(['127.0.0.2/32', '2001:db8::/32']);
    const inside = await requestFrom(ctx, '127.0.0.2', 'GET', '/user', bound.token);
    expect(inside.status, JSON.stringify(inside.body)).toBe(200);
    const outside = await requestFrom(ctx, '127.0.0.3', 'GET', '/user', bound.token);
    expect(outside.status).toBe(403);
    expect(outside.body.message).toBe(API_TOKENS.addressRefused);
    const sixOnly = (await reseller.post('/api-tokens', { name: 'v6 only', allowed_addresses: ['2001:db8::/32'] })).body;
    expect((await requestFrom(ctx, '127.0.0.2', 'GET', '/user', sixOnly.token)).status).toBe(403);
    const plainAddress = (await reseller.post('/api-tokens', { name: 'one address', allowed_addresses: ['127.0.0.3'] })).body;
    expect((await requestFrom(ctx, '127.0.0.3', 'GET', '/user', plainAddress.token)).status).toBe(200);
    expect((await requestFrom(ctx, '127.0.0.2', 'GET', '/user', plainAddress.token)).status).toBe(403);
    // The list tells when and from where it was last used.
    const listed = (await reseller.get('/api-tokens')).body.data.find((t: { id: number }) => t.id === bound.data.id);
    expect(listed.last_used_ip).toBe('127.0.0.2');
    expect(listed.last_used_at).not.toBeNull();
  });

  it('stops when a user above is suspended, and when its own user is; resumes when active again', async () => {
    const { manager, reseller, dealer } = await createBranch(ctx);
    const token = (await dealer.client.post('/api-tokens', { name: 'branch' })).body.token as string;
    const api = ctx.client(token);
    expect((await api.get('/accounts')).status).toBe(200);
    expect((await manager.client.patch(`/resellers/${reseller.id}`, { status: 'suspended' })).status).toBe(200);
    const stopped = await api.get('/accounts');
    expect(stopped.status).toBe(401);
    expect(stopped.body.message).toBe(AUTH.branchSuspended);
    expect((await manager.client.patch(`/resellers/${reseller.id}`, { status: 'active' })).status).toBe(200);
    const resumed = await api.get('/accounts');
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect((await manager.client.patch(`/dealers/${dealer.id}`, { status: 'suspended' })).status).toBe(200);
    expect((await api.get('/accounts')).status).toBe(401);
  });

  it('names the token in the audit log of what it did; a session’s entries name none', async () => {
    const { dealer } = await createBranch(ctx, { dealer: 10 });
    const created = (await dealer.client.post('/api-tokens', { name: 'billing sync', scopes: ['accounts'] })).body;
    const api = ctx.client(created.token);
    const made = await api.post('/accounts', { login: uniqueName('acc'), full_name: 'Audited', password: 'pw', mac_address: '00:1A:79:00:20:01', months: 1 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const entries = await ctx.db.kysely.selectFrom('audit_logs').selectAll().where('username', '=', dealer.username).orderBy('id').execute();
    const byToken = entries.filter((e) => e.api_token !== null);
    expect(byToken.length).toBeGreaterThan(0);
    for (const entry of byToken) expect(entry.api_token).toBe(`${created.data.prefix} billing sync`);
    expect(byToken.some((e) => e.module === 'accounts')).toBe(true);
    // The token's creation was a session's act, and is recorded with the token's name and prefix.
    const creation = entries.find((e) => e.module === 'api_tokens' && e.action === 'create');
    expect(creation?.api_token).toBeNull();
    expect(creation?.new_values).toContain(created.data.prefix);
    // The admin reads it in the audit log.
    const log = await (await ctx.as('admin')).get(`/audit-logs?filter[username]=${dealer.username}&per_page=100`);
    expect(log.status).toBe(200);
    expect(log.body.data.some((e: { api_token: string | null }) => e.api_token === `${created.data.prefix} billing sync`)).toBe(true);
  });

  it('counts its requests per token: past the limit a minute, 429', async () => {
    const { dealer } = await createBranch(ctx);
    const created = (await dealer.client.post('/api-tokens', { name: 'busy' })).body;
    const api = ctx.client(created.token);
    expect((await api.get('/user')).status).toBe(200);
    await ctx.db.kysely.updateTable('rate_limits').set({ hits: API_TOKEN_REQUESTS_PER_MINUTE }).where('key', '=', `api-token:${created.data.id}`).execute();
    const limited = await api.get('/user');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(API_TOKENS.rateLimited);
    // The user's session is not the token: it goes on.
    expect((await dealer.client.get('/user')).status).toBe(200);
  });
});
