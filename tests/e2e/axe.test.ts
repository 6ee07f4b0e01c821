/**
 * axe-core, with the rules it runs by default plus `label-content-name-mismatch` (a control's name
 * contains its visible text), finds no serious or critical violation: on the public pages, on every
 * route the route table opens to each role (its whole menu among them), and in every dialog, drawer
 * and menu those screens open (their own buttons, the first row's actions, the bulk actions over the
 * first row, the header's user menu, the phone's drawer menu), for each role at 390x844 and 1440x900;
 * and on the main screens in the dark theme.
 *
 * One signed-in page per role goes through both sizes (resized, antd's breakpoints follow) and every
 * route inside the app (history.pushState and a popstate event, which the router follows), so the panel
 * and axe-core load once per role; each step waits for conditions (no request in flight, the page
 * unchanged for a moment, nothing loading or moving), never for a fixed time.
 */
import axe from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LAYOUT, MENUS, ROLES, ROUTES, type Role, type RouteSpec } from '../../src/contract';
import { type E2EContext, PHONE, TOAST, type Viewport, WIDE_LAPTOP, describeBrowser, themeSwitcher } from './harness';

const VIEWPORTS: Array<[string, Viewport]> = [
  ['phone', PHONE],
  ['laptop', WIDE_LAPTOP],
];

/** What axe-core runs by default, and the check that a control's name contains its visible text (WCAG 2.5.3), off by default. */
const AXE_OPTIONS = { rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] };

const STARTED = Date.now();
/** With AXE_TRACE=1, each step of the sweep and how long each axe run took, as it goes. */
const TRACE = (step: string) => process.env.AXE_TRACE && process.stderr.write(`[${((Date.now() - STARTED) / 1000).toFixed(1)} s] ${step}\n`);

/** Requests of each page still in flight (documents, scripts, API calls). */
const inFlight = new WeakMap<Page, Set<unknown>>();

/** A page that has axe-core (now and in every document it loads), and counts its requests in flight. */
async function withAxe(page: Page): Promise<Page> {
  await page.addInitScript({ content: axe.source });
  await page.evaluate(axe.source);
  await page.addInitScript(installAnalyseStill);
  await page.evaluate(installAnalyseStill);
  const pending = new Set<unknown>();
  inFlight.set(page, pending);
  page.on('request', (r) => pending.add(r));
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
  return page;
}

/**
 * Resolves once React has no render pending (a route the router follows renders in a transition, with
 * no change to the document until it commits), the document has not changed for `quietMs`, nothing in
 * it is loading (spinner, skeleton, a button's loading state) and every motion that ends has ended (axe
 * reads the colours of an element mid-fade otherwise); rejects after `limitMs` with what still moves.
 * Answers what it waited for last.
 */
