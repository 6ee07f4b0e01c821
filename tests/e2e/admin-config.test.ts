import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { FIELD_RULES, SETTINGS } from '../../src/contract';
import { describeBrowser } from './harness';

/** Waits for a toast with this text and closes it, so the next one can be told apart. */
async function toast(page: Page, text: string) {
  const notice = page.locator('.ant-notification-notice', { hasText: text });
  await notice.waitFor();
  await notice.locator('.ant-notification-notice-close').click();
  await notice.waitFor({ state: 'detached' });
}

describeBrowser('admin configuration in the browser', (ctx) => {
  it('a feature switch saves on change and is still off after a reload', async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/settings');
    const trials = page.getByRole('switch', { name: 'Enable Trials' });
    await trials.waitFor();
    expect(await trials.getAttribute('aria-checked')).toBe('true');
    await trials.click();
    await toast(page, SETTINGS.updated);
    expect(await trials.getAttribute('aria-checked')).toBe('false');

    await page.reload();
    await page.getByTestId('summary-enable_trials').waitFor();
    expect(await page.getByRole('switch', { name: 'Enable Trials' }).getAttribute('aria-checked')).toBe('false');
    expect(await page.getByTestId('summary-enable_trials').innerText()).toBe('Disabled');
    // The other switches kept their values.
    expect(await page.getByRole('switch', { name: 'Enable Promos' }).getAttribute('aria-checked')).toBe('true');
    await page.context().close();
  });

  it('a numeric setting saves through its own Save button, within its bounds, and persists', async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/settings');
    const trialDays = page.getByRole('spinbutton', { name: 'Trial Days' });
    await trialDays.waitFor();
    expect(await trialDays.inputValue()).toBe('7');

    // Out of bounds (spec 5: 1-365): refused under the field, nothing saved.
    await trialDays.fill('400');
    await page.getByRole('button', { name: 'Save Trial Days' }).click();
    await page.getByText(FIELD_RULES.between('Trial days', 1, 365)).waitFor();

    await trialDays.fill('14');
    await page.getByRole('button', { name: 'Save Trial Days' }).click();
    await toast(page, SETTINGS.updated);
    expect(await page.getByTestId('summary-trial_days').innerText()).toBe('14');

    await page.reload();
    await page.getByRole('spinbutton', { name: 'Trial Days' }).waitFor();
    expect(await page.getByRole('spinbutton', { name: 'Trial Days' }).inputValue()).toBe('14');
    expect(await page.getByTestId('summary-trial_days').innerText()).toBe('14');
    await page.context().close();
  });

  it('creates a server through the Add dialog with its defaults, and edits it without seeing its password', async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/servers');
    await page.locator('.ant-breadcrumb', { hasText: 'Home' }).getByText('Servers').waitFor();
    await page.getByRole('button', { name: 'Add Server' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.locator('#db_port').inputValue()).toBe('3306');
    await dialog.locator('#name').fill('E2E Server');
    await dialog.locator('#db_host').fill('10.0.0.9');
    await dialog.locator('#db_name').fill('stalker_db');
    await dialog.locator('#db_username').fill('stalker');
    await dialog.locator('#db_password').fill('s3cret-pass');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Server created successfully.');

    const row = page.getByRole('row', { name: /E2E Server/ });
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells).toContain('10.0.0.9:3306');
    expect(cells).toContain('Active');
    expect(cells).toContain('Online');

    await row.getByRole('button', { name: 'Row actions' }).click();
    await page.locator('.ant-dropdown-menu-item', { hasText: 'Edit' }).click();
    const edit = page.getByRole('dialog');
    await expect.poll(() => edit.locator('#name').inputValue()).toBe('E2E Server');
    expect(await edit.locator('#db_password').inputValue()).toBe('');
    expect(await edit.locator('#db_password').getAttribute('placeholder')).toBe('Leave empty to keep the current password');
    await page.context().close();
  });

  it('creates a theme with a slug generated from its name, and activating it changes the look for everyone', async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/themes');
    await page.getByRole('button', { name: 'Add Theme' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('#name').pressSequentially('Rounded Night 2');
    expect(await dialog.locator('#slug').inputValue()).toBe('rounded-night-2');
    await dialog.getByRole('spinbutton', { name: 'Border radius' }).fill('16');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Theme created successfully.');

    const row = page.getByRole('row', { name: /rounded-night-2/ });
    await row.waitFor();
    const addButton = page.getByRole('button', { name: 'Add Theme' });
    expect(await addButton.evaluate((b) => getComputedStyle(b).borderRadius)).not.toBe('16px');

    await row.getByRole('button', { name: 'Row actions' }).click();
    await page.locator('.ant-dropdown-menu-item', { hasText: 'Activate' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Activate' }).click();
    await toast(page, 'Theme activated successfully.');
    await expect.poll(() => addButton.evaluate((b) => getComputedStyle(b).borderRadius)).toBe('16px');
    await page.context().close();

    // Another role, another browser: the active theme is everyone's.
    const manager = await ctx.signIn('manager');
    await expect.poll(() => manager.getByTestId('user-menu').evaluate((b) => getComputedStyle(b).borderRadius)).toBe('16px');
    await manager.context().close();
  });
});
