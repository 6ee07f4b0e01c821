import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { AUTH, CREDITS, ENTITY_FORM, HIERARCHY, HIERARCHY_PANEL, RESELLERS } from '../../src/contract';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { describeBrowser, waitForToast } from './harness';

async function headerCredits(page: Page): Promise<number> {
  await page.getByTestId('header-credits').waitFor();
  return Number((await page.getByTestId('header-credits').innerText()).replace(/[^0-9]/g, ''));
}

/** The message under the form field whose input has this id. */
const errorUnder = (scope: ReturnType<Page['locator']>, id: string) => scope.locator(`.ant-form-item:has(#${id}) .ant-form-item-explain-error`);

describeBrowser('hierarchy forms in the browser', (ctx) => {
  it('a manager creates a reseller with initial credits: the rules before sending, the taken username from the API, the credits moved once', async () => {
    const page = await ctx.signIn('manager');
    const before = await headerCredits(page);
    await page.goto('/resellers');
    await page.getByRole('button', { name: RESELLERS.add }).click();
    const dialog = page.locator('.ant-modal', { hasText: 'Initial credits' });
    await dialog.waitFor();

    await dialog.getByRole('button', { name: 'Create Reseller' }).click();
    await expect.poll(() => errorUnder(dialog, 'resellers-create_name').innerText()).toBe(ENTITY_FORM.nameRequired);
    await expect.poll(() => errorUnder(dialog, 'resellers-create_password').innerText()).toBe(ENTITY_FORM.passwordRequiredResellers);
    await dialog.getByText(CREDITS.selectAmount).waitFor();

    await dialog.getByLabel('Name', { exact: true }).fill('Rhea Reseller');
    await dialog.getByLabel('Username', { exact: true }).fill('reseller');
    await dialog.getByLabel('Password', { exact: true }).fill('a long password');
    await dialog.getByRole('combobox', { name: 'Amount' }).fill('10');
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: /^10 credits( \+ \d+ bonus)?$/ })
      .first()
      .click();
    await dialog.getByRole('button', { name: 'Create Reseller' }).click();
    // The API's answer, under the field and in the summary box.
    await expect.poll(() => errorUnder(dialog, 'resellers-create_username').innerText()).toBe(ENTITY_FORM.usernameTaken);
    await dialog.getByTestId('error-summary').getByText(ENTITY_FORM.usernameTaken).waitFor();

    await dialog.getByLabel('Username', { exact: true }).fill(`rhea${Date.now() % 100000}`);
    await dialog.getByRole('button', { name: 'Create Reseller' }).dblclick();
    await waitForToast(page, RESELLERS.created);
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'Rhea Reseller', exact: true }).waitFor();
    await expect.poll(() => headerCredits(page)).toBe(before - 10);
    await page.context().close();
  }, 120_000);

  it('admin creates a manager on its page: the allocation cap checked before sending, then back to /managers', async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/managers/create');
    await page.getByLabel('Initial credits', { exact: true }).fill('20000');
    await page.getByRole('button', { name: 'Create Manager' }).click();
    await page.getByText(CREDITS.adminAllocationCap).waitFor();
    await page.getByText(ENTITY_FORM.managerNameRequired).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Milo Manager');
    await page.getByLabel('Username', { exact: true }).fill(`milo${Date.now() % 100000}`);
    await page.getByLabel('Password', { exact: true }).fill('a long password');
    await page.getByLabel('Initial credits', { exact: true }).fill('50');
    await page.getByRole('button', { name: 'Create Manager' }).click();
    await page.waitForURL('**/managers');
    await waitForToast(page, HIERARCHY.created('Manager'));
    await page.getByRole('cell', { name: 'Milo Manager', exact: true }).waitFor();
    await page.context().close();
  }, 120_000);

  it('admin deactivates a manager: the dialog says what stops, the dealers list names the blocker, the dealer below cannot sign in; reactivated, it can', async () => {
    const api = async (path: string, token: string | null, body?: unknown) => {
      const res = await fetch(`${ctx.product.baseUrl}/api/v1${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    };
    const token = (await api('/login', null, { username: 'admin', password: 'demo-password' })).token as string;
    let [manager2] = (await api('/managers?filter[search]=manager2', token)).data;
    if (!manager2.is_active) {
      // Left inactive by a failed attempt: active again first.
      await fetch(`${ctx.product.baseUrl}/api/v1/managers/${manager2.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ is_active: true }),
      });
      [manager2] = (await api('/managers?filter[search]=manager2', token)).data;
    }
    expect(manager2.is_active).toBe(true);
    const dealers = (await api(`/dealers?filter[manager]=${manager2.id}&per_page=1`, token)).meta.total;

    const page = await ctx.signIn('admin');
    await page.goto('/managers');
    await page.getByLabel('Status of manager2').click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.getByText(HIERARCHY_PANEL.stopImpact({ resellers: manager2.total_children, dealers, accounts: manager2.total_accounts })).waitFor();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await waitForToast(page, HIERARCHY.statusUpdated);

    await page.goto('/dealers');
    const row = page.getByRole('row', { name: /Dora Dealer/ });
    await row.getByText(HIERARCHY_PANEL.blockedBy('manager', 'manager2')).waitFor();
    expect(
      await page
        .getByRole('row', { name: /Dan Dealer/ })
        .getByText(/^Blocked by/)
        .count(),
    ).toBe(0);

    const dealerPage = await ctx.newPage();
    await dealerPage.goto('/login');
    await dealerPage.getByLabel('Username').fill('dealer2');
    await dealerPage.getByLabel('Password').fill(DEMO_PASSWORD);
    await dealerPage.getByRole('button', { name: 'Sign In' }).click();
    await dealerPage.locator('.ant-alert-message', { hasText: AUTH.branchSuspended }).waitFor();
    await dealerPage.context().close();

    await page.goto('/managers');
    await page.getByLabel('Status of manager2').click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Activate' }).click();
    await waitForToast(page, HIERARCHY.statusUpdated);
    await page.context().close();
    const again = await ctx.signIn('dealer2', DEMO_PASSWORD);
    await again.context().close();
  }, 180_000);
});
