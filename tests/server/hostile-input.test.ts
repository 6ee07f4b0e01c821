/**
 * Inputs an attacker picks on purpose (docs/reliability.md): object-prototype names in list queries, NUL and other
 * control bytes, lone surrogates and numbers in odd notations. Each is a clean 4xx JSON answer on
 * SQLite and PostgreSQL, never a 500.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { GENERAL } from '../../src/contract';
import { errorHandler } from '../../server/http/errors';
import { DERIVED_TIMEOUT, USER_OF, apiRoutes, expectClientErrorShape, fillPath, firstAllowedRole, freshClient, isPublic, label } from './apiSurface';
import { describeEachDatabase } from './harness';
import { PROTOTYPE_NAMES } from './hostileValues';

describeEachDatabase('hostile input: prototype names', (ctx) => {
  it(
    'answers list queries naming prototype properties with 400/422 on every GET route, never 500',
    async () => {
      let lists = 0;
      for (const route of apiRoutes(ctx).filter((r) => r.method === 'GET')) {
        const role = isPublic(route) ? null : firstAllowedRole(route);
        if (!isPublic(route) && !role) continue;
        const client = role ? await freshClient(ctx, USER_OF[role]) : ctx.anonymous;
        const url = fillPath(route.url, 'userId' in client ? (client as { userId: number }).userId : 1);
        const baseline = await client.get(url);
        const isList = baseline.status === 200 && typeof baseline.body?.meta?.current_page === 'number';
        if (isList) lists++;
        for (const name of PROTOTYPE_NAMES) {
          for (const query of [`sort=${name}`, `sort=-${name}`, `sort_by=${name}`, `filter[${name}]=1`, `${name}=1`, `order=${name}`, `filter[search]=${name}`]) {
            const res = await client.get(`${url}?${query}`);
            const where = `${label(route)} ?${query}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`;
            expect(res.status, where).toBeLessThan(500);
            if (res.status !== 200) expectClientErrorShape(res, where);
            if (isList && (query.startsWith('sort') || (query.startsWith('filter[') && !query.startsWith('filter[search]')))) {
              expect(res.status, where).toBe(400);
              expect(res.body.message, where).toMatch(/not allowed|This list sorts with/);
            }
          }
        }
      }
      expect(lists).toBeGreaterThan(5);
    },
    DERIVED_TIMEOUT,
  );
});

const NUL = '\u0000';
const LONE_SURROGATE = '\ud800';

describeEachDatabase('hostile input: control characters and broken Unicode', (ctx) => {
  const invalid = (res: { status: number; body: any }, field: string, where: string) => {
    expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBe(422);
    expect(res.body.errors?.[field], `${where}: errors.${field} in ${JSON.stringify(res.body)}`).toEqual([GENERAL.invalidCharacters]);
    expect(res.body.message).toBe(GENERAL.invalidCharacters);
  };

  it('refuses NUL, control characters and lone surrogates in sign-in, before any account is looked up', async () => {
    for (const bad of [NUL, '\u0007', '\u001b[31m', '\u007f', '\u0085', LONE_SURROGATE, '\udc00']) {
      invalid(await ctx.anonymous.post('/login', { username: `admin${bad}`, password: 'x' }), 'username', `login username ${JSON.stringify(bad)}`);
      invalid(await ctx.anonymous.post('/login', { username: 'admin', password: `pw${bad}` }), 'password', `login password ${JSON.stringify(bad)}`);
    }
  });

  it('refuses them in list queries, profile updates and creates, naming the field', async () => {
    const admin = await ctx.as('admin');
    const reseller = await freshClient(ctx, USER_OF.reseller);
    invalid(await admin.get('/accounts?filter[search]=%00'), 'filter.search', 'filter[search]=%00');
    invalid(await admin.get('/accounts?search=a%01b'), 'search', 'search=a%01b');
    invalid(await admin.get('/managers?sort=%00name'), 'sort', 'sort=%00name');
    invalid(await admin.get(`/mac-search?mac=${encodeURIComponent(`00:1A:79${NUL}`)}`), 'mac', 'mac-search');
    invalid(await reseller.put('/update-profile', { name: `Rita${NUL}` }), 'name', 'update-profile');
    invalid(await reseller.put('/update-profile', { name: `Rita${LONE_SURROGATE}` }), 'name', 'update-profile surrogate');
    invalid(await admin.post('/managers', { name: `M${NUL}`, username: 'nul_manager', password: 'password123', credits: 0, server_id: 1 }), 'name', 'managers create');
    invalid(
      await reseller.post('/accounts', { login: 'nul_acc', full_name: `A${NUL}`, password: 'x', mac_address: '00:1A:79:00:00:99' }),
      'full_name',
      'accounts create',
    );
    invalid(await admin.post('/themes', { name: 'T', slug: 'nul-theme', tokens: { colorPrimary: `#fff${NUL}` } }), 'tokens.colorPrimary', 'nested field');
    invalid(await admin.post('/ticket-categories', { name: 'ok', [`bad${NUL}key`]: 1 }), 'body', 'a key with NUL');
    // A parameter named __proto__ is reported under the query string: as an error key it would vanish.
    invalid(await admin.get('/ticket-categories?__proto__=admin%00z'), 'querystring', '__proto__=admin%00z');
    invalid(await admin.get('/accounts?__proto__=%07'), 'querystring', '__proto__=%07 on accounts');
    expect((await admin.get('/managers')).status).toBe(200);
    expect(await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', 'nul_manager').executeTakeFirst()).toBeUndefined();
  });

  it('keeps tab, line breaks and any well-formed Unicode', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.post('/ticket-categories', { name: `Multi ${randomName()} 😀 é ü 中`, description: 'line one\nline two\r\n\tindented' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.description).toBe('line one\nline two\r\n\tindented');
  });

  it('answers a __proto__ or constructor.prototype body key with 400', async () => {
    const admin = await ctx.as('admin');
    for (const text of ['{"name":"x","__proto__":{"polluted":1}}', '{"name":"x","constructor":{"prototype":{"polluted":1}}}', '{"name":"x","\\u005f_proto__":{}}']) {
      const res = await admin.request('POST', '/ticket-categories', text, { 'content-type': 'application/json' });
      expect(res.status, text).toBe(400);
      expect(res.body).toEqual({ message: GENERAL.forbiddenKey });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('database text errors', () => {
  it.each(['22021', '22P05'])('maps PostgreSQL %s (text it cannot store) to 400', async (code) => {
    const app = Fastify({ logger: false });
    app.setErrorHandler(errorHandler);
    app.get('/', async () => {
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code });
    });
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: GENERAL.unstorableText });
  });
});

const randomName = () => Math.random().toString(36).slice(2, 8);

/** Numbers in notations no form sends: each is refused where an integer is expected. */
const NOT_INTEGERS: unknown[] = [true, false, '0x10', '1e3', '1E3', 1.5, '1.5', '', ' ', [], [5], {}, '5 credits', 'Infinity', '+-5', 1e300, '١٢'];

