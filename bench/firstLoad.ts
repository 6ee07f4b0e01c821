/**
 * The panel's first load against its budgets (docs/performance.md), next to two baselines showing the
 * same rows: a minimal Refine + antd page (bench/minimal/) and a standard Refine app (bench/standard/:
 * `ThemedLayout`, router, auth and notification providers, a `useTable` list), and the panel with the
 * minimal page's bare table in place of its accounts page (its frame, providers and sign-in around the
 * same table: the part of the difference that no change to the page removes). All are built in this
 * run with the panel's Vite config and served by the same server on a temporary SQLite database with
 * the demo seed. Sizes are what a gzip client downloads (the build's .gz copies); times run from
 * navigation to the /users rows painted, as medians over fresh browser contexts (cold cache) and over
 * reloads (warm cache) in headless Chromium. Goal: the panel within 1.2 x the standard app.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Plugin, Rolldown } from 'vite';
import { buildApp } from '../server/app';
import { viteBuild } from '../server/panelBuild';
import { STORAGE_KEYS } from '../src/contract';
import { CHROMIUM, launchBrowser } from '../tests/e2e/harness';
import { listenOnLoopback, startTestServer } from '../tests/server/harness';

const ROOT = path.resolve(import.meta.dirname, '..');
const BUDGETS = { initialJs: 350_000, routeChunk: 60_000 };
// The panel's rows painted at most this many times the standard Refine app's, cold and warm.
const STANDARD_GOAL = 1.2;
const RUNS = Number(process.env.BENCH_PAINT_RUNS ?? 5);
const ROW = '.ant-table-tbody tr.ant-table-row';

interface Built {
  dir: string;
  chunks: Rolldown.OutputChunk[];
}

async function buildInto(root: string, dir: string, plugins: Plugin[] = []): Promise<Built> {
  const outputs = [await viteBuild(root, dir, plugins)].flat() as Rolldown.RolldownOutput[];
  return { dir, chunks: outputs.flatMap((o) => o.output).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk') };
}

/** What a client downloads for a built file with this encoding: its precompressed copy, or the file itself when too small for one. */
const wireBytes = (dir: string, file: string, extension: '.gz' | '.br') =>
  (fs.statSync(path.join(dir, file + extension), { throwIfNoEntry: false }) ?? fs.statSync(path.join(dir, file))).size;

/** The scripts index.html loads: its module scripts and modulepreloads. */
function initialFiles(dir: string): string[] {
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  return [...html.matchAll(/<script[^>]*\ssrc="\/([^"]+)"|<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map((m) => m[1] ?? m[2]);
}

// The minimal page's table, put in place of the panel's accounts page (src/resources/accounts).
const BARE_TABLE = path.join(ROOT, 'bench', 'minimal', 'AccountsTable.tsx');
const bareAccountsPage = (): Plugin => ({
  name: 'bare-accounts-page',
  enforce: 'pre',
  resolveId: (source, importer) => (source === './AccountsPage' && importer === path.join(ROOT, 'src', 'resources', 'accounts', 'index.tsx') ? BARE_TABLE : null),
});

/** The panel with the minimal page's table as its accounts page. */
async function buildFrame(dir: string): Promise<Built> {
  const built = await buildInto(ROOT, dir, [bareAccountsPage()]);
  if (!built.chunks.some((c) => BARE_TABLE in c.modules)) throw new Error(`the panel's accounts page was not replaced by ${BARE_TABLE}`);
  return built;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const bytes = (n: number) => `${n.toLocaleString('en-US')} B`;

/** One figure per line: what, how much, its budget or goal and whether it is met, and a note. */
function report(label: string, figure: string, budget = '', within?: boolean, note = '') {
  const verdict = within === undefined ? '' : within ? 'within' : 'OVER';
  console.log(`  ${label.padEnd(46)} ${figure.padStart(24)}   ${budget.padEnd(30)} ${verdict.padEnd(6)} ${note}`.trimEnd());
}

function initialJs(built: Built) {
  const files = initialFiles(built.dir);
  return { files, gzip: sum(files.map((f) => wireBytes(built.dir, f, '.gz'))), brotli: sum(files.map((f) => wireBytes(built.dir, f, '.br'))) };
}

/** Chunks loaded with a chunk: itself and what it imports statically, transitively. */
function closure(built: Built, chunk: Rolldown.OutputChunk): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of built.chunks.find((c) => c.fileName === file)!.imports) visit(imported);
  };
  visit(chunk.fileName);
  return seen;
}

