/**
 * Maintenance mode in the browser: the admin turns it on through a confirmation that says what it
 * does, every admin screen then carries a bar, a reseller signing in meanwhile reads the maintenance
 * notice (never 'Login successful'), and the admin turns it off the same way.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ACCESS, AUTH, MAINTENANCE_BAR, SETTING_SWITCHES } from '../../src/contract';
import { describeBrowser } from './harness';

/** Every text the page ever showed, gathered as it appears (a toast that comes and goes included). */
const RECORD_TEXTS = () => {
  const seen: string[] = [];
  (window as unknown as { seenTexts: string[] }).seenTexts = seen;
  new MutationObserver(() => seen.push(document.body?.innerText ?? '')).observe(document, { subtree: true, childList: true, characterData: true });
};
const seenTexts = (page: Page) => page.evaluate(() => (window as unknown as { seenTexts: string[] }).seenTexts.join('\n'));

async function toggleMaintenance(page: Page, on: boolean) {
  const toggle = page.getByRole('switch', { name: 'Maintenance Mode' });
  await toggle.waitFor();
  expect(await toggle.getAttribute('aria-checked')).toBe(String(!on));
  await toggle.click();
  const effect = on ? SETTING_SWITCHES.effects.maintenance_mode.on : SETTING_SWITCHES.effects.maintenance_mode.off;
  const dialog = page.locator('.ant-modal-confirm', { hasText: effect });
  await dialog.getByRole('button', { name: on ? SETTING_SWITCHES.turnOn : SETTING_SWITCHES.turnOff }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.waitForFunction((want) => document.querySelector('[role="switch"][aria-label="Maintenance Mode"]')?.getAttribute('aria-checked') === want, String(on));
}

describeBrowser('maintenance guard in the browser', (ctx) => {
  it('asks before locking everyone out, shows the bar to admins, tells a reseller at sign-in, and lets them back after', async () => {
    const admin = await ctx.signIn('admin');
    await admin.goto('/settings');
    const toggle = admin.getByRole('switch', { name: 'Maintenance Mode' });
    await toggle.waitFor();

    // Cancelling leaves it off and sends nothing.
    const puts: string[] = [];
    admin.on('request', (r) => void (r.method() === 'PUT' && puts.push(r.url())));
    await toggle.click();
    const dialog = admin.locator('.ant-modal-confirm', { hasText: SETTING_SWITCHES.effects.maintenance_mode.on });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(puts).toEqual([]);
    expect(await admin.getByTestId('maintenance-bar').count()).toBe(0);

    await toggleMaintenance(admin, true);
    expect(puts).toHaveLength(1);

    // Another admin screen carries the bar, with the way back to the switch.
    await admin.goto('/managers');
    const bar = admin.getByTestId('maintenance-bar');
    await bar.waitFor();
    expect(await bar.innerText()).toContain(MAINTENANCE_BAR.text);
    await admin.reload();
    await admin.getByTestId('maintenance-bar').waitFor();

    // A reseller opening the sign-in page reads the notice, and signing in gets it again: no session, no 'Login successful'.
    const reseller = await ctx.newPage();
    await reseller.addInitScript(RECORD_TEXTS);
    await reseller.goto('/login');
    await reseller.getByTestId('maintenance-notice').waitFor();
    expect(await reseller.getByTestId('maintenance-notice').innerText()).toContain(ACCESS.maintenance);
    await reseller.getByLabel('Username').fill('reseller');
    await reseller.getByLabel('Password').fill('demo-password');
    const answer = reseller.waitForResponse((r) => r.url().endsWith('/api/v1/login'));
    await reseller.getByRole('button', { name: 'Sign In' }).click();
    expect((await answer).status()).toBe(503);
    await reseller.getByRole('button', { name: 'Sign In' }).waitFor();
    await reseller.waitForTimeout(500);
    expect(new URL(reseller.url()).pathname).toBe('/login');
    expect(await reseller.getByTestId('maintenance-notice').innerText()).toContain(ACCESS.maintenance);
    expect(await seenTexts(reseller)).not.toContain('Login successful');
    expect(await reseller.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The admin turns it off the same way: the bar goes, the reseller signs in.
    await admin.goto('/settings');
    await toggleMaintenance(admin, false);
    await admin.goto('/managers');
    await admin.getByTestId('panel-name').waitFor();
    await admin.getByRole('heading', { level: 1 }).waitFor();
    expect(await admin.getByTestId('maintenance-bar').count()).toBe(0);

    await reseller.reload();
    await reseller.getByLabel('Username').waitFor();
    expect(await reseller.getByTestId('maintenance-notice').count()).toBe(0);
    await reseller.getByLabel('Username').fill('reseller');
    await reseller.getByLabel('Password').fill('demo-password');
    await reseller.getByRole('button', { name: 'Sign In' }).click();
    await reseller.getByTestId('panel-name').waitFor();
    await admin.context().close();
    await reseller.context().close();
  });

  it('a session the API ended says so on the sign-in page; a normal visit does not', async () => {
    const page = await ctx.newPage();
    await page.goto('/login');
    await page.getByLabel('Username').waitFor();
    expect(await page.getByTestId('session-ended').count()).toBe(0);

    await page.getByLabel('Username').fill('dealer');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByTestId('panel-name').waitFor();
    // The token stops being valid (expired, revoked elsewhere): the next screen's calls get 401.
    await page.evaluate(() => localStorage.setItem('token', 'no-longer-valid'));
    await page.goto('/users');
    await page.getByTestId('session-ended').waitFor();
    expect(await page.getByTestId('session-ended').innerText()).toBe(AUTH.sessionEnded);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();
  });
});
