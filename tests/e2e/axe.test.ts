/**
 * axe-core, with the rules it runs by default plus `label-content-name-mismatch` (a control's name
 * contains its visible text), finds no serious or critical violation: on the public pages, on every
 * route the route table opens to each role (its whole menu among them), and in every dialog, drawer
 * and menu those screens open (their own buttons, the first row's actions, the bulk actions over the
 * first row, the header's user menu, the phone's drawer menu), for each role at 390x844 and 1440x900;
 * and on the main screens in the dark theme.
 */
import axe from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LAYOUT, MENUS, ROLES, ROUTES, type Role, type RouteSpec } from '../../src/contract';
import { PHONE, type Viewport, WIDE_LAPTOP, describeBrowser } from './harness';

const VIEWPORTS: Array<[string, Viewport]> = [
  ['phone', PHONE],
  ['laptop', WIDE_LAPTOP],
];

/** What axe-core runs by default, and the check that a control's name contains its visible text (WCAG 2.5.3), off by default. */
const AXE_OPTIONS = { rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] };

const STARTED = Date.now();
/** With AXE_TRACE=1, each step of the sweep and how long each axe run took, as it goes. */
const TRACE = (step: string) => process.env.AXE_TRACE && process.stderr.write(`[${((Date.now() - STARTED) / 1000).toFixed(1)} s] ${step}\n`);

/** A page that has axe-core in every document it loads, so each run does not inject it again. */
async function withAxe(page: Page): Promise<Page> {
  await page.addInitScript({ content: axe.source });
  return page;
}

/** The axe-core violations of impact serious or critical as 'rule target (why)' lines, on the page or within one element of it. */
async function seriousViolations(within: Page | Locator): Promise<string[]> {
  const t0 = Date.now();
  // The element is found and handed to axe in one step: a dialog re-rendered meanwhile is no stale scope.
  const violations: axe.Result[] =
    'goto' in within
      ? await within.evaluate((options) => window.axe.run(document, options as axe.RunOptions).then((r) => r.violations), AXE_OPTIONS)
      : await within.evaluate((el, options) => window.axe.run(el, options as axe.RunOptions).then((r) => r.violations), AXE_OPTIONS, { timeout: 5_000 });
  const lines = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')} (${n.failureSummary?.split('\n')[1]?.trim() ?? ''})`));
  TRACE(`analyze ${'goto' in within ? within.url() : 'layer'} ${Date.now() - t0}ms ${lines.join(' | ')}`);
  return lines;
}
declare global {
  interface Window {
    axe: typeof axe;
  }
}

/** The page has settled: its h1 is drawn and nothing is loading. */
async function settled(page: Page) {
  await page.locator('h1').first().waitFor();
  await page.waitForFunction(
    () =>
      document.querySelectorAll('.ant-spin-spinning, .ant-skeleton-active').length === 0 &&
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 20_000 },
  );
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
/** Menu and bulk actions that act at once, without a dialog. */
const ACTS_AT_ONCE = /^(Activate|Deactivate|Suspend|Check Connection|Clear selection)$/i;

/** An open dialog, drawer or popover. */
const DIALOG = '.ant-modal-wrap:visible .ant-modal, .ant-drawer-open .ant-drawer-content, .ant-popover:visible';
/** An open dropdown menu. */
const MENU = '.ant-dropdown:visible';
const OPEN_LAYER = `${DIALOG}, ${MENU}`;

/** The visible layer (`kind`) the last action opened, if one opens within `wait` ms. */
async function openedLayer(page: Page, kind: string, wait = 1500): Promise<Locator | null> {
  const layer = page.locator(kind).last();
  try {
    await layer.waitFor({ state: 'visible', timeout: wait });
    return layer;
  } catch {
    return null;
  }
}

/**
 * Nothing in the open layers is loading, and every motion that ends has ended (opening, a button's
 * colours after its loading state): axe reads the colours of an element mid-fade otherwise.
 */
