/**
 * The CSV export of every account at scale: time, rows, bytes, and the API process's resident memory
 * as the export goes (at a quarter, half, three quarters and the end of the rows), three exports in
 * a row. A streamed export reads one batch at a time, so memory does not follow the row count: the
 * budget is the growth from the end of the first export to the end of the third
 * (EXPORT_RSS_GROWTH_MB) and the peak (the scale bench's RSS budget). `npm run bench` runs it on BENCH_SCALE_DATABASE_URL (1,000,000
 * accounts from seed:scale); `npx tsx bench/export.ts --accounts 20000` builds a temporary SQLite
 * database of that many accounts and runs it there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrate';
import { SCALE_DEFAULTS, seedScale } from '../server/seed/scale';
import { startServer } from '../scripts/reliability/lib';

const RSS_BUDGET_MB = 250;
const EXPORT_RSS_GROWTH_MB = 32;

function residentMb(pid: number): number | null {
  const file = `/proc/${pid}/status`;
  const match = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').match(/^VmRSS:\s+(\d+) kB/m) : null;
  return match ? Number(match[1]) / 1024 : null;
}

export async function benchExport(url: string): Promise<{ pass: boolean }> {
  const server = await startServer(url, { DEMO_MODE: 'false', NODE_ENV: 'test' });
  const base = `${server.baseUrl}/api/v1`;
  const pid = server.child.pid!;
  try {
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'password123' }),
    });
    const { token } = (await login.json()) as { token?: string };
    if (!token) throw new Error(`sign-in as admin failed (${login.status}): is ${url} a seed:scale database?`);
    const auth = { authorization: `Bearer ${token}` };
    // The total the list counts exactly may be a lower bound: the database's own count decides the quarters.
    const db = connect(url);
    const total = Number(
      (
        await db.kysely
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
    await db.close();
    // Warm: one page, so the level before counts the server as it answers.
    await (await fetch(`${base}/accounts`, { headers: auth })).text();
    const before = residentMb(pid);
    /** One export of every account, read as fast as it comes; RSS sampled at each quarter of the rows. */
    const exportOnce = async () => {
      const started = performance.now();
      const res = await fetch(`${base}/accounts?sort=expiry_date&order=asc`, { headers: { ...auth, accept: 'text/csv' } });
      if (!res.ok || !res.body) throw new Error(`export answered ${res.status}`);
      const reader = res.body.getReader();
      const marks = [0.25, 0.5, 0.75];
      const samples: Array<{ at: string; rss: number | null }> = [];
      let rows = -1;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        for (const byte of value) if (byte === 0x0a) rows++;
        while (marks.length && rows >= total * marks[0]) samples.push({ at: `${marks.shift()! * 100}%`, rss: residentMb(pid) });
      }
      samples.push({ at: 'end', rss: residentMb(pid) });
      return { rows, bytes, seconds: (performance.now() - started) / 1000, samples };
    };
    // Three exports in a row: memory a batch leaves behind is reused by the next, so the third ends
    // where the first did; a leak would add the same again each time.
    const runs = [await exportOnce(), await exportOnce(), await exportOnce()];
    const ends = runs.map((r) => r.samples.at(-1)!.rss);
    const peak = Math.max(...runs.flatMap((r) => r.samples.map((s) => s.rss ?? 0)));
    const growth = ends[0] !== null && ends[2] !== null ? ends[2]! - ends[0]! : null;
    const first = runs[0];
    const pass = runs.every((r) => r.rows === total) && (growth === null || (growth <= EXPORT_RSS_GROWTH_MB && peak <= RSS_BUDGET_MB));
    console.log(
      `\nCSV export of every account (${url}): ${first.rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows, ${(first.bytes / 1e6).toFixed(1)} MB in ${first.seconds.toFixed(1)} s`,
    );
    console.log(`  API RSS before ${before?.toFixed(0) ?? '?'} MB`);
    runs.forEach((r, i) => console.log(`  export ${i + 1}: ${r.samples.map((s) => `${s.at} ${s.rss?.toFixed(0) ?? '?'} MB`).join(', ')} (${r.seconds.toFixed(1)} s)`));
    console.log(
      `  RSS at the end of the third export against the first: ${growth === null ? '?' : `${growth >= 0 ? '+' : ''}${growth.toFixed(1)}`} MB (budget ${EXPORT_RSS_GROWTH_MB}), peak ${peak.toFixed(0)} MB (budget ${RSS_BUDGET_MB})  ${pass ? 'pass' : 'FAIL'}`,
    );
    return { pass };
  } finally {
    await server.stop();
  }
}

// Run alone: a temporary SQLite database of --accounts N under seed:scale's hierarchy.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--accounts');
  const accounts = at > 0 ? Number(process.argv[at + 1]) : 20_000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
  const url = `sqlite:${path.join(dir, 'export.sqlite')}`;
  try {
    const db = connect(url);
    await migrateToLatest(db.kysely);
    await seedScale(db.kysely, { ...SCALE_DEFAULTS, accounts, managers: 2, resellers: 10, dealers: 50 });
    await db.close();
    if (!(await benchExport(url)).pass) process.exitCode = 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
