import type { Page, Response } from 'playwright-core';
import { expect, it } from 'vitest';
import { MIN_COMPRESSED_BYTES } from '../../scripts/precompress';
import { describeBrowser, themeSwitcher } from './harness';

const CHART = '[role="img"][aria-label="Credits sold per month this year"]';

/** The panel's own files the page fetched (its API calls left aside). */
function panelResponses(page: Page): Response[] {
  const seen: Response[] = [];
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/')) seen.push(response);
  });
  return seen;
}

describeBrowser('the dashboard and the first load in the browser', (ctx) => {
  it('loads the panel precompressed and cached, and @ant-design/plots only with the dashboard chart', async () => {
    const page = await ctx.newPage();
    const responses = panelResponses(page);
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    const scripts = responses.filter((r) => r.request().resourceType() === 'script');
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const headers = await script.allHeaders();
      // Brotli, unless the file is too small to be worth a compressed copy.
      if (headers['content-encoding'] !== 'br') expect((await script.body()).length, script.url()).toBeLessThan(MIN_COMPRESSED_BYTES);
      expect(headers['cache-control'], script.url()).toBe('public, max-age=31536000, immutable');
    }
    expect(scripts.some((s) => s.headers()['content-encoding'] === 'br')).toBe(true);
    const document = responses.find((r) => r.request().resourceType() === 'document')!;
    expect((await document.allHeaders())['cache-control']).toBe('no-cache');
    // The chart's chunk, which holds @ant-design/plots, is named after the chart's module.
    const chartScripts = () => responses.filter((r) => /\/assets\/YearlyCreditsChart-/.test(r.url()));
    expect(chartScripts()).toEqual([]);

    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.locator(`${CHART} canvas`).waitFor();
    expect(chartScripts()).toHaveLength(1);
    await page.context().close();
  });

  it('draws the yearly chart in the active theme, light or dark', async () => {
    const activate = await themeSwitcher(ctx.product);
    const chartTheme = async () => {
      const page = await ctx.signIn('manager');
      await page.locator(`${CHART} canvas`).waitFor();
      const drawn = await page.locator(`${CHART} [data-theme]`).getAttribute('data-theme');
      await page.context().close();
      return drawn;
    };

    expect(await chartTheme()).toBe('light');
    await activate('midnight');
    try {
      expect(await chartTheme()).toBe('dark');
    } finally {
      await activate('classic');
    }
  });
});
