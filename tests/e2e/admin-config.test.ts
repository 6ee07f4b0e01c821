import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { FIELD_RULES, GLOBAL_DISCOUNTS, SERVERS, SETTINGS, SETTING_SWITCHES } from '../../src/contract';
import { describeBrowser } from './harness';

/** A field of a declared CRUD form (its id is prefixed with the form's name: '<resource>-<mode>_<field>'). */
const field = (scope: Locator, name: string) => scope.locator(`[id$="-create_${name}"], [id$="-edit_${name}"]`);

/** Waits for a toast with this text and closes it, so the next one can be told apart. */
async function toast(page: Page, text: string) {
  const notice = page.locator('.ant-notification-notice', { hasText: text });
  await notice.waitFor();
  await notice.locator('.ant-notification-notice-close').click();
  await notice.waitFor({ state: 'detached' });
}

describeBrowser('admin configuration in the browser', (ctx) => {
  it('a feature switch saves once confirmed and is still off after a reload', async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/settings');
    const trials = page.getByRole('switch', { name: 'Enable Trials' });
    await trials.waitFor();
    expect(await trials.getAttribute('aria-checked')).toBe('true');
    await trials.click();
    await page.locator('.ant-modal-confirm', { hasText: SETTING_SWITCHES.effects.enable_trials.off }).getByRole('button', { name: SETTING_SWITCHES.turnOff }).click();
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

  it("a numeric setting saves through its own Save button, within its bounds, and persists; empty or 'abc' is refused with the field's message and sends nothing", async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/settings');
    const trialDays = page.getByRole('textbox', { name: 'Trial Days' });
    await trialDays.waitFor();
    expect(await trialDays.inputValue()).toBe('7');
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/system-settings/')) puts.push(r.url());
    });
    const rule = FIELD_RULES.between('Trial days', 1, 365);
    const under = page.locator('.ant-form-item', { has: trialDays }).locator('.ant-form-item-explain-error');

    // Out of bounds (1-365), empty or not a number: refused under the field as typed, nothing saved.
    for (const typed of ['400', '', 'abc']) {
      await trialDays.fill(typed);
      await page.getByRole('button', { name: 'Save Trial Days' }).click();
      await under.filter({ hasText: rule }).waitFor();
      expect(await trialDays.inputValue()).toBe(typed);
    }
    expect(puts).toEqual([]);
    expect(await page.locator('.ant-notification-notice', { hasText: SETTINGS.updated }).count()).toBe(0);
    expect(await page.getByTestId('summary-trial_days').innerText()).toBe('7');

    await trialDays.fill('14');
    await page.getByRole('button', { name: 'Save Trial Days' }).click();
    await toast(page, SETTINGS.updated);
    expect(puts).toHaveLength(1);
    await under.filter({ hasText: rule }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('summary-trial_days').innerText()).toBe('14');

    await page.reload();
    await page.getByRole('textbox', { name: 'Trial Days' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Trial Days' }).inputValue()).toBe('14');
    expect(await page.getByTestId('summary-trial_days').innerText()).toBe('14');
    await page.context().close();
  });

  it('creates a server through the Add dialog with its defaults, and edits it without seeing its password', async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/servers');
    await page.locator('.ant-breadcrumb', { hasText: 'Home' }).getByText('Servers').waitFor();
    await page.getByRole('button', { name: 'Add Server' }).click();
    const dialog = page.getByRole('dialog');
    expect(await field(dialog, 'db_port').inputValue()).toBe('3306');
    await field(dialog, 'name').fill('E2E Server');
    await field(dialog, 'db_host').fill('10.0.0.9');
    await field(dialog, 'db_name').fill('stalker_db');
    await field(dialog, 'db_username').fill('stalker');
    await field(dialog, 'db_password').fill('s3cret-pass');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Server created successfully.');

    const row = page.getByRole('row', { name: /E2E Server/ });
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells).toContain('10.0.0.9:3306');
    expect(cells).toContain('Active');
    expect(cells).toContain('Online');

    await row.getByRole('button', { name: /^Actions for / }).click();
    await page.locator('.ant-dropdown-menu-item', { hasText: 'Edit' }).click();
    const edit = page.getByRole('dialog');
    await expect.poll(() => field(edit, 'name').inputValue()).toBe('E2E Server');
    expect(await field(edit, 'db_password').inputValue()).toBe('');
    expect(await field(edit, 'db_password').getAttribute('placeholder')).toBe('Leave empty to keep the current password');
    // The driver: local by default; Ministra writes the accounts to this database too.
    await edit.locator('.ant-select', { has: page.locator('[id$="-edit_driver"]') }).click();
    await page.locator('.ant-select-item-option', { hasText: 'Ministra (MySQL/MariaDB)' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Server updated successfully.');
    await row.getByRole('button', { name: /expand/i }).click();
    await page.locator('.ant-table-expanded-row', { hasText: 'Ministra' }).waitFor();
    await page.context().close();
  });

  it('creates a theme with a slug generated from its name, and activating it changes the look for everyone', async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/themes');
    await page.locator('.ant-table-row').first().waitFor();
    await page.getByRole('button', { name: 'Add Theme' }).click();
    const dialog = page.getByRole('dialog');
    await field(dialog, 'name').pressSequentially('Rounded Night 2');
    await expect.poll(() => field(dialog, 'slug').inputValue()).toBe('rounded-night-2');
    await dialog.getByRole('spinbutton', { name: 'Border radius' }).fill('16');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Theme created successfully.');

    const row = page.getByRole('row', { name: /rounded-night-2/ });
    await row.waitFor();
    const addButton = page.getByRole('button', { name: 'Add Theme' });
    expect(await addButton.evaluate((b) => getComputedStyle(b).borderRadius)).not.toBe('16px');

    await row.getByRole('button', { name: /^Actions for / }).click();
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

  it('creates a global discount with the form defaults and shows it as a card with its savings and uses', async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/global-discounts');
    // The header's button (an empty list offers the same one under its hint).
    await page.getByRole('button', { name: 'Add Global Discount' }).first().click();
    const dialog = page.getByRole('dialog');
    expect(await field(dialog, 'validity_months').inputValue()).toBe('12');
    expect(await field(dialog, 'credits_required').inputValue()).toBe('9');
    // Missing name and server: under the fields and as a toast.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(GLOBAL_DISCOUNTS.selectServer).waitFor();
    await toast(page, 'Name is required');

    await field(dialog, 'name').fill('Yearly deal');
    await field(dialog, 'server_id').click();
    await page.locator('.ant-select-item-option', { hasText: 'Main Server' }).click();
    await field(dialog, 'credits_required').fill('10');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Global discount created successfully.');

    const card = page.getByTestId('discount-card').filter({ hasText: 'Yearly deal' });
    await card.waitFor();
    expect(await card.getByTestId('discount-savings').innerText()).toBe('2 months (16.7%)');
    await card.getByText('0 / Unlimited').waitFor();
    await card.getByText('Main Server').waitFor();
    await page.context().close();
  });

  it('shows the failure messages when the API fails: servers in a red box and a toast, settings saves', async () => {
    const page = await ctx.signIn('admin');
    await page.route('**/api/v1/servers?*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Server Error"}' }));
    await page.goto('/servers');
    await page.locator('.ant-alert-error', { hasText: SERVERS.loadFailed }).waitFor();
    await toast(page, SERVERS.loadFailed);

    await page.route('**/api/v1/system-settings/*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Server Error"}' }));
    await page.goto('/settings');
    const promos = page.getByRole('switch', { name: 'Enable Promos' });
    await promos.click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: SETTING_SWITCHES.turnOff }).click();
    await toast(page, SETTINGS.updateFailed);
    // Not saved: the switch shows the stored value again.
    expect(await promos.getAttribute('aria-checked')).toBe('true');
    await page.context().close();
  });
});
