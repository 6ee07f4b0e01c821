/**
 * Feedback that matches, in Chromium: a renewal price is never the previous months' (the submit waits
 * for the fresh quote), one toast at a time (sign-in's included), Access Denied
 * in a frame with a button that goes where it says, and pages titled as their menu entries.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ACCESS, AUTH, ACCOUNT_SCREEN, RENEWAL, RESOURCE_LABELS } from '../../src/contract';
import { PHONE, describeBrowser } from './harness';

/** The most toasts the page ever showed at once, and every text it showed, from the first paint on. */
const WATCH_TOASTS = () => {
  const w = window as unknown as { mostToasts: number; seenTexts: string[] };
  w.mostToasts = 0;
  w.seenTexts = [];
  new MutationObserver(() => {
    w.mostToasts = Math.max(w.mostToasts, document.querySelectorAll('.ant-notification-notice').length);
    w.seenTexts.push(document.body?.innerText ?? '');
  }).observe(document, { subtree: true, childList: true, characterData: true });
};
const watched = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { mostToasts: number; seenTexts: string[] };
    return { mostToasts: w.mostToasts, seenTexts: w.seenTexts };
  });

describeBrowser('feedback that matches', (ctx) => {
  it('Quick Renew: from the choice of 3 months until their price arrives, no figure shows and the button waits', async () => {
    const page = await ctx.signIn('dealer');
    await page.goto('/accounts');
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: /^Actions for / }) })
      .first();
    await row.waitFor();
    await row.getByRole('button', { name: /^Actions for / }).click();
    await page.getByRole('menuitem', { name: RENEWAL.quickRenew }).click();
    const dialog = page.locator('.ant-modal', { hasText: ACCOUNT_SCREEN.quickRenewTitle });
    const total = dialog.getByTestId('renewal-total');
    const button = dialog.getByRole('button', { name: RENEWAL.quickRenew });
    await total.filter({ hasText: /credit/ }).waitFor();
    await expect.poll(() => button.isEnabled()).toBe(true);

    // The price of 3 months takes 1.5 s to come: long enough to look at the dialog meanwhile.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/global-discounts/calculate-credits', async (route) => {
      await held;
      await route.continue();
    });
    const asked = page.waitForRequest('**/api/v1/global-discounts/calculate-credits');
    await dialog.getByText('3 months', { exact: true }).click();
    expect(await total.innerText()).not.toMatch(/credit/);
    expect(await button.isDisabled()).toBe(true);
    await asked;
    await page.waitForTimeout(300);
    expect(await total.innerText()).not.toMatch(/credit/);
    expect(await button.isDisabled()).toBe(true);
    const answered = page.waitForResponse('**/api/v1/global-discounts/calculate-credits');
    release();
    const quote = (await (await answered).json()) as { data: { payable_credits: number; months: number } };
    expect(quote.data.months).toBe(3);
    await total.filter({ hasText: quote.data.payable_credits === 1 ? '1 credit' : `${quote.data.payable_credits} credits` }).waitFor();
    await expect.poll(() => button.isEnabled()).toBe(true);
    await page.context().close();
  }, 120_000);

  it('signing in shows its one toast; two saves in a row show one toast at a time', async () => {
    const page = await ctx.newPage({ viewport: PHONE });
    await page.addInitScript(WATCH_TOASTS);
    await page.goto('/login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByTestId('panel-name').waitFor();
    await page.waitForTimeout(800);
    let seen = await watched(page);
    expect(seen.mostToasts).toBeLessThanOrEqual(1);
    expect(seen.seenTexts.join('\n')).toContain(AUTH.loginSuccess);

    await page.goto('/settings');
    const first = page.getByRole('button', { name: 'Save Trial Days' });
    await first.waitFor();
    await first.click();
    await page.locator('.ant-notification-notice').waitFor();
    await page.getByRole('button', { name: 'Save Default Credits' }).click();
    await page.waitForTimeout(1000);
    seen = await watched(page);
    expect(seen.mostToasts).toBe(1);
    expect(await page.locator('.ant-notification-notice').count()).toBe(1);
    await page.context().close();
  }, 120_000);

  it('Access Denied stands in the panel frame and returns to the dashboard; signed out, it leads to the sign-in page', async () => {
    const page = await ctx.signIn('dealer');
    await page.goto('/ticket-categories');
    await page.waitForURL('**/unauthorized');
    await page.getByRole('heading', { name: ACCESS.denied }).waitFor();
    await page.getByTestId('panel-name').waitFor();
    await page.getByRole('button', { name: ACCESS.returnToDashboard }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('panel-name').waitFor();
    await page.context().close();

    const visitor = await ctx.newPage();
    await visitor.goto('/unauthorized');
    await visitor.getByRole('heading', { name: ACCESS.denied }).waitFor();
    expect(await visitor.getByTestId('panel-name').count()).toBe(0);
    await visitor.getByRole('button', { name: ACCESS.returnToLogin }).click();
    await visitor.waitForURL((url) => url.pathname === '/login');
    await visitor.getByRole('button', { name: 'Sign In' }).waitFor();
    await visitor.context().close();
  }, 120_000);

  it('the promo pages are titled as their menu entries', async () => {
    const page = await ctx.signIn('admin');
    for (const [path, resource] of [
      ['/global-discounts', 'global-discounts'],
      ['/user-promos', 'user-promos'],
    ] as const) {
      await page.goto(path);
      const label = RESOURCE_LABELS[resource]!;
      await page.getByRole('heading', { level: 1, name: label, exact: true }).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual([label]);
    }
    await page.context().close();
  }, 120_000);
});