async function layerSettled(page: Page) {
  await page.waitForFunction(
    () =>
      document.querySelectorAll('.ant-modal-wrap .ant-spin-spinning, .ant-drawer .ant-spin-spinning, .ant-skeleton-active, .ant-btn-loading').length === 0 &&
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 10_000 },
  );
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
      if (await close.count()) await close.click();
    }
  }
  expect(await open.count(), 'a dialog or menu stays open').toBe(0);
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
  TRACE(`open ${where}`);
  await open();
  // Out of the way: a button under the pointer would be read in its hover colours.
  await page.mouse.move(0, 0);
  const layer = await openedLayer(page, kind);
  if (layer) await layerSettled(page);
  // A layer gone once settled was a passing tooltip or toast's popover, not a dialog.
  if (layer && (await layer.isVisible())) {
    s.found.push(...(await seriousViolations(layer)).map((v) => `${s.who} ${where} ${v}`));
    await closeLayers(page);
  } else if (page.url() !== url) {
    await page.goto(url);
    await settled(page);
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
          await page.locator(MENU).waitFor({ state: 'hidden' });
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
    for (const name of (await buttonNames(bulk)).filter((n) => !ACTS_AT_ONCE.test(n))) {
      await auditLayer(s, `${path} [bulk: ${name}]`, () => bulk.filter({ hasText: name }).first().click());
    }
    if (await select.isChecked()) await select.uncheck();
  }
}

/** The header's user menu, and on a phone the drawer menu. */
async function auditHeader(s: Sweep, path: string) {
  const { page } = s;
  await auditLayer(s, `${path} [user menu]`, () => page.getByTestId('user-menu').click());
  const openMenu = page.getByRole('button', { name: LAYOUT.openMenu });
  if (await openMenu.isVisible()) await auditLayer(s, `${path} [drawer menu]`, () => openMenu.click());
}

describeBrowser('axe-core finds no serious or critical violation', (ctx) => {
  it('routes cover every role menu', () => {
    for (const role of ROLES) {
      const swept = new Set(routesOf(role).map((r) => r.access?.[0]));
      expect(
        menuOf(role).filter((resource) => !swept.has(resource)),
        role,
      ).toEqual([]);
    }
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
      for (const [size, viewport] of VIEWPORTS) {
        const page = await withAxe(await ctx.signIn(role, undefined, { viewport }));
        const s: Sweep = { page, who: `${role} ${size}`, found };
        const swept = new Set<string>();
        for (const route of routesOf(role)) {
          TRACE(`goto ${route.example}`);
          await page.goto(route.example);
          await settled(page);
          TRACE(`settled ${route.example}`);
          found.push(...(await seriousViolations(page)).map((v) => `${s.who} ${route.example} ${v}`));
          if (swept.has(resourceOf(route))) continue;
          swept.add(resourceOf(route));
          if (swept.size === 1) await auditHeader(s, route.example);
          await auditDialogs(s, route.example);
        }
        await page.context().close();
      }
      console.info(`axe sweep of a ${role} at both sizes: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      expect(found, found.join('\n')).toEqual([]);
    }, 900_000);
  });

  it('on the main screens in the dark theme', async () => {
    const api = async (path: string, init: RequestInit = {}, token?: string) => {
      const res = await fetch(`${ctx.product.baseUrl}/api/v1${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      expect(res.ok, `${init.method ?? 'GET'} ${path}`).toBe(true);
      return res.json();
    };
    const { token } = await api('/login', { method: 'POST', body: JSON.stringify({ username: 'admin', password: 'demo-password' }) });
    const { themes } = await api('/themes', {}, token);
    const activate = (slug: string) => {
      const theme = themes.find((t: { slug: string }) => t.slug === slug);
      return api(
        `/themes/${theme.id}`,
        { method: 'PUT', body: JSON.stringify({ name: theme.name, slug: theme.slug, description: theme.description ?? '', is_active: true }) },
        token,
      );
    };

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
        for (const [size, viewport] of VIEWPORTS) {
          const page = await withAxe(await ctx.signIn(role, undefined, { viewport }));
          for (const path of paths) {
            await page.goto(path);
            await settled(page);
            found.push(...(await seriousViolations(page)).map((v) => `${role} ${size} ${path} ${v}`));
          }
          await page.context().close();
        }
      }
    } finally {
      await activate('classic');
    }
    expect(found, found.join('\n')).toEqual([]);
  }, 300_000);
});
