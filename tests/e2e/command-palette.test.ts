/**
 * The command palette in the browser: a reseller opens it with the keyboard, finds one of its demo
 * accounts by login and lands on the accounts list filtered to it; the open palette is one named
 * dialog axe-core finds nothing serious in, and opening it moves nothing on the page.
 */
import axe from 'axe-core';
import { expect, it } from 'vitest';
import { PALETTE } from '../../src/contract';
import { describeBrowser } from './harness';

describeBrowser('command palette', (ctx) => {
  it('as a reseller: Ctrl-K, a login, Enter opens the accounts list filtered to it', async () => {
    const page = await ctx.signIn('reseller');
    await page.waitForURL(/\/dashboard$|\/$/);
    const header = page.locator('.app-header');
    const before = await header.boundingBox();

    await page.keyboard.press('Control+K');
    const dialog = page.getByRole('dialog', { name: PALETTE.title });
    await dialog.waitFor();
    const input = dialog.getByRole('combobox', { name: PALETTE.placeholder });
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await header.boundingBox()).toEqual(before);

    await input.fill('carl.r');
    const account = dialog.getByRole('option', { name: /carl\.r/ });
    await account.waitFor();
    await page.evaluate(axe.source);
    const violations = await dialog.evaluate((el) =>
      window.axe.run(el, { rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] }).then((r) => r.violations),
    );
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    for (let i = 0; i < 5 && (await account.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/users' && url.searchParams.get('filters[0][value]') === 'carl.r');
    await expect.poll(() => dialog.count()).toBe(0);
    const rows = page.locator('.data-table tbody tr.ant-table-row');
    // The filtered list loads after the address changes: its rows replace the loading ones when the answer arrives.
    await expect.poll(() => rows.allInnerTexts(), { timeout: 15_000 }).toEqual([expect.stringContaining('carl.r')]);
    expect(await page.getByRole('textbox', { name: 'Search' }).inputValue()).toBe('carl.r');
    await page.context().close();
  });
});

declare global {
  interface Window {
    axe: typeof axe;
  }
}