function quietInPage([quietMs, limitMs]: [number, number]): Promise<string> {
  return new Promise((resolve, reject) => {
    let last = performance.now();
    let why = '';
    // The fading ring a clicked button draws (antd's wave, 2 s) is on the opener, outside what is analysed.
    const wave = (n: Node) => n instanceof Element && n.closest('.ant-wave') !== null;
    const observer = new MutationObserver((records) => {
      const changed = records.filter((r) => !wave(r.target) && ![...r.addedNodes, ...r.removedNodes].every(wave));
      if (changed.length === 0) return;
      last = performance.now();
      const target = changed[0]!.target as Element;
      why = `a change in ${target.nodeName} ${typeof target.className === 'string' ? target.className.slice(0, 60) : ''}`;
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const container = document.getElementById('root') as unknown as Record<string, { stateNode?: { pendingLanes?: number } }> | null;
    const key = container && Object.keys(container).find((k) => k.startsWith('__reactContainer$'));
    const fiberRoot = key ? container[key]!.stateNode : undefined;
    const started = performance.now();
    const busy = () => {
      if (fiberRoot?.pendingLanes) return 'a React render';
      const loading = document.querySelector('.ant-spin-spinning, .ant-skeleton-active, .ant-btn-loading');
      if (loading) return `loading: ${loading.className.slice(0, 60)}`;
      const moving = document
        .getAnimations()
        .find((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity && !wave((a.effect as KeyframeEffect | null)?.target as Node));
      if (moving)
        return `moving: ${(moving as CSSAnimation).animationName ?? (moving as CSSTransition).transitionProperty ?? ''} on ${((moving.effect as KeyframeEffect | null)?.target as Element | null)?.className ?? ''}`.slice(
          0,
          120,
        );
      return '';
    };
    const check = () => {
      const now = performance.now();
      const busyNow = busy();
      if (busyNow) {
        last = now;
        why = busyNow;
      }
      if (now - last >= quietMs) {
        observer.disconnect();
        resolve(why);
      } else if (now - started > limitMs) {
        observer.disconnect();
        reject(new Error(`not settled after ${limitMs} ms: ${why}`));
      } else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/** The page has settled: no request in flight, and the document quiet (quietInPage). */
async function quiet(page: Page, quietMs = 150) {
  const pending = inFlight.get(page)!;
  const t0 = Date.now();
  for (let round = 0; ; round++) {
    const why = await page.evaluate(quietInPage, [quietMs, 15_000] as [number, number]);
    TRACE(`quiet round ${round} after ${Date.now() - t0} ms (last ${why}), ${pending.size} in flight`);
    if (pending.size === 0) return;
    if (round > 100) throw new Error(`requests still in flight: ${[...pending].map(String).join(', ')}`);
    await page.waitForEvent('requestfinished', { timeout: 15_000 }).catch(() => undefined);
  }
}

/**
 * Defines `window.analyseStill(root, options)`: axe-core's violations within `root`, or null when
 * something started or was moving while axe read the page (a toast arriving or fading out after the
 * page settled): colours read mid-fade are no finding, so the caller settles and analyses again.
 */
function installAnalyseStill() {
  const wave = (n: unknown) => n instanceof Element && n.closest('.ant-wave') !== null;
  const moving = () =>
    document
      .getAnimations()
      .some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity && !wave((a.effect as KeyframeEffect | null)?.target));
  (window as unknown as { analyseStill: unknown }).analyseStill = async (root: Element | Document, options: axe.RunOptions) => {
    let started = false;
    const mark = (e: Event) => void (wave(e.target) || (started = true));
    const kinds = ['animationstart', 'transitionrun'];
    for (const kind of kinds) document.addEventListener(kind, mark, true);
    try {
      const before = moving();
      const { violations } = await window.axe.run(root, options);
      return before || started || moving() ? null : violations;
    } finally {
      for (const kind of kinds) document.removeEventListener(kind, mark, true);
    }
  };
}

/** The axe-core violations of impact serious or critical as 'rule target (why)' lines, on the page or within one element of it. */
async function seriousViolations(within: Page | Locator): Promise<string[]> {
  const t0 = Date.now();
  const page = 'goto' in within ? within : within.page();
  let violations: axe.Result[] | null = null;
  for (let attempt = 1; violations === null; attempt++) {
    if (attempt > 1) {
      if (attempt > 5) throw new Error('axe never read the page still: something kept moving');
      TRACE(`analyze again: something moved during attempt ${attempt - 1}`);
      await quiet(page, 100);
    }
    // The element is found and handed to axe in one step: a dialog re-rendered meanwhile is no stale scope.
    violations =
      'goto' in within
        ? await within.evaluate((options) => window.analyseStill(document, options as axe.RunOptions), AXE_OPTIONS)
        : await within.evaluate((el, options) => window.analyseStill(el, options as axe.RunOptions), AXE_OPTIONS, { timeout: 5_000 });
  }
  const lines = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')} (${n.failureSummary?.split('\n')[1]?.trim() ?? ''})`));
  TRACE(`analyze ${'goto' in within ? within.url() : 'layer'} ${Date.now() - t0}ms ${lines.join(' | ')}`);
  return lines;
}
declare global {
  interface Window {
    axe: typeof axe;
    analyseStill(root: Element | Document, options: axe.RunOptions): Promise<axe.Result[] | null>;
  }
}

/** The page has settled: its h1 is drawn, nothing is loading or moving. */
async function settled(page: Page) {
  await page.locator('h1').first().waitFor({ timeout: 20_000 });
  await quiet(page);
}

/** Opens `path` inside the app, as a link does: the router follows the history entry, nothing reloads. */
async function navigate(page: Page, path: string) {
  await page.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
  // Out of the way: the page stays, and what the last click left under the pointer would be read hovered.
  await page.mouse.move(0, 0);
  await settled(page);
}

/** The routes a signed-in role may open, as the route table gives them. */
const routesOf = (role: Role) => ROUTES.filter((r) => r.spec !== 'public' && (r.contract ?? r.spec).includes(role));
/** The resources of a role's menu. */
const menuOf = (role: Role) => MENUS[role].flatMap((entry) => (typeof entry === 'string' ? [entry] : entry.children));
/**
 * A resource's routes open the same dialogs ('/' and '/dashboard', '/users' and '/accounts', a list and
 * its edit route over it, its transactions in the one data table): they are swept on its first route.
 */
const resourceOf = (route: RouteSpec) => route.access?.[0] ?? route.path;

/** Buttons that open a dialog, a drawer or a menu (header buttons, a card's own actions); others change data or download. */
const OPENERS = /^(Add|Create|New|Edit|Delete|View|Open|Notifications|Promote|Send|Quick Renew|Bulk Renew|Recovery|Columns)/i;
/** Row menu actions that act at once, without a dialog. */
const ACTS_AT_ONCE = /^(Activate|Deactivate|Suspend|Check Connection)$/i;
/** Bulk actions that act at once (every other opens its preview or confirmation). */
const BULK_ACTS_AT_ONCE = /^Clear selection$/i;

/** An open dialog, drawer or popover. */
const DIALOG = '.ant-modal-wrap:visible .ant-modal, .ant-drawer-open .ant-drawer-content, .ant-popover:visible';
/** An open dropdown menu. */
const MENU = '.ant-dropdown:visible';
const OPEN_LAYER = `${DIALOG}, ${MENU}`;

/**
 * The visible layer (`kind`) the last action opened, if one opens within `wait` ms (a dialog that loads
 * its code first takes seconds on a busy machine, and one taken for none would cover the next button);
 * an action that navigated instead opens none, and one that only raised a toast opens none within a
 * short grace.
 */
async function openedLayer(page: Page, kind: string, from: { url: string; toasts: number }, wait = 6000): Promise<Locator | null> {
  const layer = page.locator(kind).last();
  const shown = (timeout: number) =>
    layer.waitFor({ state: 'visible', timeout }).then(
      () => true,
      () => false,
    );
  const other = (p: Promise<unknown>) =>
    p.then(
      () => false,
      () => false,
    );
  const opened = await Promise.race([
    shown(wait),
    other(page.waitForURL((u) => u.href !== from.url, { timeout: wait, waitUntil: 'commit' })),
    other(page.waitForFunction(([selector, n]) => document.querySelectorAll(selector).length > n, [TOAST, from.toasts] as const, { timeout: wait })),
  ]);
  if (opened || (page.url() === from.url && (await shown(300)))) return layer;
  return null;
}

/** Closes the open layers: Escape, then a close button, until none is open. */
async function closeLayers(page: Page) {
  const open = page.locator(OPEN_LAYER);
  for (let i = 0; i < 4 && (await open.count()) > 0; i++) {
    await page.keyboard.press('Escape');
    try {
      await open.first().waitFor({ state: 'hidden', timeout: 2_000 });
    } catch {
      const close = page.locator('.ant-modal-wrap:visible .ant-modal-close, .ant-drawer-open .ant-drawer-close').last();
      // A menu or popover that kept its place on Escape closes on a click outside it (the heading does nothing).
      if (await close.count()) await close.click();
      else await page.locator('h1').first().click({ timeout: 5_000 });
      await page.mouse.move(0, 0);
    }
  }
  // A layer closing is still drawn until its closing motion ends, which a busy machine draws slowly.
  await expect.poll(() => open.count(), { message: 'a dialog or menu stays open', timeout: 10_000 }).toBe(0);
}

interface Sweep {
  page: Page;
  /** 'role size' */
  who: string;
  found: string[];
}

/**
 * Runs `open`; when it opens a dialog, drawer or menu, audits it alone once drawn and closes it again;
 * when it navigates instead, comes back.
 */
async function auditLayer(s: Sweep, where: string, open: () => Promise<void>, kind = OPEN_LAYER) {
  const { page } = s;
  const url = page.url();
  const toasts = await page.locator(TOAST).count();
  TRACE(`open ${where}`);
  await open();
  // Out of the way: a button under the pointer would be read in its hover colours.
  await page.mouse.move(0, 0);
  const layer = await openedLayer(page, kind, { url, toasts });
  if (layer) await quiet(page, 100);
  // A layer gone once settled was a passing tooltip or toast's popover, not a dialog.
  if (layer && (await layer.isVisible())) {
    s.found.push(...(await seriousViolations(layer)).map((v) => `${s.who} ${where} ${v}`));
    await closeLayers(page);
  } else if (page.url() !== url) {
    await navigate(page, new URL(url).pathname + new URL(url).search);
  }
}

/** A button's name as a person reads it: its label, else its text. */
const buttonNames = (buttons: Locator) => buttons.evaluateAll((all) => all.map((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim()));

/**
 * Every dialog the screen opens: from its own buttons (the first of each kind), from the first row's
 * actions menu, and from the bulk actions over the first row.
 */
async function auditDialogs(s: Sweep, path: string) {
  const { page } = s;
  const own = page
    .locator('.app-content button:visible')
    .filter({ hasNot: page.locator('xpath=ancestor::*[contains(@class, "ant-table-row") or contains(@class, "data-table-card") or contains(@class, "ant-alert")]') });
  const seen = new Set<string>();
  for (const [i, name] of (await buttonNames(own)).entries()) {
    const kind = name.split(' ')[0]!;
    if (!OPENERS.test(name) || seen.has(kind)) continue;
    seen.add(kind);
    await auditLayer(s, `${path} [${name}]`, () => own.nth(i).click());
  }

  const menuButton = page
    .locator('.app-content')
    .getByRole('button', { name: /^Actions for / })
    .first();
  if (await menuButton.isVisible()) {
    await menuButton.click();
    const items = page.locator('.ant-dropdown:visible .ant-dropdown-menu-item');
    await items.first().waitFor();
    await auditLayer(s, `${path} [row menu]`, async () => undefined);
    await menuButton.click();
    const enabled = page.locator('.ant-dropdown:visible .ant-dropdown-menu-item:not(.ant-dropdown-menu-item-disabled)');
    await enabled.first().waitFor();
    const labels = (await enabled.allInnerTexts()).map((t) => t.trim());
    await closeLayers(page);
    for (const label of labels.filter((l) => !ACTS_AT_ONCE.test(l))) {
      await auditLayer(
        s,
        `${path} [row: ${label}]`,
        async () => {
          // A list that redraws its rows closes their menu: opened again once.
          const item = page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: label }).first();
          for (let attempt = 0; ; attempt++) {
            await menuButton.click();
            try {
              await item.click({ timeout: 5_000 });
              break;
            } catch (error) {
              if (attempt > 0) throw error;
              await closeLayers(page);
            }
          }
          // A menu still drawn once its item has opened a dialog (its closing motion cut short) stays out
          // of the audit, which reads the dialog alone; one still open without a dialog is closed.
          await page
            .locator(MENU)
            .waitFor({ state: 'hidden', timeout: 5_000 })
            .catch(async () => {
              if (await page.locator(DIALOG).last().isVisible()) return;
              await page.keyboard.press('Escape');
              await page.locator(MENU).waitFor({ state: 'hidden', timeout: 5_000 });
            });
        },
        DIALOG,
      );
    }
  }

  const select = page
    .locator('.app-content')
    .getByRole('checkbox', { name: /^Select (?!all)/ })
    .first();
  if (await select.isVisible()) {
    await select.check();
    const bulk = page.locator('.app-content .ant-alert button:visible');
    await bulk.first().waitFor();
    for (const name of (await buttonNames(bulk)).filter((n) => !BULK_ACTS_AT_ONCE.test(n))) {
      await auditLayer(s, `${path} [bulk: ${name}]`, () => bulk.filter({ hasText: name }).first().click());
    }
    if (await select.isChecked()) await select.uncheck();
  }
}

/** The header's user menu, and on a phone the drawer menu (the page follows its resize to a phone). */
async function auditHeader(s: Sweep, path: string, size: string) {
  const { page } = s;
  await auditLayer(s, `${path} [user menu]`, () => page.getByTestId('user-menu').click());
  const openMenu = page.getByRole('button', { name: LAYOUT.openMenu });
  expect(await openMenu.isVisible(), `${s.who}: the drawer menu's button`).toBe(size === 'phone');
  if (size === 'phone') await auditLayer(s, `${path} [drawer menu]`, () => openMenu.click());
}

// The sweep (about ten minutes) runs beside the other browser tests in a run of its own: `npm test`
// starts it with AXE_SWEEP=1 (scripts/test.mjs), `npm run test:axe` alone; the browser layer's run skips it.
const SWEEP = process.env.AXE_SWEEP === '1';
if (!SWEEP) console.warn('The axe sweep runs in its own run (npm test runs it beside this one; npm run test:axe alone)');

const describeSweep = SWEEP
  ? (name: string, suite: (ctx: E2EContext) => void) => describeBrowser(name, suite, { motion: true })
  : (name: string, suite: (ctx: E2EContext) => void) => describe.skip(name, () => suite({} as E2EContext));

describeSweep('axe-core finds no serious or critical violation', (ctx) => {
  it('routes cover every role menu', () => {
    for (const role of ROLES) {
      const swept = new Set(routesOf(role).map((r) => r.access?.[0]));
      expect(
        menuOf(role).filter((resource) => !swept.has(resource)),
        role,
      ).toEqual([]);
    }
  });

  it('the panel follows a history entry pushed in it without reloading, as the sweep opens routes', async () => {
    const page = await withAxe(await ctx.signIn('admin', undefined, { viewport: WIDE_LAPTOP }));
    let loads = 0;
    page.on('request', (r) => void (r.resourceType() === 'document' && loads++));
    await navigate(page, '/dashboard');
    const dashboard = await page.locator('h1').first().innerText();
    await navigate(page, '/managers');
    const managers = await page.locator('h1').first().innerText();
    expect(loads).toBe(0);
    expect(managers).not.toBe(dashboard);
    await page.goto('/managers');
    await settled(page);
    expect(await page.locator('h1').first().innerText()).toBe(managers);
    await page.context().close();
  });

  it('on the public pages', async () => {
    const page = await withAxe(await ctx.newPage({ viewport: WIDE_LAPTOP }));
    const found: string[] = [];
    for (const [size, viewport] of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const route of ROUTES.filter((r) => r.spec === 'public')) {
        await page.goto(route.example);
        await page.locator('h1').first().waitFor();
        found.push(...(await seriousViolations(page)).map((v) => `public ${size} ${route.example} ${v}`));
      }
    }
    await page.context().close();
    expect(found).toEqual([]);
  }, 60_000);

  describe.each(ROLES)('for a %s', (role) => {
    it('on every route and dialog, at both sizes', async () => {
      const started = Date.now();
      const found: string[] = [];
      const page = await withAxe(await ctx.signIn(role, undefined, { viewport: PHONE }));
      for (const [size, viewport] of VIEWPORTS) {
        await page.setViewportSize(viewport);
        const s: Sweep = { page, who: `${role} ${size}`, found };
        const swept = new Set<string>();
        for (const route of routesOf(role)) {
          TRACE(`open ${route.example}`);
          await navigate(page, route.example);
          TRACE(`settled ${route.example}`);
          found.push(...(await seriousViolations(page)).map((v) => `${s.who} ${route.example} ${v}`));
          if (swept.has(resourceOf(route))) continue;
          swept.add(resourceOf(route));
          if (swept.size === 1) await auditHeader(s, route.example, size);
          await auditDialogs(s, route.example);
        }
      }
      await page.context().close();
      console.info(`axe sweep of a ${role} at both sizes: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      expect(found, found.join('\n')).toEqual([]);
    }, 900_000);
  });

  it('on the main screens in the dark theme', async () => {
    const activate = await themeSwitcher(ctx.product);

    const found: string[] = [];
    await activate('midnight');
    try {
      const login = await withAxe(await ctx.newPage({ viewport: WIDE_LAPTOP }));
      await login.goto('/login');
      await login.getByLabel('Username').waitFor();
      found.push(...(await seriousViolations(login)).map((v) => `public laptop /login ${v}`));
      await login.context().close();
      for (const [role, paths] of [
        ['admin', ['/dashboard', '/users', '/dealers', '/transactions']],
        ['reseller', ['/dashboard', '/users', '/dealers', '/transactions']],
        ['dealer', ['/dashboard', '/users', '/transactions']],
      ] as const) {
        const page = await withAxe(await ctx.signIn(role, undefined, { viewport: PHONE }));
        for (const [size, viewport] of VIEWPORTS) {
          await page.setViewportSize(viewport);
          for (const path of paths) {
            await navigate(page, path);
            found.push(...(await seriousViolations(page)).map((v) => `${role} ${size} ${path} ${v}`));
          }
        }
        await page.context().close();
      }
    } finally {
      await activate('classic');
    }
    expect(found, found.join('\n')).toEqual([]);
  }, 300_000);
});
