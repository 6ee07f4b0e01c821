import fs from 'node:fs';
import { expect, it } from 'vitest';
import { ANALYTICS, DASHBOARD_LABELS, DASHBOARD_PANEL } from '../../src/contract';
import { describeBrowser } from './harness';

describeBrowser('analytics and the dashboard per role in the browser', (ctx) => {
  it('renders the analytics charts with no console errors, and exports a table as filtered', async () => {
    const page = await ctx.signIn('admin');
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    // Reached from the admin's dashboard.
    await page.getByRole('link', { name: /Analytics/ }).click();
    await page.waitForURL('**/analytics');
    for (const chart of ['chart-credits-flow', 'chart-renewals', 'chart-top-resellers', 'chart-top-dealers']) {
      await page.getByTestId(chart).locator('canvas').first().waitFor();
    }
    await page.getByText(ANALYTICS.topDealers).waitFor();
    await page.getByRole('cell', { name: 'dealer2', exact: true }).first().waitFor();

    // The dealers table filtered to one row, then exported: the file holds that row only.
    await page.getByLabel('Search dealers').fill('dealer2');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV: top-dealers.csv' }).click()]);
    expect(download.suggestedFilename()).toBe('top-dealers.csv');
    const csv = fs.readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    expect(csv.trim().split('\r\n')).toEqual(['Username,Name,Credits spent,Renewals', 'dealer2,Dora Dealer,1,1']);

    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a dealer only the cards that mean something to it, and no system internals', async () => {
    const page = await ctx.signIn('dealer');
    // The balance with its unit, once the figures are in.
    await page.getByTestId('card-my_credits').filter({ hasText: DASHBOARD_PANEL.creditsUnit }).waitFor();
    expect(await page.getByTestId('card-total_managers').count()).toBe(0);
    expect(await page.getByTestId('card-total_resellers').count()).toBe(0);
    expect(await page.getByText(DASHBOARD_LABELS.systemHealth).count()).toBe(0);
    const amount = page.getByTestId('transaction-amount').first();
    await amount.waitFor();
    expect(await amount.innerText()).toMatch(/ credits?$/);
    await page.context().close();
  });
});
