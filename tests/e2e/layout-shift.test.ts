/**
 * Pages hold still (docs/domain.md#first-load): every main screen of every role, opened by a normal
 * load at 1440x900 and at 390x844, shifts its layout by less than 0.1 in all (the sum of the
 * browser's layout-shift entries not caused by input, until the page has settled), and a list whose
 * request is slow shows no 'No data' under its spinner while it waits. index.html paints the panel's
 * frame before any script runs.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { expect, it } from 'vitest';
import { GENERAL, LISTS, MENUS, type ResourceName, ROUTES, type Role } from '../../src/contract';
import { PHONE, type Viewport, WIDE_LAPTOP, describeBrowser } from './harness';

const LIMIT = 0.1;
const SLOW_MS = 600;

/**
 * The screens a role's menu opens, in menu order (a resource's own path where it has one: /users is
 * also /accounts), and (admin) the dashboard's links to analytics and the audit logs; the audit logs'
 * own layout is measured elsewhere, here only its loading state.
 */
function screensOf(role: Role): Array<{ resource: ResourceName; path: string; measure: boolean }> {
  const resources = MENUS[role].flatMap((entry) => (typeof entry === 'string' ? [entry] : entry.children));
  if (role === 'admin') resources.push('analytics', 'audit-logs');
  return resources.map((resource) => {
    const routes = ROUTES.filter((r) => r.access?.[0] === resource && r.access[1] === 'list');
    const route = routes.find((r) => r.path === `/${resource}`) ?? routes[0];
    return { resource, path: route.example, measure: resource !== 'audit-logs' };
  });
}

/** What a screen's content waits for: its list's request, or the dashboard's figures. */
function dataPathOf(resource: ResourceName): string | null {
  if (resource === 'dashboard') return 'dashboard/stats';
  return Object.hasOwn(LISTS, resource) ? LISTS[resource as keyof typeof LISTS].path : null;
}

interface Shift {
  total: number;
  /** The largest entries and what moved, to tell where a shift comes from. */
  worst: string[];
}

/** The layout shift of the page since it was opened, from the buffered entries. */
async function layoutShift(page: Page): Promise<Shift> {
  return page.evaluate(
    () =>
      new Promise<Shift>((resolve) => {
        type Entry = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> };
        new PerformanceObserver((list, observer) => {
          observer.disconnect();
          const entries = (list.getEntries() as Entry[]).filter((e) => !e.hadRecentInput);
          const name = (node?: Node | null) => {
            const element = node instanceof Element ? node : node?.parentElement;
            return element ? `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 2).join('.')}` : '?';
          };
          const worst = [...entries]
            .sort((a, b) => b.value - a.value)
            .slice(0, 3)
            .map((e) => `${e.value.toFixed(3)}@${Math.round(e.startTime)}ms ${(e.sources ?? []).map((s) => name(s.node)).join(',')}`);
          resolve({ total: entries.reduce((sum, e) => sum + e.value, 0), worst });
        }).observe({ type: 'layout-shift', buffered: true });
        // No entry at all: the observer is never called.
        setTimeout(() => resolve({ total: 0, worst: [] }), 300);
      }),
  );
}

/** Something still loading: the route's fallback, a spinner, a skeleton. */
const LOADING = '[role="status"][aria-label="Loading"], .ant-spin-spinning, .ant-skeleton';

/**
 * Opens the path by a normal load and waits until the page has settled: the frame is drawn, nothing
 * shows as loading, and no request has been under way for half a second (the browser's own network
 * idle fires once per load, possibly before a lazily loaded page has asked for its data).
 */
