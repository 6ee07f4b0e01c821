/**
 * Property-based hostile input on the whole API (docs/reliability.md): fast-check drives every route of the
 * route table with generated path parameters, query strings, bodies, content types and
 * Idempotency-Keys, as every role and anonymously, on SQLite and PostgreSQL. Properties: no answer is
 * a 5xx (503 only as the deliberate maintenance answer), no request hangs, every error is JSON with a
 * message (422 with per-field errors), and the ledger invariants hold after each route family.
 *
 * Bounded: FUZZ_RUNS cases per route (default 40), so a family of routes gets a few hundred. A failure
 * prints fast-check's seed and path; replay with FUZZ_SEED=<seed> (and the same FUZZ_RUNS).
 */
import fc from 'fast-check';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { ACCESS, type Role } from '../../src/contract';
import { issueToken } from '../../server/auth/tokens';
import { checkLedger } from '../../server/ledger/check';
import { getSystemSettings, updateSystemSettings } from '../../server/settings';
import { type ApiRoute, allowed, apiRoutes, bodyFields, isPublic, label, takesBody } from './apiSurface';
import { describeEachDatabase } from './harness';
import { PROTOTYPE_NAMES } from './hostileValues';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
const REQUEST_TIMEOUT_MS = 15_000;

/** Who calls: anonymous, each demo role, and the other branch's users (scoping). */
const CALLERS = ['anonymous', 'admin', 'manager', 'reseller', 'dealer', 'manager2', 'reseller2', 'dealer2'] as const;
type Caller = (typeof CALLERS)[number];

/** Text an attacker picks: encodings, prototype names, numbers in odd notations, injections. */
const HOSTILE_TEXT = [
  '',
  ' ',
  '0',
  '-1',
  '1',
  '2',
  '3',
  '7',
  '0x10',
  '1e3',
  '1.5',
  '-0',
  '+5',
  '00012',
  '2147483647',
  '2147483648',
  '-2147483649',
  '99999999999999999999',
  '9007199254740993',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  ...PROTOTYPE_NAMES,
  'prototype',
  '\u0000',
  'a\u0000b',
  '\u0007',
  '\u001b[2J',
  '\u007f',
  '\u0085',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u202e',
  '😀',
  'é',
  '中文',
  'Ā'.repeat(300),
  'x'.repeat(5000),
  '%',
  '_',
  '\\',
  '%%',
  "'",
  '"',
  '`',
  "' or 1=1 --",
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '../../etc/passwd',
  '${7*7}',
  '{{7*7}}',
  '2024-02-30',
  '2024-13-01',
  '9999-12-31T23:59:59Z',
  '0000-00-00',
  '1970-01-01',
  '2099-01-01',
  'renew',
  'recover',
  'active',
  'inactive',
  'suspended',
  'deleted',
  'admin',
  'manager',
  'reseller',
  'dealer',
  'asc',
  'desc',
  '-created_at',
  'name',
  'id',
  '00:1A:79:00:00:01',
  '001A79000001',
  'ff:ff:ff:ff:ff:ff',
  'PURCHASED',
  'USED',
  'CRDT',
];

/**
 * Percent-encoding that never throws: a lone surrogate (which encodeURIComponent refuses) is sent as
 * its three WTF-8 bytes, which are not valid UTF-8, as an attacker would send them.
 */
function encode(text: string): string {
  return text.replace(/[\s\S]/gu, (ch) => {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(ch);
  });
}

/** Characters that broke storage or parsing somewhere: NUL, controls, lone surrogates, BOM, bidi overrides. */
const DANGEROUS_CHARACTERS = [
  '\u0000',
  '\u0000',
  '\u0000',
  '\u0001',
  '\u0007',
  '\u0008',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\ud800',
  '\udbff',
  '\udc00',
  '\ufeff',
  '\u202e',
  '\uffff',
];

const hostileText = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom('', 'admin', 'x', '1', 'a b'), fc.constantFrom(...DANGEROUS_CHARACTERS), fc.constantFrom('', 'z', '2'))
      .map((parts) => parts.join('')),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
);

