/**
 * `npm run bench`: throughput of the product's hot paths, each printed as a ratio against a baseline
 * measured in the same run on the same database (raw SQL doing the same work), so figures compare
 * across machines. Runs on a temporary SQLite database, and on PostgreSQL when one is reachable
 * (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, in a schema of its own).
 * Then the panel's first load against its budgets, a standard Refine app and a minimal page (firstLoad.ts),
 * and, on a database seed:scale built (BENCH_SCALE_DATABASE_URL), the lists against theirs and against the
 * same lists on 10,000 accounts (scale.ts), and the
 * credit moves and bulk renewal against theirs (moves.ts), and the CSV export of every account with the API's RSS (export.ts).
 * Traffic stays on loopback; every loop is bounded in count. `npm run bench -- first-load` runs the
 * first load alone.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../server/db/schema';
import { inTransaction } from '../server/db/transaction';
import { postChanges } from '../server/ledger/post';
import { startTestServer } from '../tests/server/harness';
import { benchFirstLoad } from './firstLoad';
import { benchMoves } from './moves';
import { benchScaleGrowth } from './scale';
import { benchExport } from './export';
import { benchBulkPreview } from './bulkPreview';

const N = Number(process.env.BENCH_OPS ?? 400);

async function timeIt(label: string, ops: number, fn: (i: number) => Promise<unknown>, concurrency = 1): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ops) await fn(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const rate = ops / seconds;
  console.log(`  ${label.padEnd(52)} ${rate.toFixed(0).padStart(8)} ops/s`);
  return rate;
}

async function ids(db: Kysely<Database>, ...usernames: string[]) {
  const rows = await db.selectFrom('users').select(['id', 'username']).where('username', 'in', usernames).execute();
  return Object.fromEntries(rows.map((r) => [r.username, r.id]));
}

async function benchOn(kind: 'sqlite' | 'postgres') {
  // No credit rate limit here: the bench measures throughput, not the limiter.
  const { ctx, stop } = await startTestServer(kind, { creditOpsPerMinute: 1_000_000 });
  const db = ctx.db.kysely;
  console.log(`\n${kind}`);
  try {
    const u = await ids(db, 'manager', 'reseller');

    // 1. One credit move: the ledger (two conditional entry inserts, each applied to its balance by the
    // database) vs the same SQL by hand. The database takes a balance change only as an entry
    // (migration 0006), so the baseline writes the entries the same way, without the product's code.
    const raw = await timeIt('baseline: raw SQL transfer (2 conditional entry inserts)', N, (i) =>
      db.transaction().execute(async (trx) => {
        // Its operation first, as the database takes no entry without one (migration 0022).
        const operation = `RAW-${i}-${randomBytes(4).toString('hex')}`;
        await sql`insert into ledger_operations (id, kind, actor_id, entries, created_at) values (${operation}, 'adjustment', null, 2, ${new Date().toISOString()})`.execute(
          trx,
        );
        for (const [user, delta] of [
          [u.manager, -1],
          [u.reseller, 1],
        ] as const) {
          await sql`insert into credit_transactions (transaction_number, user_id, type, credits, bonus_credits, balance_before, balance_after, operation_id, created_at)
            select ${`RAW-${i}-${user}-${randomBytes(3).toString('hex')}`}, id, 'USED', cast(${delta} as integer), 0, credits, credits + cast(${delta} as integer), ${operation}, ${new Date().toISOString()}
            from users where id = cast(${user} as integer) and credits >= cast(${-delta} as integer)`.execute(trx);
        }
      }),
    );
    const ledger = await timeIt('ledger: postChanges transfer', N, () =>
      inTransaction(db, (trx) =>
        postChanges(
          trx,
          [
            { userId: u.manager, type: 'USED', credits: -1, counterpartyId: u.reseller },
            { userId: u.reseller, type: 'PURCHASED', credits: 1, counterpartyId: u.manager },
          ],
          { actorId: u.manager },
        ),
      ),
    );
    console.log(`  ratio ledger / raw: ${(ledger / raw).toFixed(2)}`);

    // 1b. The same move through the whole API: auth, scoping, validation, idempotency, audit.
    const manager = await ctx.as('manager');
    const apiMove = await timeIt(
      'API: POST /resellers/{id}/credits (4 clients)',
      N,
      (i) =>
        manager.post(`/resellers/${u.reseller}/credits`, { action: 'renew', credits: 1 }, { 'idempotency-key': `bench-${kind}-${i}` }).then((r) => {
          if (r.status !== 200) throw new Error(`credit move answered ${r.status}: ${JSON.stringify(r.body)}`);
        }),
      4,
    );
    console.log(`  ratio API move / raw: ${(apiMove / raw).toFixed(2)}`);

    // 2. A list page through the whole API (HTTP, auth, scoping, paging) vs the same query in SQL.
    const admin = await ctx.as('admin');
    const rawList = await timeIt('baseline: raw SQL page of categories + count', N, () =>
      Promise.all([sql`select * from ticket_categories order by name limit 10`.execute(db), sql`select count(*) from ticket_categories`.execute(db)]),
    );
    const apiList = await timeIt('API: GET /ticket-categories (4 clients)', N, () => admin.get('/ticket-categories?per_page=10'), 4);
    console.log(`  ratio API / raw: ${(apiList / rawList).toFixed(2)}`);

    // 3. The preview of a bulk renewal of a filter matching 10,000 accounts (docs/domain.md#bulk-by-filter):
    // the accounts list's filter, each account's refusal check and price, the balance, vs reading the same
    // rows' columns and count in SQL.
    await benchBulkPreview(ctx, db);
  } finally {
    await stop();
  }
}

const firstLoadOnly = process.argv.includes('first-load');
if (!firstLoadOnly) {
  await benchOn('sqlite');
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const probe = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 });
  const reachable = await probe.connect().then(
    () => true,
    () => false,
  );
  await probe.end().catch(() => {});
  if (reachable) await benchOn('postgres');
  else console.log(`\npostgres: skipped (no server at ${pgUrl})`);
}

await benchFirstLoad();

// The list and dashboard budgets need a large database: build one with `npm run seed:scale`.
const scaleUrl = process.env.BENCH_SCALE_DATABASE_URL;
if (firstLoadOnly) {
  // The first load alone.
} else if (scaleUrl) {
  if (!(await benchScaleGrowth(scaleUrl)).pass) process.exitCode = 1;
  if (!(await benchMoves(scaleUrl)).pass) process.exitCode = 1;
  if (!(await benchExport(scaleUrl)).pass) process.exitCode = 1;
} else {
  console.log('\nlists and credit moves at scale: skipped (set BENCH_SCALE_DATABASE_URL to a database built by npm run seed:scale)');
}
