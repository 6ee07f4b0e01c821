/**
 * CSV exports of the lists (Accept: text/csv on the list route) and the credit statement: the
 * export holds exactly the rows the list pages through for a filter and sort, read in keyset
 * batches (small here, so every export crosses several, with ties in the sort key), within the
 * caller's scope only; cells a spreadsheet would run are neutralised; UTF-8 with a BOM. A statement
 * reconciles with the ledger to the credit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LIST_EXPORTS, STATEMENT, STATEMENT_EXPORT, csvCell } from '../../src/contract';
import { wantsCsv } from '../../server/http/list';
import { createAccount, setAccount } from './accountFixtures';
import { type Client, describeEachDatabase, userId } from './harness';

const BATCH = 4;

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      field = '';
      record = [];
      i++;
    } else field += c;
  }
  if (field !== '' || record.length) records.push([...record, field]);
  return records;
}

let baseUrl = '';

/** The export's bytes as sent (a Response's text() would drop the BOM). */
async function exportOf(client: Client, url: string) {
  const headers: Record<string, string> = { accept: 'text/csv' };
  if (client.token) headers.authorization = `Bearer ${client.token}`;
  const res = await fetch(`${baseUrl}/api/v1${url}`, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  return { status: res.status, headers: res.headers, text, records: res.status === 200 ? parseCsv(text.replace(/^\uFEFF/, '')) : [] };
}

/** Every row of the list, page after page, as the panel would read it. */
async function allPages(client: Client, url: string, rowsOf: (body: any) => any[] = (b) => b.data): Promise<any[]> {
  const rows: any[] = [];
  for (let page = 1; page < 200; page++) {
    const res = await client.get(`${url}${url.includes('?') ? '&' : '?'}page=${page}&per_page=7`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const got = rowsOf(res.body);
    rows.push(...got);
    if (got.length < 7) break;
  }
  return rows;
}

describe('content negotiation', () => {
  it('answers CSV only when text/csv is preferred to JSON', () => {
    expect(wantsCsv('text/csv')).toBe(true);
    expect(wantsCsv('text/csv, application/json;q=0.5')).toBe(true);
    expect(wantsCsv('application/json, text/csv')).toBe(false);
    expect(wantsCsv('application/json, text/plain, */*')).toBe(false);
    expect(wantsCsv('*/*')).toBe(false);
    expect(wantsCsv('text/csv;q=0')).toBe(false);
    expect(wantsCsv(undefined)).toBe(false);
  });

  it('neutralises formula-like cells and quotes per RFC 4180', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${lead}1+1`).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell(-5)).toBe('-5');
  });
});

describeEachDatabase(
  'CSV exports',
  (ctx) => {
    beforeAll(() => void (baseUrl = ctx.baseUrl));
    it('exports every account the filter and sort select, across batches and ties, equal to the pages', async () => {
      const reseller = await ctx.as('reseller');
      // Ties: several accounts with the same creation time and expiry, some without an expiry.
      const made = [];
      for (let i = 0; i < 9; i++) made.push(await createAccount(ctx, 'dealer'));
      for (const [i, a] of made.entries())
        await setAccount(ctx, a.id, { created_at: '2025-01-01T00:00:00.000Z', expiry_date: i % 3 === 0 ? null : '2030-01-01T00:00:00.000Z' });
      for (const query of [
        '',
        '?sort=created_at&order=asc',
        '?sort=expiry_date&order=asc',
        '?sort=expiry_date&order=desc',
        '?sort=login&order=desc&filter[status]=active',
        '?filter[search]=acct',
      ]) {
        const listed = await allPages(reseller, `/accounts${query}`);
        const exported = await exportOf(reseller, `/accounts${query}`);
        expect(exported.status).toBe(200);
        expect(listed.length).toBeGreaterThan(BATCH * 2);
        const ids = exported.records.slice(1).map((r) => Number(r[0]));
        expect(ids, query).toEqual(listed.map((a) => a.id));
      }
    });

    it('is UTF-8 with a BOM, the panel titles and an attachment name', async () => {
      const admin = await ctx.as('admin');
      const res = await exportOf(admin, '/accounts');
      expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="accounts-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(res.text.startsWith('\uFEFF')).toBe(true);
      expect(res.records[0]).toEqual(LIST_EXPORTS.accounts.columns.map((c) => c.title));
      // Asked for JSON, the same route still answers its page.
      const json = await admin.get('/accounts');
      expect(json.headers.get('content-type')).toMatch(/json/);
      expect(json.headers.get('vary')).toMatch(/Accept/i);
    });

    it('keeps a formula typed into a field as text', async () => {
      const account = await createAccount(ctx, 'dealer', { full_name: '=HYPERLINK("http://127.0.0.1/x","y")' });
      const res = await exportOf(await ctx.as('dealer'), `/accounts?filter[owner_id]=${await userId(ctx, 'dealer')}&sort=id&order=desc`);
      const row = res.records.find((r) => Number(r[0]) === account.id)!;
      expect(row[2]).toBe(`'=HYPERLINK("http://127.0.0.1/x","y")`);
    });

    it('holds only what the caller may list', async () => {
      const dealer = await ctx.as('dealer');
      const dealerId = await userId(ctx, 'dealer');
      const own = await exportOf(dealer, '/accounts');
      const owners = new Set(own.records.slice(1).map((r) => r[5]));
      expect([...owners]).toEqual(['dealer']);
      // Another dealer's accounts, asked for by filter: none.
      const other = await exportOf(await ctx.as('dealer2'), `/accounts?filter[owner_id]=${dealerId}`);
      expect(other.records.slice(1)).toEqual([]);
      // A list the role may not open is refused before any CSV.
      const refused = await exportOf(dealer, '/dealers');
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toMatch(/json/);
      expect((await exportOf(dealer, '/audit-logs')).status).toBe(403);
      expect((await exportOf(await ctx.as('reseller'), '/managers')).status).toBe(403);
      // Someone else's entries through a member route: 404, as the list.
      const foreign = await exportOf(await ctx.as('reseller2'), `/dealers/${dealerId}/transactions`);
      expect(foreign.status).toBe(404);
      expect((await exportOf(ctx.anonymous, '/accounts')).status).toBe(401);
      // A bad filter or sort is the list's JSON refusal.
      expect((await exportOf(dealer, '/accounts?filter[nope]=1')).status).toBe(400);
      expect((await exportOf(dealer, '/accounts?filter[status]=zzz')).status).toBe(422);
    });

    it('exports the members, transactions, audit logs and tickets as their lists page them', async () => {
      const admin = await ctx.as('admin');
      const reseller = await ctx.as('reseller');
      // Members enough for several batches, with ties in their counts.
      for (let i = 0; i < 6; i++) {
        const res = await reseller.post('/dealers', { name: `Export ${i % 2}`, username: `exp${ctx.kind}${i}`, password: 'password123', credits: 0 });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      const category = await ctx.db.kysely.selectFrom('ticket_categories').select('id').executeTakeFirstOrThrow();
      for (let i = 0; i < 5; i++) {
        const res = await (
          await ctx.as('dealer')
        ).post('/tickets', { subject: `Export ${i}`, message: '@cmd|x', category_id: category.id, priority: i % 2 ? 'high' : 'low' });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      const cases: Array<[Client, string, string, (b: any) => any[], (r: any) => string]> = [
        [admin, '/dealers?sort=total_accounts&order=desc', 'dealers', (b) => b.data, (r) => String(r.id)],
        [admin, '/resellers?sort=name&order=asc', 'resellers', (b) => b.data, (r) => String(r.id)],
        [admin, '/managers?sort=total_children&order=asc', 'managers', (b) => b.data, (r) => String(r.id)],
        [reseller, '/transactions?sort=-credits', 'transactions', (b) => b.data, (r) => r.transaction_number],
        [admin, '/transactions?sort=type&filter[type]=PURCHASED', 'transactions', (b) => b.data, (r) => r.transaction_number],
        [admin, '/audit-logs?sort=module&order=asc', 'audit-logs', (b) => b.data, (r) => String(r.id)],
        [admin, '/tickets?sort=priority&order=desc', 'tickets', (b) => b.data.data, (r) => String(r.id)],
      ];
      for (const [client, url, name, rowsOf, keyOf] of cases) {
        const listed = await allPages(client, url, rowsOf);
        const exported = await exportOf(client, url);
        expect(exported.status, url).toBe(200);
        expect(exported.records[0]).toEqual(LIST_EXPORTS[name as keyof typeof LIST_EXPORTS].columns.map((c) => c.title));
        if (name !== 'managers' && name !== 'resellers') expect(listed.length, url).toBeGreaterThan(BATCH);
        expect(
          exported.records.slice(1).map((r) => r[0]),
          url,
        ).toEqual(listed.map(keyOf));
      }
    });
  },
  { exportBatchRows: BATCH },
);

describeEachDatabase(
  'statements',
  (ctx) => {
    beforeAll(() => void (baseUrl = ctx.baseUrl));
    const today = new Date().toISOString().slice(0, 10);
    const ledger = (id: number) => ctx.db.kysely.selectFrom('credit_transactions').selectAll().where('user_id', '=', id).orderBy('created_at').orderBy('id').execute();

    it('reconciles opening + entries = closing with the ledger, for any split of the history', async () => {
      const reseller = await ctx.as('reseller');
      const dealerId = await userId(ctx, 'dealer');
      // A few moves today, so the range has entries of several types.
      await reseller.post(`/dealers/${dealerId}/credits`, { amount: 20 });
      const account = await createAccount(ctx, 'dealer');
      await (await ctx.as('dealer')).post(`/accounts/${account.id}/credits`, { action: 'renew', months: 1 });
      const entries = await ledger(dealerId);
      expect(entries.length).toBeGreaterThan(2);
      const user = await ctx.db.kysely.selectFrom('users').select('credits').where('id', '=', dealerId).executeTakeFirstOrThrow();

      const whole = await reseller.get(`/statements/${dealerId}?date_from=2000-01-01&date_to=${today}`);
      expect(whole.status, JSON.stringify(whole.body)).toBe(200);
      const s = whole.body.data;
      expect(s.opening_balance).toBe(0);
      expect(s.closing_balance).toBe(user.credits);
      expect(s.entry_count).toBe(entries.length);
      expect(s.entries.map((e: any) => e.id)).toEqual(entries.map((e) => e.id));
      expect(s.opening_balance + s.entries.reduce((sum: number, e: any) => sum + e.credits, 0)).toBe(s.closing_balance);
      const byType = new Map<string, number>();
      for (const e of entries) byType.set(e.type, (byType.get(e.type) ?? 0) + e.credits);
      expect(Object.fromEntries(s.totals.map((t: any) => [t.type, t.credits]))).toEqual(Object.fromEntries(byType));
      const renewal = s.entries.find((e: any) => e.account === account.login);
      expect(renewal.actor.username).toBe('dealer');

      // Every split day: the opening is the balance after the last entry before it, the closing the last one in it.
      const days = [...new Set(entries.map((e) => e.created_at.slice(0, 10)))];
      for (const day of days) {
        const res = await reseller.get(`/statements/${dealerId}?date_from=${day}&date_to=${day}`);
        const before = entries.filter((e) => e.created_at.slice(0, 10) < day);
        const inside = entries.filter((e) => e.created_at.slice(0, 10) === day);
        expect(res.body.data.opening_balance).toBe(before.at(-1)?.balance_after ?? 0);
        expect(res.body.data.closing_balance).toBe(inside.at(-1)!.balance_after);
        expect(res.body.data.net_change).toBe(inside.reduce((sum, e) => sum + e.credits, 0));
      }
    });

    it('is empty with equal balances for a range without entries, and zero before the user existed', async () => {
      const dealer = await ctx.as('dealer');
      const dealerId = await userId(ctx, 'dealer');
      const before = await dealer.get(`/statements/${dealerId}?date_from=1990-01-01&date_to=1990-12-31`);
      expect(before.status).toBe(200);
      expect(before.body.data).toMatchObject({ opening_balance: 0, closing_balance: 0, entry_count: 0, entries: [], totals: [] });
      const future = await dealer.get(`/statements/${dealerId}?date_from=2999-01-01&date_to=2999-01-02`);
      const user = await ctx.db.kysely.selectFrom('users').select('credits').where('id', '=', dealerId).executeTakeFirstOrThrow();
      expect(future.body.data).toMatchObject({ opening_balance: user.credits, closing_balance: user.credits, entries: [] });
    });

    it('is the caller’s own or a user’s of its subtree, else 404; bad ranges are 422', async () => {
      const dealerId = await userId(ctx, 'dealer');
      const resellerId = await userId(ctx, 'reseller');
      const range = `date_from=2000-01-01&date_to=${today}`;
      expect((await (await ctx.as('dealer')).get(`/statements/${dealerId}?${range}`)).status).toBe(200);
      expect((await (await ctx.as('manager')).get(`/statements/${dealerId}?${range}`)).status).toBe(200);
      expect((await (await ctx.as('dealer')).get(`/statements/${resellerId}?${range}`)).status).toBe(404);
      expect((await (await ctx.as('dealer2')).get(`/statements/${dealerId}?${range}`)).status).toBe(404);
      expect((await (await ctx.as('reseller2')).get(`/statements/${dealerId}?${range}`)).status).toBe(404);
      const csv = await exportOf(await ctx.as('dealer2'), `/statements/${dealerId}?${range}`);
      expect(csv.status).toBe(404);
      const dealer = await ctx.as('dealer');
      expect((await dealer.get(`/statements/${dealerId}?date_from=2020-02-01&date_to=2020-01-01`)).status).toBe(422);
      expect((await dealer.get(`/statements/${dealerId}?date_from=yesterday&date_to=2020-01-01`)).status).toBe(422);
      expect((await dealer.get(`/statements/${dealerId}`)).status).toBe(422);
    });

    it('downloads as CSV: opening line, every entry in ledger order, closing line and totals', async () => {
      const dealerId = await userId(ctx, 'dealer');
      const entries = await ledger(dealerId);
      const res = await exportOf(await ctx.as('dealer'), `/statements/${dealerId}?date_from=2000-01-01&date_to=${today}`);
      expect(res.status).toBe(200);
      expect(res.text.startsWith('\uFEFF')).toBe(true);
      const [header, opening, ...rest] = res.records;
      expect(header).toEqual(STATEMENT_EXPORT.columns.map((c) => c.title));
      const col = (title: string) => header.indexOf(title);
      expect(opening[col('Type')]).toBe(STATEMENT.openingLine);
      expect(opening[col('Balance After')]).toBe('0');
      const lines = rest.slice(0, entries.length);
      expect(lines.map((r) => r[col('Transaction #')])).toEqual(entries.map((e) => e.transaction_number));
      const closing = rest[entries.length];
      expect(closing[col('Type')]).toBe(STATEMENT.closingLine);
      expect(Number(closing[col('Balance After')])).toBe(entries.at(-1)!.balance_after);
      expect(rest.slice(entries.length + 1).every((r) => r[col('Type')].startsWith(STATEMENT.totalLine('')))).toBe(true);
    });
  },
  { exportBatchRows: BATCH },
);
