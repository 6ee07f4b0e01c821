/**
 * The preview of a bulk renewal of a filter matching 10,000 accounts (docs/domain.md#bulk-by-filter)
 * through the API (the accounts list's filter and scope, each account's refusal check and price, the
 * balance, the stored preview) against reading the same rows' columns in SQL, in the same run.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../server/db/schema';
import type { TestContext } from '../tests/server/harness';

async function timeIt(label: string, ops: number, fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < ops; i++) await fn();
  const rate = ops / ((performance.now() - started) / 1000);
  console.log(`  ${label.padEnd(52)} ${rate.toFixed(1).padStart(8)} ops/s`);
  return rate;
}

const BULK_PREVIEW_ACCOUNTS = 10_000;
const BULK_PREVIEW_RUNS = Number(process.env.BENCH_BULK_PREVIEWS ?? 10);

export async function benchBulkPreview(ctx: TestContext, db: Kysely<Database>) {
  const dealer = (await db.selectFrom('users').select(['id', 'path']).where('username', '=', 'dealer').executeTakeFirstOrThrow()) as { id: number; path: string };
  const now = new Date().toISOString();
  const expiry = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const tag = randomBytes(2).toString('hex');
  for (let i = 0; i < BULK_PREVIEW_ACCOUNTS; i += 500) {
    await db
      .insertInto('accounts')
      .values(
        Array.from({ length: Math.min(500, BULK_PREVIEW_ACCOUNTS - i) }, (_, j) => ({
          owner_id: dealer.id,
          owner_path: dealer.path,
          server_id: 1,
          login: `bulk_${tag}_${i + j}`,
          full_name: 'Bulk preview',
          pwd_txt: 'secret',
          mac_address: `B0${tag}${(i + j).toString(16).padStart(6, '0')}`.toUpperCase(),
          expiry_date: expiry,
          validity_months: 1,
          status: 'active',
          is_promo: 0,
          bonus_months: 0,
          is_trial: 0,
          state: 'offline',
          connection_status: 'offline',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  const client = await ctx.as('dealer');
  const raw = await timeIt('baseline: raw SQL rows + count of the filter', BULK_PREVIEW_RUNS, () =>
    sql`select id, login, server_id, status, is_promo, expiry_date from accounts where owner_path >= ${dealer.path} and owner_path < ${`${dealer.path}~`}
        and deleted_at is null and expiry_date >= ${now} and expiry_date <= ${new Date(Date.now() + 7 * 86_400_000).toISOString()} order by id`.execute(db),
  );
  let matched = 0;
  const api = await timeIt(`API: bulk renew preview (${BULK_PREVIEW_ACCOUNTS.toLocaleString('en-US')}+ accounts)`, BULK_PREVIEW_RUNS, async () => {
    const res = await client.post('/accounts/bulk/preview', { action: 'renew', months: 1, filter: { expiry: '7' } });
    if (res.status !== 200) throw new Error(`preview answered ${res.status}: ${JSON.stringify(res.body)}`);
    matched = res.body.data.matched;
  });
  console.log(`  bulk preview matched ${matched} accounts; ratio API / raw: ${(api / raw).toFixed(2)}`);
}
