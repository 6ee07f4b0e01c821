/**
 * The list and dashboard calls at scale, on a database `npm run seed:scale` built
 * (`BENCH_SCALE_DATABASE_URL=sqlite:./data/scale.sqlite npm run bench`): p95 over HTTP for admin, a
 * reseller and a dealer against the budgets of issue "Performance" (lists 50 ms, dashboard and analytics 150 ms),
 * and /health's worst time while the lists run (budget 100 ms: no request stops the others), and the
 * API process's peak resident memory (budget 250 MB): the API runs as `npm start` runs it, in its own
 * process, SQLite reader threads included.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../server/config';
import { startServer } from '../scripts/reliability/lib';

const LIST_BUDGET_MS = 50;
const DASHBOARD_BUDGET_MS = 150;
const HEALTH_BUDGET_MS = 100;
const RSS_BUDGET_MB = 250;

const quantile = (times: number[], q: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.max(0, Math.ceil(times.length * q) - 1))];

export interface ScaleFigure {
  caller: string;
  call: string;
  status: number;
  median: number;
  p95: number;
  budget: number;
}

/** The kernel's high-water mark of a process's resident memory (Linux), in MB. */
function peakResidentMb(pid: number): number | null {
  const file = `/proc/${pid}/status`;
  const status = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').match(/^VmHWM:\s+(\d+) kB/m) : null;
  return status ? Number(status[1]) / 1024 : null;
}

/** Prints the table; answers whether every budget held, and the figures. */
export async function benchScale(url: string, runs = Number(process.env.BENCH_SCALE_RUNS ?? 20)): Promise<{ pass: boolean; figures: ScaleFigure[] }> {
  // SQLITE_READERS=0 measures the server with every query on the one SQLite connection.
  const { sqliteReaders } = loadConfig({ SQLITE_READERS: process.env.SQLITE_READERS });
  const server = await startServer(url, { DEMO_MODE: 'false', NODE_ENV: 'test', ...(process.env.SQLITE_READERS ? { SQLITE_READERS: process.env.SQLITE_READERS } : {}) });
  const base = `${server.baseUrl}/api/v1`;
  let pass = true;
  const figures: ScaleFigure[] = [];
  try {
    const token = async (username: string) => {
      const res = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'password123' }) });
      const body = (await res.json()) as { token?: string };
      if (!body.token) throw new Error(`sign-in as ${username} failed (${res.status}): is ${url} a seed:scale database?`);
      return body.token;
    };
    const week = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const calls: Array<[string, number]> = [
      ['/accounts', LIST_BUDGET_MS],
      ['/accounts?page=2000', LIST_BUDGET_MS],
      ['/accounts?sort=expiry_date', LIST_BUDGET_MS],
      ['/accounts?sort=expiry_date&page=2000', LIST_BUDGET_MS],
      ['/accounts?filter[search]=smith', LIST_BUDGET_MS],
      ['/accounts?filter[search]=001A79', LIST_BUDGET_MS],
      [`/accounts?filter[expiry_date_before]=${week}`, LIST_BUDGET_MS],
      ['/transactions', LIST_BUDGET_MS],
      ['/dealers', LIST_BUDGET_MS],
      ['/resellers', LIST_BUDGET_MS],
      ['/managers', LIST_BUDGET_MS],
      ['/dashboard/stats', DASHBOARD_BUDGET_MS],
      // Admin only: the others' 403 skips them.
      ['/analytics/credits-flow', DASHBOARD_BUDGET_MS],
      ['/analytics/renewals', DASHBOARD_BUDGET_MS],
      ['/analytics/expiring', DASHBOARD_BUDGET_MS],
      ['/analytics/top-users?role=dealer', DASHBOARD_BUDGET_MS],
    ];
    let healthWorst = 0;
    let listing = true;
    const health = (async () => {
      while (listing) {
        const started = performance.now();
        await fetch(`${base}/health`).then((r) => r.text());
        healthWorst = Math.max(healthWorst, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    console.log(`\nlists at scale (${url}${url.startsWith('sqlite:') ? `, ${sqliteReaders} reader threads` : ''}), p95 of ${runs} calls`);
    console.log(`  ${'caller'.padEnd(10)} ${'call'.padEnd(48)} ${'median'.padStart(8)} ${'p95 ms'.padStart(8)} ${'budget'.padStart(7)}  result`);
    for (const username of ['admin', 'reseller1', 'dealer1']) {
      const auth = { authorization: `Bearer ${await token(username)}` };
      for (const [call, budget] of calls) {
        const times: number[] = [];
        let status = 0;
        for (let i = 0; i < runs; i++) {
          const started = performance.now();
          const res = await fetch(`${base}${call}`, { headers: auth });
          await res.text();
          status = res.status;
          times.push(performance.now() - started);
        }
        if (status === 403) continue; // not this role's list
        const value = quantile(times, 0.95);
        const median = quantile(times, 0.5);
        figures.push({ caller: username, call, status, median, p95: value, budget });
        const ok = status === 200 && value <= budget;
        pass &&= ok;
        console.log(`  ${username.padEnd(10)} ${call.padEnd(48)} ${median.toFixed(0).padStart(8)} ${value.toFixed(0).padStart(8)} ${String(budget).padStart(7)}  ${status !== 200 ? `HTTP ${status}` : ok ? 'pass' : 'FAIL'}`);
      }
    }
    listing = false;
    await health;
    const healthOk = healthWorst <= HEALTH_BUDGET_MS;
    pass &&= healthOk;
    console.log(`  /health worst during the lists: ${healthWorst.toFixed(0)} ms (budget ${HEALTH_BUDGET_MS})  ${healthOk ? 'pass' : 'FAIL'}`);
    const rssMb = peakResidentMb(server.child.pid!);
    if (rssMb === null) {
      console.log('  peak RSS of the API process: not measured (no /proc on this system)');
    } else {
      const rssOk = rssMb <= RSS_BUDGET_MB;
      pass &&= rssOk;
      console.log(`  peak RSS of the API process since its start: ${rssMb.toFixed(0)} MB (budget ${RSS_BUDGET_MB})  ${rssOk ? 'pass' : 'FAIL'}`);
    }
  } finally {
    await server.stop();
  }
  return { pass, figures };
}