const hostileNumber = fc.oneof(
  fc.integer({ min: -3, max: 40 }),
  fc.constantFrom(0, -0, 1.5, -1, 2147483647, 2147483648, -2147483649, 1e21, 1e300, -1e300, Number.MAX_SAFE_INTEGER, 0.1, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A JSON value of a field: mostly plausible, often hostile, sometimes structured. */
const fieldValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: hostileText },
    { weight: 4, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileText, tie('value'), { maxKeys: 3 }) },
  ),
})).value;

const word = fc.stringMatching(/^[a-z][a-z0-9]{2,9}$/);
const futureDate = fc.integer({ min: 1, max: 400 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10));

/** A value the field's form would send, so requests get past validation into the handlers. */
function plausible(field: string): fc.Arbitrary<unknown> {
  if (/password/.test(field)) return fc.constant('password123');
  if (field === 'username') return fc.oneof(word, fc.constantFrom('admin', 'manager', 'reseller', 'dealer', 'manager2', 'reseller2', 'dealer2'));
  if (/^(login|slug)$/.test(field)) return word;
  if (/^(name|full_name|description|message|subject|db_name|db_username)$/.test(field)) return fc.oneof(word, fc.string({ minLength: 1, maxLength: 20 }));
  if (
    /^(credits|bonus_credits|user_credits|credits_required|minimum|maximum|step|min_credits|max_credits|increment_step|trial_days|default_credits|minimum_credit_limit|max_uses|discount_percentage)$/.test(
      field,
    )
  ) {
    return fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }).map(String));
  }
  if (/months/.test(field)) return fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom('1', '2', null));
  if (/^(server_id|manager|reseller|manager_id|transaction_id)$/.test(field)) return fc.integer({ min: 1, max: 25 });
  if (field === 'account_ids') return fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 });
  if (field === 'action') return fc.constantFrom('renew', 'recover');
  if (/^mac/.test(field)) return fc.stringMatching(/^[0-9A-F]{12}$/);
  if (/^(is_|enable_|promo_enabled|maintenance_mode)/.test(field)) return fc.boolean();
  if (field === 'status') return fc.constantFrom('active', 'inactive', 'suspended');
  if (field === 'role') return fc.constantFrom('manager', 'reseller', 'dealer');
  if (/date|valid_/.test(field)) return fc.oneof(futureDate, fc.constant(null));
  if (field === 'db_host') return fc.constant('127.0.0.1');
  if (field === 'db_port') return fc.constantFrom(3306, '3306');
  if (field === 'promo_ratio') return fc.constantFrom(0, 0.2, '0.5');
  if (/amounts|options$/.test(field)) return fc.constantFrom('10, 20', [5, 10], []);
  return fieldValue;
}

/** Fields of bodies whose schema is a record or depends on the path (settings, credit levels and options). */
const CONFIG_FIELDS = [
  'trial_days',
  'default_credits',
  'maintenance_mode',
  'enable_trial',
  'enable_promos',
  'enable_reseller_dealer_promos',
  'minimum_credit_limit',
  'minimum',
  'maximum',
  'step',
  'promo_enabled',
  'promo_ratio',
  'min_credits',
  'max_credits',
  'increment_step',
  'preset_amounts',
  'enable_percentage_options',
  'percentage_options',
  'enable_all_available_option',
  'is_active',
  'user_credits',
];

