/**
 * Lists and card headers that fit: audit logs as cards on a phone and with every column at 1440x900,
 * the resellers' counts and creation date in the table at 1440, card titles never cut beside their
 * buttons on a phone, and the Columns chooser: a hidden column stays hidden after a reload and in
 * another browser the same user signs in to, for that user only. A page list renders its rows at
 * once, at the width its page's geometry gives or the one it had at this window width, and a
 * remembered width that no longer holds (or is not a width) is corrected.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DATA_TABLE, STORAGE_KEYS } from '../../src/contract';
import { PHONE, WIDE_LAPTOP, describeBrowser } from './harness';

/** The page has settled: its h1 is drawn and nothing is loading. */
async function settled(page: Page) {
  await page.locator('h1').first().waitFor({ state: 'attached' });
  await page.waitForFunction(() => document.querySelectorAll('.ant-spin-spinning, .ant-skeleton-active').length === 0, undefined, { timeout: 20_000 });
}

const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The titles (card heads and headings) whose text is cut: wider than their box. */
const cutTitles = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.ant-card-head-title, h1, h2')]
      .filter((e) => !e.classList.contains('visually-hidden') && e.offsetParent !== null)
      .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.clientWidth === 0)
      .map((e) => `${e.textContent}: ${e.scrollWidth} > ${e.clientWidth}`),
  );

/**
 * How the column titled `title` shows in the table: missing, cut (its header or a cell wider than
 * its box, or outside the table or the window), or 'whole'.
 */
const columnState = (page: Page, title: string) =>
  page.evaluate((title) => {
    const headers = [...document.querySelectorAll<HTMLElement>('.ant-table-thead th')];
    const th = headers.find((h) => h.textContent?.trim() === title);
    if (!th) return 'missing';
    const table = th.closest('.ant-table')!.getBoundingClientRect();
    const box = th.getBoundingClientRect();
    if (box.left < table.left - 1 || box.right > table.right + 1 || box.right > window.innerWidth)
      return `outside: ${box.left}-${box.right} of ${table.left}-${table.right}`;
    const index = headers.indexOf(th);
    const cells = [...document.querySelectorAll<HTMLElement>('.ant-table-tbody tr.ant-table-row')].map((row) => row.children[index] as HTMLElement);
    const cut = [th, ...th.querySelectorAll<HTMLElement>('.ant-table-column-title'), ...cells].filter((e) => e.scrollWidth > e.clientWidth + 1);
    return cut.length > 0 ? `cut: ${cut.map((e) => e.textContent).join(', ')}` : 'whole';
  }, title);

/**
 * Records, from the page's first script on, whether the table was first drawn without rows (waiting
 * for its width) before its first row, and the header titles the first row was drawn under, as the
 * frame that drew it was painted.
 */
function watchFirstRows() {
  const seen = { waited: false, firstHeaders: null as string[] | null };
  (window as unknown as { firstRows: typeof seen }).firstRows = seen;
  new MutationObserver((records, observer) => {
    // The empty table's placeholder row, taken out as the rows come: from the records, as it may
    // come and go within one task, before this observer is told.
    const placeholder = (node: Node) => node instanceof Element && node.matches('.ant-table-placeholder');
    if (records.some((r) => [...r.removedNodes].some(placeholder))) seen.waited = true;
    if (!document.querySelector('.ant-table-tbody tr.ant-table-row')) return;
    // Read after that frame's paint: a task queued from its animation frame runs after it.
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => (seen.firstHeaders = [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent?.trim() ?? ''));
      channel.port2.postMessage(null);
    });
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}
const firstRows = (page: Page) =>
  page
    .waitForFunction(
      () =>
        (window as unknown as { firstRows: { waited: boolean; firstHeaders: string[] | null } }).firstRows.firstHeaders &&
        (window as unknown as { firstRows: unknown }).firstRows,
    )
    .then((h) => h.jsonValue() as Promise<{ waited: boolean; firstHeaders: string[] }>);
const headers = (page: Page) => page.evaluate(() => [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent?.trim() ?? ''));