function sizes(panel: Built, standard: Built, minimal: Built) {
  const first = initialJs(panel);
  const initialNote = (js: typeof first) => `${js.files.length} files, brotli ${bytes(js.brotli)}`;
  report('panel: initial JS (gzip)', bytes(first.gzip), `budget ${bytes(BUDGETS.initialJs)}`, first.gzip <= BUDGETS.initialJs, initialNote(first));
  for (const [label, built] of [
    ['standard Refine app', standard],
    ['minimal page', minimal],
  ] as const) {
    const js = initialJs(built);
    report(`${label}: initial JS (gzip)`, bytes(js.gzip), '', undefined, initialNote(js));
  }

  // The chunks of the panel's own lazily loaded modules; route chunks are those of its pages.
  const lazy = panel.chunks
    .filter((c) => c.isDynamicEntry && c.facadeModuleId?.startsWith(path.join(ROOT, 'src')))
    .map((c) => ({ name: path.relative(ROOT, c.facadeModuleId!), gzip: wireBytes(panel.dir, c.fileName, '.gz'), chunk: c }))
    .sort((a, b) => b.gzip - a.gzip);
  const routes = lazy.filter((l) => /^src[\\/](pages|resources)[\\/]/.test(l.name));
  const largest = routes[0];
  if (largest) {
    report(
      `panel: largest of ${routes.length} route chunks (gzip)`,
      bytes(largest.gzip),
      `budget ${bytes(BUDGETS.routeChunk)}`,
      largest.gzip <= BUDGETS.routeChunk,
      largest.name,
    );
  } else report('panel: largest route chunk (gzip)', 'none', '', undefined, 'no page is loaded lazily');

  // @ant-design/plots stays out of the first load and comes only with what draws charts.
  const plots = panel.chunks.filter((c) => Object.keys(c.modules).some((id) => /node_modules[\\/]@ant-design[\\/]plots[\\/]/.test(id)));
  const inFirstLoad = plots.filter((p) => first.files.includes(p.fileName));
  const loadedWith = lazy.filter((l) => plots.some((p) => closure(panel, l.chunk).has(p.fileName))).map((l) => l.name);
  report(
    'panel: @ant-design/plots (gzip)',
    bytes(sum(plots.map((p) => wireBytes(panel.dir, p.fileName, '.gz')))),
    'only in chunks that draw charts',
    plots.length > 0 && inFirstLoad.length === 0,
    inFirstLoad.length > 0 ? `in the first load: ${inFirstLoad.map((p) => p.fileName).join(', ')}` : `loaded with ${loadedWith.join(', ')}`,
  );
}

/** Milliseconds from navigation to the first table rows painted (the frame after they are in the DOM). */
async function rowsPainted(context: BrowserContext, url: string, reuse?: Page) {
  const page = reuse ?? (await context.newPage());
  await page.goto(url, { waitUntil: 'commit' });
  const ms = await page.evaluate(() => (window as unknown as { rowsPainted: Promise<number> }).rowsPainted);
  // Ant Design writes its styles at run time, for each component as it first renders: a cost of what a page mounts.
  const styleChars = await page.evaluate(() => [...document.querySelectorAll('style')].reduce((n, style) => n + (style.textContent?.length ?? 0), 0));
  return { page, ms, rows: await page.locator(ROW).count(), styleChars };
}

async function signedInContext(browser: Browser, token: string, role: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(
    ({ token, role, keys, row }) => {
      localStorage.setItem(keys.token, token);
      localStorage.setItem(keys.userRole, role);
      (window as unknown as { rowsPainted: Promise<number> }).rowsPainted = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (!document.querySelector(row)) return;
          observer.disconnect();
          // The frame that shows the rows: a task queued from its animation frame runs after its paint.
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve(performance.now());
            channel.port2.postMessage(null);
          });
        });
        observer.observe(document, { childList: true, subtree: true });
      });
    },
    { token, role, keys: STORAGE_KEYS, row: ROW },
  );
  return context;
}