/** A body: the route's own fields with hostile values, random JSON, or text that is not JSON at all. */
function bodyFor(route: ApiRoute): fc.Arbitrary<{ text: string | undefined; contentType: string | undefined }> {
  const own = bodyFields(route);
  const fields = own.length > 0 ? own : CONFIG_FIELDS;
  const known = fields.length
    ? fc.record(Object.fromEntries(fields.map((f) => [f, fieldValue])), { requiredKeys: [] }).chain((object) =>
        fc
          .record({
            extra: fc.dictionary(
              fc.constantFrom(...PROTOTYPE_NAMES.filter((n) => n !== '__proto__'), 'id', 'role', 'parent_id', 'credits', 'path', 'password_hash', 'ledger_entry_id'),
              fieldValue,
              { maxKeys: 2 },
            ),
          })
          .map(({ extra }) => ({ ...extra, ...object })),
      )
    : fc.constant({});
  // A body the form would send, with none, one or two of its fields made hostile.
  const nearlyValid = fc
    .tuple(
      fc.record(Object.fromEntries(fields.map((f) => [f, plausible(f)]))),
      fc.subarray(fields, { maxLength: Math.min(2, fields.length) }),
      fc.array(fc.oneof({ weight: 3, arbitrary: hostileText }, { weight: 1, arbitrary: fieldValue }), { minLength: 2, maxLength: 2 }),
    )
    .map(([object, spoiled, values]) => ({ ...object, ...Object.fromEntries(spoiled.map((f, i) => [f, values[i]])) }));
  const json = fc.oneof(
    { weight: 6, arbitrary: nearlyValid.map((o) => JSON.stringify(o)) },
    { weight: 4, arbitrary: known.map((o) => JSON.stringify(o)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
        `${'['.repeat(5000)}${']'.repeat(5000)}`,
        `{"a":${'1'.repeat(400)}}`,
        '{"a":1e999}',
        '\ufeff{}',
        '{"a":"\\ud800"}',
        '{"a":"\\u0000"}',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  );
  return fc.record({
    text: fc.option(json, { freq: 8, nil: undefined }),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom<string | undefined>('application/json', 'application/json; charset=utf-8') },
      {
        weight: 2,
        arbitrary: fc.constantFrom<string | undefined>(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          'APPLICATION/JSON',
          'application/jsonx',
          'application/json, text/plain',
          undefined,
        ),
      },
    ),
  });
}

const QUERY_KEYS = [
  'page',
  'per_page',
  'sort',
  'order',
  'sort_by',
  'sort_direction',
  'sort_order',
  'search',
  'filter[search]',
  'filter[status]',
  'filter[role]',
  'filter[type]',
  'filter[user_id]',
  'filter[server_id]',
  'filter[is_active]',
  'filter[date_from]',
  'filter[date_to]',
  'filter[expiring]',
  'filter[manager]',
  'filter[reseller]',
  'date_from',
  'date_to',
  'type',
  'user_id',
  'server_id',
  'role',
  'mac',
  'months',
  'status',
  'filter[]',
  'filter',
  'filter[a][b]',
  'a[b][c]',
  ...PROTOTYPE_NAMES.map((n) => `filter[${n}]`),
  ...PROTOTYPE_NAMES,
];

/** A query string, percent-encoded; sometimes with raw (possibly malformed) escapes and repeated keys. */
const queryString = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), hostileText), { maxLength: 4 })
      .map((pairs) => pairs.map(([k, v]) => `${encode(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encode(v)}`).join('&')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%zz=1',
      'a=%E0%A4%A',
      '%00=%00',
      'page=1&page=2&page=x',
      '&&&=&',
      'sort=%2Dname',
      '=',
      'filter[search]=%C0%AF',
      'x=%F0%9F%98%80',
      `q=${'a'.repeat(8000)}`,
    ),
  },
);

/** A path parameter: an id of the demo data, or hostile text (encoded, or raw for odd escapes). */
const pathValue = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 25 }).map(String) },
  { weight: 3, arbitrary: hostileText.map(encode) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('%', '%zz', '%00', '..', '%2e%2e', '%2F', '0x10', '1e3', ' 1', '1%20', '%C0%80', 'trial-days', 'maintenance-mode', 'enable-promos'),
  },
);

const fillParams = (url: string, values: string[]) => {
  let i = 0;
  return url.replace(/:[A-Za-z_][A-Za-z0-9_]*(\([^)]*\))?/g, () => values[i++] ?? '1').replace(/\*/g, () => values[i++] ?? 'x');
};
const paramCount = (url: string) => (url.match(/:[A-Za-z_][A-Za-z0-9_]*(\([^)]*\))?|\*/g) ?? []).length;

interface Generated {
  caller: Caller;
  params: string[];
  query: string;
  body: { text: string | undefined; contentType: string | undefined };
  idempotencyKey: string | undefined;
}