describeBrowser('lists and headers fit a phone and a laptop', (ctx) => {
  it("renders a page list's rows at once at the width the page gives it or had at this window width, and corrects a width that no longer holds", async () => {
    const page = await ctx.signIn('admin', undefined, { viewport: WIDE_LAPTOP });
    await page.addInitScript(watchFirstRows);
    await page.evaluate((key) => localStorage.removeItem(key), STORAGE_KEYS.listWidths);
    // First visit at this width: the rows come in the first commit, at the width the page's geometry
    // gives, under the columns that fit once laid out.
    await page.goto('/users');
    const first = await firstRows(page);
    expect(first.waited).toBe(false);
    await settled(page);
    const fitted = await headers(page);
    expect(first.firstHeaders).toEqual(fitted);
    const stored = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}'), STORAGE_KEYS.listWidths);
    expect(stored.accounts).toEqual({ window: WIDE_LAPTOP.width, width: expect.any(Number) });

    // Again: the rows come in the first commit, under the same columns.
    await page.reload();
    const again = await firstRows(page);
    expect(again.waited).toBe(false);
    expect(again.firstHeaders).toEqual(fitted);

    // A width remembered wrong (the menu folded since, or written by hand) is corrected: the rows
    // settle under the columns that fit, and the true width is remembered.
    await page.evaluate(({ key, window }) => localStorage.setItem(key, JSON.stringify({ accounts: { window, width: 400 } })), {
      key: STORAGE_KEYS.listWidths,
      window: WIDE_LAPTOP.width,
    });
    await page.reload();
    expect((await firstRows(page)).waited).toBe(false);
    await settled(page);
    await expect.poll(() => headers(page)).toEqual(fitted);
    expect(await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').accounts.width, STORAGE_KEYS.listWidths)).toBe(stored.accounts.width);

    // Not a width, or another window width's: as on a first visit.
    for (const junk of [
      'not json',
      JSON.stringify({ accounts: { window: WIDE_LAPTOP.width, width: -5 } }),
      JSON.stringify({ accounts: { window: 1000, width: stored.accounts.width } }),
    ]) {
      await page.evaluate(({ key, junk }) => localStorage.setItem(key, junk), { key: STORAGE_KEYS.listWidths, junk });
      await page.reload();
      const measured = await firstRows(page);
      expect(measured.waited, junk).toBe(false);
      expect(measured.firstHeaders, junk).toEqual(fitted);
      await settled(page);
      expect(await headers(page), junk).toEqual(fitted);
    }
    await page.context().close();
  }, 120_000);

  it('on a phone: audit logs are cards without sideways scrolling, and no card title is cut beside its buttons', async () => {
    const page = await ctx.signIn('admin', undefined, { viewport: PHONE });
    await page.goto('/audit-logs');
    await page.getByTestId('data-table-cards').locator('li').first().waitFor();
    await settled(page);
    expect(await page.locator('.ant-table').count()).toBe(0);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    for (const path of ['/announcements', '/global-discounts', '/analytics']) {
      await page.goto(path);
      await settled(page);
      await page.locator('.ant-card-head-title').first().waitFor();
      expect(await cutTitles(page), path).toEqual([]);
      expect(await sidewaysOverflow(page), path).toBeLessThanOrEqual(0);
    }
    await page.context().close();
  }, 120_000);

  it('at 1440x900: the audit logs show their IP column, and the resellers their counts and creation date, whole in the table', async () => {
    const page = await ctx.signIn('admin', undefined, { viewport: WIDE_LAPTOP });
    await page.goto('/audit-logs');
    await page.locator('.ant-table-row').first().waitFor();
    await settled(page);
    for (const title of ['Date', 'User', 'Module', 'Action', 'Target', 'IP']) expect(await columnState(page, title), title).toBe('whole');
    expect(await page.evaluate(() => [...document.querySelectorAll('.ant-table-content, .ant-table-body')].every((e) => e.scrollWidth <= e.clientWidth + 1))).toBe(true);

    await page.goto('/resellers');
    await page.locator('.ant-table-row').first().waitFor();
    await settled(page);
    for (const title of ['Total Dealers', 'Total Users', 'Created', 'Credits', 'Status']) expect(await columnState(page, title), title).toBe('whole');
    expect(await page.evaluate(() => [...document.querySelectorAll('.ant-table-content, .ant-table-body')].every((e) => e.scrollWidth <= e.clientWidth + 1))).toBe(true);
    await page.context().close();
  }, 120_000);

  it('the Columns chooser hides a column, which stays hidden after a reload and in another browser, for that user only', async () => {
    const page = await ctx.signIn('admin', undefined, { viewport: WIDE_LAPTOP });
    await page.goto('/resellers');
    await page.locator('.ant-table-row').first().waitFor();
    expect(await columnState(page, 'Total Users')).toBe('whole');
    await page.getByRole('button', { name: new RegExp(DATA_TABLE.columns) }).click();
    const chooser = page.getByTestId('column-chooser');
    await chooser.waitFor();
    // The name and the actions are not offered.
    expect(await chooser.getByRole('checkbox', { name: 'Username' }).count()).toBe(0);
    const saved = (p: Page) => p.waitForResponse((r) => r.url().endsWith('/profile/preferences') && r.request().method() === 'PATCH' && r.ok());
    const saving = saved(page);
    await chooser.getByRole('checkbox', { name: 'Total Users' }).uncheck();
    await expect.poll(() => columnState(page, 'Total Users')).toBe('missing');
    await saving;
    await page.keyboard.press('Escape');

    await page.reload();
    await page.locator('.ant-table-row').first().waitFor();
    await settled(page);
    expect(await columnState(page, 'Total Users')).toBe('missing');
    expect(await columnState(page, 'Total Dealers')).toBe('whole');

    // Another browser (a fresh context: nothing cached) signed in as the same user: hidden there too.
    const elsewhere = await ctx.signIn('admin', undefined, { viewport: WIDE_LAPTOP });
    expect(await elsewhere.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('panel.columns.')))).toEqual([]);
    await elsewhere.goto('/resellers');
    await elsewhere.locator('.ant-table-row').first().waitFor();
    await settled(elsewhere);
    await expect.poll(() => columnState(elsewhere, 'Total Users')).toBe('missing');
    expect(await columnState(elsewhere, 'Total Dealers')).toBe('whole');

    // Another user in the same browser (same storage) sees every column.
    await page.evaluate((keys) => {
      localStorage.removeItem(keys.token);
      localStorage.removeItem(keys.userRole);
    }, STORAGE_KEYS);
    await page.goto('/login');
    await page.getByLabel('Username').fill('manager');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByTestId('panel-name').waitFor();
    await page.goto('/resellers');
    await page.locator('.ant-table-row').first().waitFor();
    await settled(page);
    expect(await columnState(page, 'Total Users')).toBe('whole');
    await page.context().close();

    // Shown again from the other browser, so the other tests see the admin's every column.
    await elsewhere.getByRole('button', { name: new RegExp(DATA_TABLE.columns) }).click();
    const restoring = saved(elsewhere);
    await elsewhere.getByTestId('column-chooser').getByRole('checkbox', { name: 'Total Users' }).check();
    await restoring;
    await expect.poll(() => columnState(elsewhere, 'Total Users')).toBe('whole');
    await elsewhere.context().close();
  }, 120_000);
});
