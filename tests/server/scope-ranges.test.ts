/**
 * Subtree scopes are index ranges (server/http/scope.ts, migration 0010): '/1/5/' covers itself and
 * '/1/5/...' but not '/1/50/...' or '/1/6/', in the byte order both databases compare paths by; the
 * planner answers a scoped count from an index instead of reading every account.
 */
import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import { pathEnd, within } from '../../server/http/scope';
import { describeEachDatabase } from './harness';

const PATHS = ['/1/', '/1/5/', '/1/5/12/', '/1/5/12/99/', '/1/50/', '/1/50/7/', '/1/51/', '/1/6/', '/1/4/', '/1/5'];

describeEachDatabase('scope ranges', (ctx) => {
  it('ends a prefix just before its first sibling', () => {
    expect(pathEnd('/1/5/')).toBe('/1/50');
    expect(pathEnd('/1/')).toBe('/10');
  });

  it('selects exactly the subtree, in the collation of the real path columns', async () => {
    const db = ctx.db.kysely as Kysely<any>;
    const collate = ctx.kind === 'postgres' ? sql.raw('collate "C"') : sql.raw('');
    await sql`create table scope_probe (path text ${collate} not null)`.execute(db);
    await db
      .insertInto('scope_probe')
      .values(PATHS.map((path) => ({ path })))
      .execute();
    const subtree = async (path: string) =>
      (
        await db
          .selectFrom('scope_probe')
          .select('path')
          .where(within({ id: 0, role: 'reseller', path }, 'path'))
          .orderBy('path')
          .execute()
      ).map((r) => r.path);
    expect(await subtree('/1/5/')).toEqual(['/1/5/', '/1/5/12/', '/1/5/12/99/']);
    expect(await subtree('/1/50/')).toEqual(['/1/50/', '/1/50/7/']);
    expect(await subtree('/1/')).toEqual(PATHS.filter((p) => p.startsWith('/1/')).sort());
    await sql`drop table scope_probe`.execute(db);

    if (ctx.kind === 'postgres') {
      const { rows } = await sql<{ table_name: string; collation_name: string }>`
        select table_name, collation_name from information_schema.columns
        where table_schema = current_schema() and column_name in ('path', 'owner_path') and table_name in ('users', 'accounts', 'tickets')
        order by table_name`.execute(db);
      expect(rows.map((r) => [r.table_name, r.collation_name])).toEqual([
        ['accounts', 'C'],
        ['tickets', 'C'],
        ['users', 'C'],
      ]);
    }
  });

  it("counts a reseller's live accounts from the owner-path index", async () => {
    const db = ctx.db.kysely;
    const reseller = await db.selectFrom('users').select('path').where('username', '=', 'reseller').executeTakeFirstOrThrow();
    const query = db
      .selectFrom('accounts')
      .select(sql<number>`count(*)`.as('n'))
      .where('deleted_at', 'is', null)
      .where(within({ id: 0, role: 'reseller', path: reseller.path }, 'owner_path'));
    const compiled = query.compile();
    const explain = ctx.kind === 'postgres' ? sql.raw('explain (costs off) ') : sql.raw('explain query plan ');
    if (ctx.kind === 'postgres') await sql`set enable_seqscan = off`.execute(db);
    let next = 0;
    const inlined = compiled.sql.replace(/\$(\d+)|\?/g, (_m, n) => {
      const value = compiled.parameters[n ? Number(n) - 1 : next++];
      return typeof value === 'string' ? `'${value}'` : String(value);
    });
    const plan = await sql<Record<string, string>>`${explain}${sql.raw(inlined)}`.execute(db);
    if (ctx.kind === 'postgres') await sql`reset enable_seqscan`.execute(db);
    const text = plan.rows.map((r) => Object.values(r).join(' ')).join('\n');
    expect(text).toMatch(/accounts_live_owner_path_idx|accounts_owner_path_idx|accounts_live_owner_created_idx/);
  });
});

describeEachDatabase('lean list pages', (ctx) => {
  it('reads the same page from the entries alone as through the joins', async () => {
    for (const who of ['admin', 'reseller']) {
      const client = await ctx.as(who);
      for (const sort of ['-created_at', 'credits', '-balance_after', 'type']) {
        // A search on user names is only possible through the joins; 'TXN' matches every entry.
        const lean = await client.get(`/transactions?sort=${sort}&per_page=4&page=2`);
        const joined = await client.get(`/transactions?sort=${sort}&per_page=4&page=2&filter[search]=TXN`);
        expect(lean.status).toBe(200);
        expect(lean.body.meta.total).toBeGreaterThan(4);
        expect(lean.body.meta).toEqual(joined.body.meta);
        expect(lean.body.data).toEqual(joined.body.data);
      }
    }
  });
});
