/**
 * Lists keep their view in the URL (docs/domain.md#lists): search, sort, filters and page survive a
 * reload and Back from another page, with their inputs; the menu's link opens the list fresh.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ACCOUNT_SCREEN } from '../../src/contract';
import { describeBrowser } from './harness';

const PREFIX = 'url.list';
const COUNT = 13;
const login = (i: number) => `${PREFIX}.${String(i).padStart(2, '0')}`;

async function api(page: Page, baseUrl: string, path: string, body: unknown): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${baseUrl}/api/v1/${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
  });
  expect(res.status, `${path}: ${res.status} ${await res.clone().text()}`).toBeLessThan(300);
}

/** The texts of the table's rows, once loaded. */
async function rowTexts(page: Page): Promise<string[]> {
  await page.locator('.data-table .ant-spin-spinning').waitFor({ state: 'detached' });
  return page.locator('.data-table tbody tr.ant-table-row').allInnerTexts();
}

const selectNamed = (page: Page, select: string) => page.locator('.ant-select', { has: page.getByRole('combobox', { name: select, exact: true }) });
const chooseOption = async (page: Page, select: string, option: string) => {
  await selectNamed(page, select).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: new RegExp(`^${option}$`) }).click();
};
const selectShows = (page: Page, select: string) => selectNamed(page, select).locator('.ant-select-selection-item').innerText();

describeBrowser('lists in the URL', (ctx) => {
  it('/users as admin: search, sort, status and page survive a reload and Back; the menu link opens the list fresh', async () => {
    // 13 accounts of one name, bought by the dealer: more than a page of 10.
    const dealer = await ctx.signIn('dealer');
    for (let i = 1; i <= COUNT; i++) {
      const mac = `00:1A:79:20:00:${i.toString(16).padStart(2, '0')}`;
      await api(dealer, ctx.product.baseUrl, 'accounts', { login: login(i), full_name: `Url List ${i}`, password: 'box-pass-1', mac_address: mac, months: 1 });
    }
    await dealer.context().close();

    const page = await ctx.signIn('admin');
    await page.goto('/users');
    await page.locator('.ant-card-head-title', { hasText: ACCOUNT_SCREEN.title }).waitFor();
    const search = page.getByRole('textbox', { name: 'Search' });
    await search.fill(PREFIX);
    await page.waitForURL(/filters/);
    // Login, descending: two clicks on its header.
    const loginHeader = page.locator('th', { hasText: /^Login$/ });
    await loginHeader.click();
    await page.waitForURL(/sorters.*order%5D=asc|sorters.*order\]=asc/);
    await loginHeader.click();
    await page.waitForURL(/order%5D=desc|order\]=desc/);
    await chooseOption(page, 'Status', 'Active');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/currentPage=2/);

    const expected = [login(3), login(2), login(1)];
    const check = async () => {
      await expect.poll(async () => (await rowTexts(page)).map((t) => t.match(/url\.list\.\d\d/)?.[0])).toEqual(expected);
      expect(await search.inputValue()).toBe(PREFIX);
      expect(await selectShows(page, 'Status')).toBe('Active');
      expect(await page.locator('th.ant-table-column-sort', { hasText: /^Login$/ }).count()).toBe(1);
    };
    await check();
    const view = page.url();

    await page.reload();
    await page.locator('.ant-card-head-title', { hasText: ACCOUNT_SCREEN.title }).waitFor();
    expect(page.url()).toBe(view);
    await check();

    // Away through the menu, then Back.
    await page.getByRole('menuitem', { name: 'Transactions' }).click();
    await page.waitForURL('**/transactions');
    await page.goBack();
    await page.waitForURL(view);
    await check();

    // The menu's link: the list as it opens, with no query.
    await page.getByRole('menuitem', { name: new RegExp(`\\b${ACCOUNT_SCREEN.title}$`) }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(() => search.inputValue()).toBe('');
    // Every account (the 6 of the demo and the 13), on page 1, unsorted.
    await page
      .getByTestId('pagination')
      .getByText(`${6 + COUNT} total`)
      .waitFor();
    await expect.poll(async () => (await rowTexts(page)).length).toBe(10);
    expect(await page.locator('th.ant-table-column-sort').count()).toBe(0);
    expect(await selectShows(page, 'Status')).toBe('All');

    // And Back again to the view.
    await page.goBack();
    await expect.poll(() => page.url()).toBe(view);
    await check();
  });

  // After the first test: its 13 accounts' purchases make more than a page of 15 'USED' entries.
  it('/transactions: type, page size and page survive a reload and Back', async () => {
    const page = await ctx.signIn('admin');
    await page.getByRole('menuitem', { name: 'Transactions' }).click();
    await page.waitForURL('**/transactions');
    await chooseOption(page, 'Type', 'Used');
    await page.waitForURL(/filters/);
    await chooseOption(page, 'Rows per page', '15');
    await page.waitForURL(/pageSize=15/);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/currentPage=2/);
    const rows = await rowTexts(page);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.includes('USED'))).toBe(true);
    const view = page.url();

    await page.reload();
    await expect.poll(() => rowTexts(page)).toEqual(rows);
    expect(page.url()).toBe(view);
    expect(await selectShows(page, 'Type')).toBe('Used');

    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/transactions'));
    await page.goBack();
    await expect.poll(() => rowTexts(page)).toEqual(rows);
    expect(page.url()).toBe(view);
  });
});
