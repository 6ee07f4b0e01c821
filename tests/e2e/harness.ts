/**
 * Browser tests against the real product: `npm start` (scripts/start.mjs) on a temporary SQLite
 * database in demo mode, driven by playwright-core in Debian's Chromium.
 *
 * Chromium missing: the suite is skipped with a printed reason, unless REQUIRE_BROWSER=true (CI),
 * where it fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type Page, type Request, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { API_NODE_FLAGS } from '../../scripts/apiProcess.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserAvailable = fs.existsSync(CHROMIUM);
if (!browserAvailable) {
  if (process.env.REQUIRE_BROWSER === 'true') throw new Error(`Chromium is required but missing at ${CHROMIUM} (apt-get install -y chromium)`);
  console.warn(`Skipping the browser layer: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface Product {
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the product as `npm start` would, on a free loopback port and a temporary database. */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [...API_NODE_FLAGS, path.join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dataDir, 'panel.sqlite')}`,
      DEMO_MODE: 'true',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000; // the first start may build the panel
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The product exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/v1/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`The product did not answer in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The window a page opens in; the panel's default is a laptop. */
export interface Viewport {
  width: number;
  height: number;
}
export const LAPTOP: Viewport = { width: 1366, height: 900 };
export const PHONE: Viewport = { width: 390, height: 844 };
export const WIDE_LAPTOP: Viewport = { width: 1440, height: 900 };

export interface PageOptions {
  viewport?: Viewport;
}

export interface E2EContext {
  product: Product;
  browser: Browser;
  /** A fresh page (own storage) signed in as the given demo user. */
  signIn(username: string, password?: string, options?: PageOptions): Promise<Page>;
  newPage(options?: PageOptions): Promise<Page>;
}

/**
 * Keeps the text of every toast the page shows in `window.shownToasts`, as each appears. A toast lasts
 * seconds; on a machine busy with the other test layers, a test can look only after it has gone.
 */
/** A toast: an antd message or notification. */
export const TOAST = '.ant-message-notice, .ant-notification-notice';

function recordToasts(selector: string) {
  const shown: string[] = [];
  const read = new WeakMap<Element, string>();
  (window as unknown as { shownToasts: string[] }).shownToasts = shown;
  new MutationObserver(() => {
    for (const toast of document.querySelectorAll(selector)) {
      const text = toast.textContent ?? '';
      if (text && read.get(toast) !== text) {
        read.set(toast, text);
        shown.push(text);
      }
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/** Each page's API calls: method, path, when sent, and the status and time once answered. */
const apiLogs = new WeakMap<Page, Array<{ call: string; sent: number; status?: number; ms?: number }>>();

function withApiLog(page: Page): Page {
  const log: Array<{ call: string; sent: number; status?: number; ms?: number }> = [];
  apiLogs.set(page, log);
  const entries = new Map<unknown, (typeof log)[number]>();
  page.on('request', (r) => {
    if (!r.url().includes('/api/')) return;
    const entry = { call: `${r.method()} ${new URL(r.url()).pathname}`, sent: Date.now() };
    entries.set(r, entry);
    log.push(entry);
  });
  const answered = (r: Request, status: number) => {
    const entry = entries.get(r);
    if (entry) Object.assign(entry, { status, ms: Date.now() - entry.sent });
  };
  page.on('requestfinished', async (r) => answered(r, (await r.response().catch(() => null))?.status() ?? 0));
  page.on('requestfailed', (r) => answered(r, -1));
  return page;
}

/** The page's last API calls, for a failure's message: 'METHOD path status in ms', or 'pending for ms'. */
function lastApiCalls(page: Page, count = 8): string {
  const now = Date.now();
  return (apiLogs.get(page) ?? [])
    .slice(-count)
    .map((e) => `${e.call} ${e.status === undefined ? `pending for ${now - e.sent} ms` : `${e.status} in ${e.ms} ms`}`)
    .join('; ');
}

/** Waits until the page has shown a toast containing `text` (since its document loaded), on screen still or not. */
export async function waitForToast(page: Page, text: string, timeout = 30_000) {
  const shownToasts = () => (window as unknown as { shownToasts?: string[] }).shownToasts ?? [];
  try {
    await page.waitForFunction((t) => ((window as unknown as { shownToasts?: string[] }).shownToasts ?? []).some((s) => s.includes(t)), text, { timeout, polling: 100 });
  } catch {
    const shown = await page.evaluate(shownToasts).catch(() => ['(the page could not be read)']);
    const dialogs = await page
      .locator('.ant-modal-wrap:visible .ant-modal')
      .allInnerTexts()
      .catch(() => []);
    throw new Error(
      `No toast with "${text}" within ${timeout} ms; the page showed: ${JSON.stringify(shown)}; its last API calls: ${lastApiCalls(page)}; dialogs open: ${JSON.stringify(dialogs)}`,
    );
  }
}

export interface BrowserSuiteOptions {
  /** The product's environment, beside the harness's own. */
  env?: Record<string, string>;
  /**
   * Whether pages animate. Off by default (the device asks for reduced motion, which the panel
   * honours): on a machine busy with the other layers, a click could land on a dialog still zooming in
   * and be lost. The axe sweep keeps motion, so the animated path is drawn and checked too.
   */
  motion?: boolean;
}

/** A suite with one running product and one browser; skipped when Chromium is missing. */
export function describeBrowser(name: string, suite: (ctx: E2EContext) => void, { env = {}, motion = false }: BrowserSuiteOptions = {}) {
  (browserAvailable ? describe : describe.skip)(name, () => {
    const ctx = {} as E2EContext;
    beforeAll(async () => {
      ctx.product = await startProduct(env);
      ctx.browser = await launchBrowser();
      ctx.newPage = async ({ viewport = LAPTOP }: PageOptions = {}) => {
        const context = await ctx.browser.newContext({ viewport, baseURL: ctx.product.baseUrl, reducedMotion: motion ? 'no-preference' : 'reduce' });
        await context.addInitScript(recordToasts, TOAST);
        return withApiLog(await context.newPage());
      };
      ctx.signIn = async (username, password = 'demo-password', options = {}) => {
        const page = await ctx.newPage(options);
        await page.goto('/login');
        await page.getByLabel('Username').fill(username);
        await page.getByLabel('Password').fill(password);
        await page.getByRole('button', { name: 'Sign In' }).click();
        await page.getByTestId('panel-name').waitFor();
        return page;
      };
    });
    afterAll(async () => {
      await ctx.browser?.close();
      await ctx.product?.stop();
    });
    suite(ctx);
  });
}

/** Makes a demo theme the active one, as the admin does on the Themes screen (through the API). */
export async function themeSwitcher(product: Product): Promise<(slug: string) => Promise<unknown>> {
  const api = async (path: string, init: RequestInit = {}, token?: string) => {
    const res = await fetch(`${product.baseUrl}/api/v1${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}`);
    return res.json();
  };
  const { token } = await api('/login', { method: 'POST', body: JSON.stringify({ username: 'admin', password: 'demo-password' }) });
  const { themes } = await api('/themes', {}, token);
  return (slug) => {
    const theme = themes.find((t: { slug: string }) => t.slug === slug);
    const body = { name: theme.name, slug: theme.slug, description: theme.description ?? '', is_active: true };
    return api(`/themes/${theme.id}`, { method: 'PUT', body: JSON.stringify(body) }, token);
  };
}
