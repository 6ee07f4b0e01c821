/**
 * Every main screen on a phone (390x844) and a laptop (1440x900), for admin, reseller and dealer:
 * no sideways page scroll, the key columns in view, axe-core without serious or critical violations
 * in the default and the dark theme, keyboard-only sign-in and dialogs, the phone's drawer menu, and
 * the MAC check within a phone's width.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { LAYOUT } from '../../src/contract';
import { PHONE, type Viewport, WIDE_LAPTOP, describeBrowser, themeSwitcher } from './harness';

const SCREENS: Record<string, string[]> = {
  admin: ['/dashboard', '/users', '/dealers', '/transactions'],
  reseller: ['/dashboard', '/users', '/dealers', '/transactions'],
  dealer: ['/dashboard', '/users', '/transactions'],
};
const VIEWPORTS: Array<[string, Viewport]> = [
  ['phone', PHONE],
  ['laptop', WIDE_LAPTOP],
];

/** The page has settled: its h1 is drawn and nothing is loading. */
async function settled(page: Page) {
  await page.locator('h1').first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.ant-spin-spinning, .ant-skeleton-active').length === 0, undefined, { timeout: 20_000 });
}

/** How far the page scrolls sideways (0: it fits). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

declare global {
  interface Window {
    axe: typeof axe;
  }
}

/** The axe-core violations of impact serious or critical, as 'rule: target' lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(() => window.axe.run(document).then((r) => r.violations));
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id}: ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
}

/** Whether the element is inside the window horizontally. */
async function inView(page: Page, selector: string, nth = 0) {
  const box = await page.locator(selector).nth(nth).boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

describeBrowser('every main screen fits a phone and a laptop', (ctx) => {
  for (const [size, viewport] of VIEWPORTS) {
    for (const [role, paths] of Object.entries(SCREENS)) {
      it(`${role} on a ${size}: no page scrolls sideways`, async () => {
        const page = await ctx.signIn(role, undefined, { viewport });
        for (const path of paths) {
          await page.goto(path);
          await settled(page);
          expect(await sidewaysOverflow(page), `${path} at ${viewport.width}px`).toBeLessThanOrEqual(0);
        }
        await page.context().close();
      }, 120_000);
    }
  }

  it('a dealer on a phone sees login, MAC, expiry, status and Renew on each account card', async () => {
    const page = await ctx.signIn('dealer', undefined, { viewport: PHONE });
    await page.goto('/users');
    const card = page.getByTestId('data-table-cards').locator('li').first();
    await card.waitFor();
    const face = card.locator('.data-table-card-fields');
    for (const label of ['MAC', 'Expiry', 'Status']) await expect.poll(() => face.locator('dt', { hasText: label }).first().isVisible()).toBe(true);
    expect((await card.locator('.data-table-card-title').innerText()).trim()).not.toBe('');
    const renew = card.getByRole('button', { name: 'Quick Renew' });
    expect(await renew.isVisible()).toBe(true);
    expect(await inView(page, '.data-table-card .data-table-card-fields')).toBe(true);
    const expiry = await face.locator('.data-table-card-field', { hasText: 'Expiry' }).innerText();
    expect(expiry).toMatch(/left|Expired|No expiry|ago|today/i);
    await page.context().close();
  }, 60_000);

  it('a dealer on a laptop sees the key account columns without scrolling sideways, the others in the row details', async () => {
    const page = await ctx.signIn('dealer', undefined, { viewport: WIDE_LAPTOP });
    await page.goto('/users');
    await page.locator('.ant-table-row').first().waitFor();
    const header = (title: string) => page.locator('.ant-table-thead th', { hasText: new RegExp(`^${title}$`) }).first();
    for (const title of ['Login', 'MAC', 'Expiry', 'Status']) {
      expect(await header(title).isVisible(), title).toBe(true);
      const box = (await header(title).boundingBox())!;
      expect(box.x + box.width, title).toBeLessThanOrEqual(WIDE_LAPTOP.width);
    }
    expect(await page.evaluate(() => [...document.querySelectorAll('.ant-table-content, .ant-table-body')].every((e) => e.scrollWidth <= e.clientWidth + 1))).toBe(true);
    // A column that does not fit is in the row's details, not behind a scroll.
    for (const title of ['State', 'Created']) {
      if (await header(title).isVisible()) continue;
      await page.locator('.ant-table-row').first().locator('.ant-table-row-expand-icon').click();
      await expect.poll(() => page.locator('.ant-table-expanded-row').first().innerText()).toContain(title);
    }
    await page.context().close();
  }, 60_000);

  it('the drawer menu opens on a phone, navigates, and closes', async () => {
    const page = await ctx.signIn('reseller', undefined, { viewport: PHONE });
    await settled(page);
    await page.getByRole('button', { name: LAYOUT.openMenu }).click();
    const drawer = page.locator('.ant-drawer-content');
    await drawer.waitFor();
    await expect.poll(() => inView(page, '.ant-drawer-content')).toBe(true);
    await drawer
      .getByRole('menuitem', { name: /Transactions/ })
      .first()
      .click();
    await page.waitForURL(/\/transactions/);
    await drawer.waitFor({ state: 'hidden' });
    await settled(page);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await page.context().close();
  }, 60_000);

  it('the MAC check fits a phone, with its result', async () => {
    const page = await ctx.signIn('dealer', undefined, { viewport: PHONE });
    // A MAC of one of the dealer's accounts, so the check finds it and shows the account.
    await page.goto('/users');
    const field = page.getByTestId('data-table-cards').locator('.data-table-card-field', { hasText: 'MAC' }).first();
    await field.waitFor();
    const known = (await field.locator('code').innerText()).trim();
    await page.goto('/mac-search');
    await settled(page);
    const mac = page.getByLabel('MAC address');
    await mac.fill(known);
    await mac.press('Enter');
    await page.locator('.ant-card code', { hasText: known }).first().waitFor();
    await settled(page);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    for (const selector of ['form#mac-check, form[name="mac-check"]', '.ant-card']) {
      const count = await page.locator(selector).count();
      for (let i = 0; i < count; i++) expect(await inView(page, selector, i), `${selector} #${i}`).toBe(true);
    }
    await page.context().close();
  }, 60_000);

  it('signs in with the keyboard alone, opens a dialog and closes it with Escape', async () => {
    const page = await ctx.newPage({ viewport: WIDE_LAPTOP });
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    // Tab from the top of the page to the username field.
    for (let i = 0; i < 10 && !(await page.getByLabel('Username').evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await page.getByLabel('Username').evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.type('dealer');
    await page.keyboard.press('Tab');
    await page.keyboard.type('demo-password');
    await page.keyboard.press('Enter');
    await page.getByTestId('panel-name').waitFor();

    await page.goto('/users');
    await page.locator('.ant-table-row').first().waitFor();
    // Focus the first row's actions by Tab, open them with Enter, pick Quick Renew with the arrows.
    const actions = page.getByRole('button', { name: /^Actions for / }).first();
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await actions.evaluate((e) => e === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    const item = page.getByRole('menuitem', { name: 'Quick Renew' });
    await item.waitFor();
    for (let i = 0; i < 10 && !(await item.evaluate((e) => e.classList.contains('ant-dropdown-menu-item-active') || e === document.activeElement)); i++) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // The focus moves into the dialog, where Escape closes it.
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.context().close();
  }, 60_000);

  it('has no serious or critical axe-core violation on the main screens, in the default and the dark theme', async () => {
    const activate = await themeSwitcher(ctx.product);

    const audit = async () => {
      const found: string[] = [];
      const login = await ctx.newPage({ viewport: WIDE_LAPTOP });
      await login.goto('/login');
      await login.getByLabel('Username').waitFor();
      found.push(...(await seriousViolations(login)).map((v) => `/login ${v}`));
      await login.context().close();
      for (const [role, paths] of [
        ['admin', ['/dashboard', '/users', '/dealers', '/transactions']],
        ['reseller', ['/dashboard', '/users', '/dealers', '/transactions']],
        ['dealer', ['/dashboard', '/users', '/transactions']],
      ] as const) {
        for (const [size, viewport] of VIEWPORTS) {
          const page = await ctx.signIn(role, undefined, { viewport });
          for (const path of paths) {
            await page.goto(path);
            await settled(page);
            found.push(...(await seriousViolations(page)).map((v) => `${role} ${size} ${path} ${v}`));
          }
          await page.context().close();
        }
      }
      return found;
    };

    expect(await audit(), 'default theme').toEqual([]);
    await activate('midnight');
    try {
      expect(await audit(), 'dark theme').toEqual([]);
    } finally {
      await activate('classic');
    }
  }, 480_000);
});