/** Mostly callers the role matrix lets in (so requests reach the handlers), sometimes anyone. */
function callerFor(route: ApiRoute): fc.Arbitrary<Caller> {
  const roleOf = (caller: Caller): Role | null => (caller === 'anonymous' ? null : (caller.replace(/2$/, '') as Role));
  const admitted = CALLERS.filter((c) => {
    const role = roleOf(c);
    return role ? allowed(route, role) : isPublic(route);
  });
  return admitted.length > 0
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...admitted) }, { weight: 1, arbitrary: fc.constantFrom(...CALLERS) })
    : fc.constantFrom(...CALLERS);
}

const requestFor = (route: ApiRoute): fc.Arbitrary<Generated> =>
  fc.record({
    caller: callerFor(route),
    params: fc.array(pathValue, { minLength: paramCount(route.url), maxLength: paramCount(route.url) }),
    query: fc.option(queryString, { freq: 2, nil: '' }).map((q) => q ?? ''),
    body: takesBody(route.method) ? bodyFor(route) : fc.constant({ text: undefined, contentType: undefined }),
    idempotencyKey: fc.option(
      fc.oneof(
        fc.constantFrom('k1', 'k2', 'k3'),
        fc.string({ minLength: 1, maxLength: 300 }).filter((k) => /^[\x21-\x7e]*$/.test(k)),
      ),
      { freq: 2, nil: undefined },
    ),
  });