interface Served {
  /** The built page. */
  dir: string;
  /** Its /users rows, under the server's address. */
  path: string;
}

async function paintTimes(targets: { panel: Served; standard: Served; frame: Served; minimal: Served }) {
  const { ctx, stop } = await startTestServer('sqlite', {}, targets.panel.dir);
  const names = Object.keys(targets) as Array<keyof typeof targets>;
  const others = await Promise.all(names.filter((n) => n !== 'panel').map((n) => buildApp({ db: ctx.db, config: ctx.config, panelDir: targets[n].dir })));
  const browser = await launchBrowser();
  try {
    const urls: Record<string, string> = { panel: `${ctx.baseUrl}${targets.panel.path}` };
    for (const [i, name] of names.filter((n) => n !== 'panel').entries()) urls[name] = `${await listenOnLoopback(others[i])}${targets[name].path}`;
    const token = (await ctx.as('admin')).token!;
    const cold: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const warm: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const shown: Record<string, { rows: number; styleChars: number }> = {};
    // One unmeasured load of each first, then runs in turn so that drift in the machine's load hits all of them.
    for (let run = -1; run < RUNS; run++) {
      for (const name of names) {
        const context = await signedInContext(browser, token, 'admin');
        const first = await rowsPainted(context, urls[name]);
        shown[name] = first;
        const again = await rowsPainted(context, urls[name], first.page);
        if (run >= 0) {
          cold[name].push(first.ms);
          warm[name].push(again.ms);
        }
        await context.close();
      }
    }
    const what = (name: string) => `${shown[name].rows} rows, ${Math.round(shown[name].styleChars / 1000)}k chars of styles`;
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    for (const [label, times] of [
      ['cold cache', cold],
      ['warm cache', warm],
    ] as const) {
      const [panel, standard, frame, minimal] = [median(times.panel), median(times.standard), median(times.frame), median(times.minimal)];
      report(
        `/users rows painted, ${label}: panel / standard`,
        `${ms(panel)} / ${ms(standard)}`,
        `goal: ${STANDARD_GOAL}x (${(panel / standard).toFixed(2)}x)`,
        panel <= STANDARD_GOAL * standard,
        `median of ${RUNS}; panel ${what('panel')}, standard app ${what('standard')}`,
      );
      report(`  the minimal page`, ms(minimal), `panel ${(panel / minimal).toFixed(2)}x, standard ${(standard / minimal).toFixed(2)}x`, undefined, what('minimal'));
      report(
        `  the panel with the minimal page's table`,
        ms(frame),
        `${(frame / minimal).toFixed(2)}x the minimal page`,
        undefined,
        `its frame, providers and sign-in, ${what('frame')}`,
      );
    }
  } finally {
    await browser.close();
    await Promise.all(others.map((app) => app.close()));
    await stop();
  }
}

export async function benchFirstLoad() {
  console.log('\nfirst load (the panel, a standard Refine app and a minimal Refine + antd page, same build config and server)');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-bench-'));
  try {
    const panel = await buildInto(ROOT, path.join(tmp, 'panel'));
    const standard = await buildInto(path.join(ROOT, 'bench', 'standard'), path.join(tmp, 'standard'));
    const minimal = await buildInto(path.join(ROOT, 'bench', 'minimal'), path.join(tmp, 'minimal'));
    sizes(panel, standard, minimal);
    if (fs.existsSync(CHROMIUM)) {
      const frame = await buildFrame(path.join(tmp, 'frame'));
      await paintTimes({
        panel: { dir: panel.dir, path: '/users' },
        standard: { dir: standard.dir, path: '/users' },
        frame: { dir: frame.dir, path: '/users' },
        minimal: { dir: minimal.dir, path: '/' },
      });
    } else console.log(`  paint times skipped: no Chromium at ${CHROMIUM}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