describeEachDatabase('hostile input: integers only where credits, months and ids are expected', (ctx) => {
  const refusedAt = (res: { status: number; body: any }, field: string, where: string) => {
    expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBe(422);
    expect(
      Object.keys(res.body.errors ?? {}).map((key) => key.split('.')[0]),
      `${where}: ${JSON.stringify(res.body)}`,
    ).toContain(field);
  };

  it('credit moves take credits as an integer or integer text, nothing else', async () => {
    const admin = await ctx.as('admin');
    const reseller = await ctx.db.kysely.selectFrom('users').select(['id', 'credits']).where('username', '=', 'reseller').executeTakeFirstOrThrow();
    for (const credits of NOT_INTEGERS) {
      refusedAt(await admin.post(`/resellers/${reseller.id}/credits`, { action: 'renew', credits }), 'credits', `credits ${JSON.stringify(credits)}`);
      refusedAt(
        await admin.post(`/resellers/${reseller.id}/credits`, { action: 'renew', credits: 5, bonus_credits: credits === '' ? 'x' : credits }),
        'bonus_credits',
        `bonus ${JSON.stringify(credits)}`,
      );
    }
    const after = await ctx.db.kysely.selectFrom('users').select('credits').where('id', '=', reseller.id).executeTakeFirstOrThrow();
    expect(after.credits).toBe(reseller.credits);
    const text = await admin.post(`/resellers/${reseller.id}/credits`, { action: 'renew', credits: ' 5 ' });
    expect(text.status, JSON.stringify(text.body)).toBe(200);
    expect((await ctx.db.kysely.selectFrom('users').select('credits').where('id', '=', reseller.id).executeTakeFirstOrThrow()).credits).toBe(reseller.credits + 5);
  });

  it('initial credits, months, ids and settings refuse booleans, hex, exponents and fractions', async () => {
    const admin = await ctx.as('admin');
    const dealer = await ctx.as('dealer');
    const account = (await dealer.get('/accounts')).body.data[0];
    const dealerId = (await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', 'dealer').executeTakeFirstOrThrow()).id;
    for (const value of NOT_INTEGERS.filter((v) => v !== '' && v !== ' ')) {
      const where = JSON.stringify(value);
      refusedAt(
        await admin.post('/managers', { name: 'N', username: `int_${Math.random().toString(36).slice(2, 8)}`, password: 'password123', credits: value, server_id: 1 }),
        'credits',
        `manager credits ${where}`,
      );
      refusedAt(
        await admin.post('/managers', { name: 'N', username: `int_${Math.random().toString(36).slice(2, 8)}`, password: 'password123', server_id: value }),
        'server_id',
        `manager server_id ${where}`,
      );
      refusedAt(await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: value }), 'months', `months ${where}`);
      refusedAt(await admin.post(`/dealers/${dealerId}/promote`, { manager_id: value }), 'manager_id', `promote ${where}`);
      refusedAt(await admin.put('/system-settings/trial-days', { trial_days: value }), 'trial_days', `trial_days ${where}`);
      refusedAt(
        await admin.post('/user-promos', { name: 'P', server_id: 1, credits_required: value, bonus_credits: 1 }),
        'credits_required',
        `credits_required ${where}`,
      );
      refusedAt(await admin.post('/accounts/bulk-suspend', { account_ids: [value] }), 'account_ids', `account_ids ${where}`);
    }
    for (const id of ['0x10', '1e3', '1.5', 'true', '-1', '%20', '١']) {
      const res = await admin.get(`/managers/${id}`);
      expect(res.status, `GET /managers/${id}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['id']);
    }
    // Integer text is what forms send, and is taken.
    expect((await dealer.post(`/accounts/${account.id}/credits`, { action: 'renew', months: '1' })).status).toBe(200);
    expect((await admin.put('/system-settings/trial-days', { trial_days: '10' })).status).toBe(200);
    expect((await admin.get('/settings')).status).toBeLessThan(500);
  });
});