/** Route families: routes grouped by their first path segment after /api/v1 (or /api). */
function families(routes: ApiRoute[]): Map<string, ApiRoute[]> {
  const out = new Map<string, ApiRoute[]>();
  for (const route of routes) {
    const family =
      route.url
        .replace(/^\/api(\/v1)?\//, '')
        .split('/')[0]
        .replace(/^:.*/, '(param)') || '(root)';
    out.set(family, [...(out.get(family) ?? []), route]);
  }
  return out;
}

interface FuzzTally {
  requests: number;
  serverErrors: number;
  statuses: Map<number, number>;
  /** Routes that answered 2xx at least once: the barrage reached their handlers' work, not only validation. */
  succeeded: Set<string>;
}

describeEachDatabase(
  'property: hostile requests on every route',
  (ctx) => {
    const tally: FuzzTally = { requests: 0, serverErrors: 0, statuses: new Map(), succeeded: new Set() };
    const tokens = new Map<Caller, string | null>();

    /** A token for the caller, minted directly; a new one after a request that may have signed it out. */
    async function tokenOf(caller: Caller): Promise<string | null> {
      if (caller === 'anonymous') return null;
      if (tokens.has(caller)) return tokens.get(caller)!;
      const user = await ctx.db.kysely.selectFrom('users').select('id').where('username', '=', caller).executeTakeFirst();
      const token = user ? await issueToken(ctx.db.kysely, user.id, 1) : null;
      tokens.set(caller, token);
      return token;
    }

    async function send(route: ApiRoute, g: Generated): Promise<void> {
      // A settings body may have switched maintenance on: non-admins would only get 503 from then on.
      if (g.caller !== 'admin' && g.caller !== 'anonymous' && (await getSystemSettings(ctx.db.kysely)).maintenance_mode) {
        await updateSystemSettings(ctx.db.kysely, { maintenance_mode: false });
      }
      // Likewise a two-factor rule: its users would only get 403 until they enrolled.
      const settings = await getSystemSettings(ctx.db.kysely);
      if (settings.two_factor_admin || settings.two_factor_manager || settings.two_factor_reseller || settings.two_factor_dealer) {
        await updateSystemSettings(ctx.db.kysely, { two_factor_admin: false, two_factor_manager: false, two_factor_reseller: false, two_factor_dealer: false });
      }
      const url = `${ctx.baseUrl}${fillParams(route.url, g.params)}${g.query ? `?${g.query}` : ''}`;
      const headers: Record<string, string> = {};
      const token = await tokenOf(g.caller);
      if (token) headers.authorization = `Bearer ${token}`;
      if (g.body.contentType && g.body.text !== undefined) headers['content-type'] = g.body.contentType;
      if (g.idempotencyKey) headers['idempotency-key'] = g.idempotencyKey;
      const where = `${label(route)} as ${g.caller}: ${route.method} ${url.slice(ctx.baseUrl.length, 300)} ${headers['content-type'] ?? ''} ${g.body.text?.slice(0, 300) ?? ''}`;
      let res: Response;
      try {
        res = await fetch(url, { method: route.method, headers, body: g.body.text, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      } catch (error) {
        // A URL fetch itself refuses to send (it never reached the server) is no finding; a timeout is a hang.
        if ((error as Error).name === 'TimeoutError') throw new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${where}`);
        if ((error as Error).name === 'TypeError' && /URL|header|ByteString/i.test(String((error as Error).message))) return;
        throw error;
      }
      const text = await res.text();
      tally.requests++;
      tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
      if (res.status < 300) tally.succeeded.add(label(route));
      if (route.url.endsWith('/logout') || route.url.endsWith('/change-password') || res.status === 401) tokens.delete(g.caller);
      let body: any = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        /* checked below */
      }
      if (res.status === 503 && body?.message === ACCESS.maintenance) return;
      if (res.status >= 500) {
        tally.serverErrors++;
        throw new Error(`${res.status} ${text.slice(0, 300)}: ${where}`);
      }
      if (res.status >= 400) {
        expect(typeof body?.message, `${res.status} without a JSON message (${text.slice(0, 200)}): ${where}`).toBe('string');
        if (res.status === 422) {
          expect(body.errors && typeof body.errors === 'object' && Object.keys(body.errors).length > 0, `422 without field errors: ${where}`).toBe(true);
        }
      }
    }

    afterAll(() => {
      const statuses = [...tally.statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([s, c]) => `${s}:${c}`)
        .join(' ');
      const routes = apiRoutes(ctx).length;
      console.log(
        `[fuzz ${ctx.kind}] seed ${SEED}, ${RUNS} runs per route: ${tally.requests} hostile requests, ${tally.serverErrors} answered 5xx (${statuses}); ${tally.succeeded.size} of ${routes} routes answered 2xx at least once`,
      );
    });

    // A family's bodies may deactivate or delete the demo users: each family starts with them active.
    beforeEach(async () => {
      await ctx.db.kysely
        .updateTable('users')
        .set({ status: 'active' })
        .where(
          'username',
          'in',
          CALLERS.filter((c) => c !== 'anonymous'),
        )
        .execute();
      tokens.clear();
    });

    it('derives the route families from the route table', () => {
      expect(families(apiRoutes(ctx)).size).toBeGreaterThan(10);
    });

    // One test per family (the route table is read when the suite runs, so it grows with the API).
    const familyNames = [
      'login',
      'logout',
      'user',
      'change-password',
      'update-profile',
      'config',
      'dashboard',
      'ticket-categories',
      'servers',
      'themes',
      'user-promos',
      'global-discounts',
      'system-settings',
      'credit-levels',
      'credit-options-settings',
      'managers',
      'resellers',
      'dealers',
      'credit-options',
      'transactions',
      'accounts',
      'mac-search',
      'user-search',
      'others',
    ];
    for (const family of familyNames) {
      it(`never answers 5xx or hangs on ${family}, and the ledger holds afterwards`, { timeout: 300_000 }, async () => {
        const all = families(apiRoutes(ctx));
        const routes = family === 'others' ? [...all.entries()].filter(([name]) => !familyNames.includes(name)).flatMap(([, r]) => r) : (all.get(family) ?? []);
        for (const route of routes) {
          await fc.assert(
            fc.asyncProperty(requestFor(route), async (g) => send(route, g)),
            { numRuns: RUNS, seed: SEED, endOnFailure: true },
          );
        }
        const { problems } = await checkLedger(ctx.db.kysely);
        expect(problems, `ledger after fuzzing ${family} (seed ${SEED})`).toEqual([]);
      });
    }

    it('still serves after the barrage', async () => {
      expect(tally.serverErrors).toBe(0);
      expect((await ctx.anonymous.post('/login', { username: 'admin', password: 'anything' })).status).toBe(200);
    });
    // Credit moves should reach the ledger rather than stop at the per-actor limit (tested on its own).
  },
  { creditOpsPerMinute: 1_000_000 },
);
