/**
 * The Content-Security-Policy the server sends (server/http/securityHeaders.ts) against the built
 * panel: every main page, as admin and as a dealer, renders with the policy on and the browser reports
 * no violation (no inline script, no eval, no style or resource from elsewhere), and so do the
 * OpenAPI pages.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeBrowser } from './harness';

/** The panel's routes without parameters (a role's forbidden ones show the access page, also checked). */
const PAGES = [
  '/',
  '/dashboard',
  '/accounts',
  '/users',
  '/managers',
  '/managers/create',
  '/resellers',
  '/dealers',
  '/transactions',
  '/user/transactions',
  '/mac-search',
  '/user-search',
  '/ticket-categories',
  '/settings',
  '/credit-levels',
  '/credit-options-settings',
  '/global-discounts',
  '/promos',
  '/user-promos',
  '/themes',
  '/servers',
  '/profile',
  '/tickets',
  '/announcements',
  '/user-announcements',
  '/audit-logs',
  '/analytics',
  '/no-such-page',
];

/** Collects every CSP violation the page reports, from the DOM event and from the console. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__cspViolation', (text: string) => seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(t: string): void }).__cspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply|evaluate|connect)/i.test(message.text())) seen.push(`console: ${message.text()}`);
  });
  return seen;
}

describeBrowser('Content-Security-Policy in the browser', (ctx) => {
  it('serves the panel with the policy', async () => {
    const res = await fetch(`${ctx.product.baseUrl}/`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  for (const username of ['admin', 'dealer']) {
    it(`renders every main page as ${username} without a CSP violation`, { timeout: 180_000 }, async () => {
      const page = await ctx.newPage();
      const violations = await watchViolations(page);
      await page.goto('/login');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill('demo-password');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByTestId('panel-name').waitFor();
      for (const path of PAGES) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        // Something rendered: the panel frame, or a page of its own (a 404 page, the access page).
        await page.locator('[data-testid="panel-name"], .ant-result, .ant-card').first().waitFor({ timeout: 15_000 });
        expect(violations, `${username} on ${path}`).toEqual([]);
      }
      // A dialog and a drawer render their own styles at runtime.
      // A dealer is sent on to /unauthorized, in the panel's frame.
      await page.goto('/ticket-categories');
      await page.waitForLoadState('networkidle');
      await page.locator('[data-testid="panel-name"], .ant-result').first().waitFor();
      const add = page.getByRole('button', { name: /add|create/i }).first();
      if (await add.isVisible()) {
        await add.click();
        await page.locator('.ant-modal, .ant-drawer').first().waitFor();
      }
      expect(violations, `${username}: dialogs`).toEqual([]);
      await page.context().close();
    });
  }

  it('renders the OpenAPI pages without a CSP violation', { timeout: 60_000 }, async () => {
    const page = await ctx.newPage();
    const violations = await watchViolations(page);
    await page.goto('/api/docs');
    await page.locator('.swagger-ui .info').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
    await page.context().close();
  });
});