async function settle(page: Page, path: string) {
  const inFlight = new Set<Request>();
  let lastActivity = Date.now();
  const started = (request: Request) => (inFlight.add(request), (lastActivity = Date.now()));
  const ended = (request: Request) => (inFlight.delete(request), (lastActivity = Date.now()));
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await page.goto(path);
    await page.getByTestId('panel-name').waitFor();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const quiet = inFlight.size === 0 && Date.now() - lastActivity >= 500;
      if (quiet && (await page.locator(LOADING).count()) === 0) break;
      if (Date.now() > deadline) throw new Error(`${path} did not settle (${[...inFlight].map((r) => r.url()).join(', ')} under way)`);
      await page.waitForTimeout(100);
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

const noDataVisible = (page: Page) =>
  page
    .getByText(new RegExp(`^(${GENERAL.noData}|No data)$`))
    .filter({ visible: true })
    .count();

async function signIn(browser: Browser, baseUrl: string, role: Role, viewport: Viewport): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Username').fill(role);
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByTestId('panel-name').waitFor();
  return page;
}

describeBrowser('layout shift and loading states', (ctx) => {
  const figures: string[] = [];
  /** Screens whose slow load was checked at a size: the lists are the same component for every role. */
  const slowChecked = new Set<string>();

  it('paints the panel frame from index.html before the panel scripts run, dark where the system is, and React replaces it', async () => {
    for (const [colorScheme, background] of [
      ['light', 'rgb(245, 245, 245)'],
      ['dark', 'rgb(0, 0, 0)'],
    ] as const) {
      const context = await ctx.browser.newContext({ viewport: PHONE, baseURL: ctx.product.baseUrl, colorScheme });
      // The panel's scripts never arrive: what shows is index.html with its one inline script.
      await context.route(/\.js(\?|$)/, (route) => route.abort());
      const bare = await context.newPage();
      await bare.goto('/');
      expect(await bare.locator('#root .boot-spinner').isVisible()).toBe(true);
      expect(await bare.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
      await context.close();
    }

    const page = await ctx.newPage({ viewport: PHONE });
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    expect(await page.locator('.boot').count()).toBe(0);
    await page.context().close();
  });

  for (const role of ['admin', 'manager', 'reseller', 'dealer'] as const) {
    for (const viewport of [WIDE_LAPTOP, PHONE]) {
      const size = `${viewport.width}x${viewport.height}`;
      it(`${role} at ${size}: every main screen shifts less than ${LIMIT}, and no list says 'No data' while it loads`, { timeout: 240_000 }, async () => {
        const page = await signIn(ctx.browser, ctx.product.baseUrl, role, viewport);
        const failures: string[] = [];
        for (const { resource, path, measure } of screensOf(role)) {
          if (measure) {
            await settle(page, path);
            const shift = await layoutShift(page);
            figures.push(`${role.padEnd(8)} ${size.padEnd(8)} ${path.padEnd(20)} ${shift.total.toFixed(3)}${shift.total >= LIMIT ? `  ${shift.worst.join(' | ')}` : ''}`);
            if (shift.total >= LIMIT) failures.push(`${path}: layout shift ${shift.total.toFixed(3)} (${shift.worst.join(' | ')})`);
          }

          // The same screen on a slow network: its data answers late; meanwhile the page shows no empty state.
          const dataPath = dataPathOf(resource);
          if (!dataPath || slowChecked.has(`${size} ${path}`)) continue;
          slowChecked.add(`${size} ${path}`);
          const pattern = new RegExp(`/api/v1/${dataPath}(\\?|$)`);
          const seen: number[] = [];
          await page.route(pattern, async (route) => {
            // Held until the page has drawn its frame and what shows while it waits.
            await page.getByTestId('panel-name').waitFor({ timeout: 20_000 });
            await page.waitForTimeout(SLOW_MS);
            seen.push(await noDataVisible(page));
            await route.continue().catch(() => undefined);
          });
          await settle(page, path);
          await page.unroute(pattern);
          if (seen.length === 0) failures.push(`${path}: its request to ${dataPath} was not seen, or nothing was drawn while it waited`);
          else if (seen.some((n) => n > 0)) failures.push(`${path}: 'No data' shown while ${dataPath} was pending`);
        }
        await page.context().close();
        expect(failures).toEqual([]);
      });
    }
  }

  it('figures', () => {
    console.log(`layout shift per screen (limit ${LIMIT}):\n${figures.join('\n')}`);
  });
});
