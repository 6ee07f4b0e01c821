/**
 * Each user's colour scheme in the browser: Dark chosen in the profile holds after a reload (painted
 * dark before the scripts run) and in a fresh browser where the same user signs in; another user stays
 * light; 'System' follows the device's setting, live.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { LAPTOP, describeBrowser } from './harness';

/** The page's scheme as drawn: the root's mark and whether the body is a dark colour. */
const drawn = (page: Page) =>
  page.evaluate(() => {
    const [r, g, b] = (getComputedStyle(document.body).backgroundColor.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
    return { mark: document.documentElement.dataset.scheme ?? null, darkBody: (r + g + b) / 3 < 100 };
  });
const expectScheme = (page: Page, scheme: 'dark' | 'light') => expect.poll(() => drawn(page), { timeout: 10_000 }).toEqual({ mark: scheme, darkBody: scheme === 'dark' });

describeBrowser("each user's colour scheme", (ctx) => {
  it('Dark chosen in the profile holds after a reload and in a fresh browser of the same user; another user stays light', async () => {
    const page = await ctx.signIn('manager');
    await expectScheme(page, 'light');
    await page.goto('/profile');
    const choice = page.getByRole('radiogroup', { name: 'Colour scheme' });
    await choice.getByText('Dark', { exact: true }).click();
    await expectScheme(page, 'dark');
    await expect.poll(() => choice.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);

    // After a reload the page is dark before the panel's scripts have run (they are held back here).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/*.js', async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await page.waitForFunction(() => document.body !== null);
    // Only index.html's boot frame is in the page: the panel has not rendered.
    expect(await page.evaluate(() => [...(document.getElementById('root')?.children ?? [])].map((c) => c.className))).toEqual(['boot']);
    expect(await drawn(page)).toEqual({ mark: 'dark', darkBody: true });
    release();
    await page.getByTestId('panel-name').waitFor();
    await expectScheme(page, 'dark');
    await page.context().close();

    // The same user in another browser (nothing cached there): dark once signed in.
    const elsewhere = await ctx.signIn('manager');
    await expectScheme(elsewhere, 'dark');
    await elsewhere.context().close();

    const other = await ctx.signIn('reseller');
    await expectScheme(other, 'light');
    await other.context().close();
  }, 120_000);

  it("'System' follows the device's dark setting, live; an explicit Light holds against it", async () => {
    const context = await ctx.browser.newContext({ viewport: LAPTOP, baseURL: ctx.product.baseUrl, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto('/login');
    await expectScheme(page, 'dark');
    await page.getByLabel('Username').fill('dealer');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByTestId('panel-name').waitFor();
    await expectScheme(page, 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectScheme(page, 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectScheme(page, 'dark');

    // Light chosen in the profile holds against the dark device, and is the user's choice on the server.
    await page.goto('/profile');
    const choice = page.getByRole('radiogroup', { name: 'Colour scheme' });
    await choice.getByText('Light', { exact: true }).click();
    await expectScheme(page, 'light');
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const res = await fetch('/api/v1/profile/preferences', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
          return (await res.json()).data.colorScheme;
        }),
      )
      .toBe('light');
    await choice.getByText('System', { exact: true }).click();
    await expectScheme(page, 'dark');
    await context.close();
  }, 120_000);
});
