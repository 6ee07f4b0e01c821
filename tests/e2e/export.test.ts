/**
 * A list's Export button in Chromium: the CSV of the current view downloads through the API with the
 * session's token and holds the list's rows, every one, in its order.
 */
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { ACCOUNT_SCREEN } from '../../src/contract';
import { describeBrowser } from './harness';

describeBrowser('CSV export', (ctx) => {
  it('/accounts as dealer: Export downloads the rows the list selects, sorted as shown', async () => {
    const page = await ctx.signIn('dealer');
    await page.goto('/accounts?sorters[0][field]=login&sorters[0][order]=desc');
    await page.locator('.ant-card-head-title', { hasText: ACCOUNT_SCREEN.title }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^accounts-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const text = fs.readFileSync(file!, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0].split(',').slice(0, 3)).toEqual(['ID', 'Login', 'Full Name']);

    // The same list through the API, every page: the export's logins in its order.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const res = await fetch(`${ctx.product.baseUrl}/api/v1/accounts?sort=login&order=desc&per_page=100`, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data: Array<{ login: string; owner: { username: string } }> };
    expect(body.data.length).toBeGreaterThan(0);
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(body.data.map((a) => a.login));
  });
});
