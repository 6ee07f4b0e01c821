import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ACCOUNTS, ACCOUNT_SCREEN, type Account, RENEWAL } from '../../src/contract';
import { describeBrowser, waitForToast } from './harness';

const LOGIN = 'e2e.viewer';
const MAC_DASHED = 'a4-b1-c2-0d-9e-7f';

/** The header's credits figure. */
async function headerCredits(page: Page): Promise<number> {
  const text = await page.getByTestId('header-credits').innerText();
  return Number(text.replace(/[^0-9]/g, ''));
}

async function api<T>(page: Page, baseUrl: string, path: string, init: RequestInit = {}): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${baseUrl}/api/v1/${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
  });
  expect(res.status, `${path}: ${res.status}`).toBeLessThan(300);
  return (await res.json()) as T;
}

const findAccount = async (page: Page, baseUrl: string) =>
  (await api<{ data: Account[] }>(page, baseUrl, `accounts?filter[search]=${LOGIN}`)).data.find((a) => a.login === LOGIN);

/** Calendar months in UTC, as the API extends expiries. */
function addMonthsUtc(iso: string, months: number): string {
  const d = new Date(iso);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  d.setUTCDate(Math.min(day, new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()));
  return d.toISOString();
}

describeBrowser('end-user accounts in the browser', (ctx) => {
  it('a dealer creates an account, renews it for 3 months at the discounted price, and finds it with the MAC check', async () => {
    // A 3-month renewal on the dealer's server costs 2 credits under this discount (instead of 3).
    const admin = await ctx.signIn('admin');
    await api(admin, ctx.product.baseUrl, 'global-discounts', {
      method: 'POST',
      body: JSON.stringify({ name: 'Three for two', server_id: 1, validity_months: 3, credits_required: 2, is_active: true }),
    });
    await admin.context().close();

    const page = await ctx.signIn('dealer');
    const start = await headerCredits(page);

    // Create: the entity form's rules first, then a valid account bought for 1 month.
    await page.goto('/users');
    await page.locator('.ant-card-head-title', { hasText: ACCOUNT_SCREEN.title }).waitFor();
    await page.getByRole('button', { name: ACCOUNT_SCREEN.add }).click();
    const create = page.locator('.ant-modal', { hasText: ACCOUNT_SCREEN.createTitle });
    await create.waitFor();
    await create.getByRole('button', { name: 'Create' }).click();
    await create.getByText('Name is required', { exact: true }).waitFor();
    await create.getByText('Username is required').waitFor();
    await create.getByText('Password is required for new accounts').waitFor();
    await create.getByText('STB MAC address is required for users').waitFor();
    await create.getByLabel('STB MAC address').fill('12:34');
    await create.getByText('MAC address must be exactly 12 hexadecimal digits').waitFor();

    await create.getByLabel('Name', { exact: true }).fill('E2E Viewer');
    await create.getByLabel('Username').fill(LOGIN);
    await create.getByLabel('Password').fill('box-pass-1');
    await create.getByLabel('STB MAC address').fill(MAC_DASHED);
    await create.getByTestId('renewal-total').filter({ hasText: '1 credit' }).waitFor();
    await create.getByRole('button', { name: 'Create' }).click();
    await waitForToast(page, ACCOUNTS.created);
    await create.waitFor({ state: 'hidden' });
    // Opened again, its button is named by its text alone: the last save's busy icon is gone.
    await page.getByRole('button', { name: ACCOUNT_SCREEN.add }).click();
    await create.getByRole('button', { name: 'Create', exact: true }).waitFor({ timeout: 5_000 });
    await create.getByRole('button', { name: 'Cancel' }).click();
    await create.waitFor({ state: 'hidden' });

    const created = await findAccount(page, ctx.product.baseUrl);
    expect(created).toMatchObject({ login: LOGIN, full_name: 'E2E Viewer', mac_address: 'A4:B1:C2:0D:9E:7F', pwd_txt: 'box-pass-1' });
    await expect.poll(() => headerCredits(page)).toBe(start - 1);

    // The new row, found by its MAC in another notation.
    await page.getByRole('textbox', { name: 'Search' }).fill('a4b1c20d');
    const row = page.getByRole('row').filter({ hasText: LOGIN });
    await row.waitFor();
    expect(await row.innerText()).toContain('A4:B1:C2:0D:9E:7F');

    // Quick Renew for 3 months: out-of-range months are refused, the price shows the discount.
    await row.getByRole('button', { name: /^Actions for / }).click();
    await page.getByRole('menuitem', { name: RENEWAL.quickRenew }).click();
    const renew = page.locator('.ant-modal', { hasText: ACCOUNT_SCREEN.quickRenewTitle });
    await renew.waitFor();
    const months = renew.getByRole('spinbutton');
    await months.fill('60');
    await renew.getByText('Invalid months: Please enter a value between 1 and 50 months').waitFor();
    await months.fill('3');
    await renew.getByTestId('renewal-total').filter({ hasText: '2 credits' }).waitFor();
    await renew.getByText('Three for two: save 1 credit').waitFor();
    const before = await headerCredits(page);
    const preview = await renew.getByTestId('renewal-new-expiry').innerText();
    await renew.getByRole('button', { name: RENEWAL.quickRenew }).click();
    await waitForToast(page, ACCOUNTS.renewed);
    await renew.waitFor({ state: 'hidden' });

    // The header's balance dropped by the price, and the expiry moved 3 months on.
    await expect.poll(() => headerCredits(page)).toBe(before - 2);
    const renewed = await findAccount(page, ctx.product.baseUrl);
    expect(renewed!.expiry_date).toBe(addMonthsUtc(created!.expiry_date!, 3));
    expect(renewed!.is_promo).toBe(true);
    const newDate = preview.slice(0, 10);
    await row.getByTestId('expiry-cell').filter({ hasText: newDate }).waitFor();
    expect(await row.getByTestId('expiry-cell').innerText()).toContain('months left');

    // MAC Check finds it, typed in yet another notation.
    await page.goto('/mac-search');
    await page.getByLabel('MAC address').fill('a4b1.c20d.9e7f');
    await page.getByRole('button', { name: 'Check' }).click();
    const result = page.getByTestId('mac-result');
    await result.getByText(ACCOUNTS.macFound).waitFor();
    const card = result.getByTestId('mac-account');
    expect(await card.innerText()).toContain(LOGIN);
    expect(await card.innerText()).toContain('Dan Dealer');
    expect(await card.innerText()).toContain(newDate);

    // A MAC nobody uses.
    await page.getByLabel('MAC address').fill('00:00:00:00:00:01');
    await page.getByRole('button', { name: 'Check' }).click();
    await result.getByText(ACCOUNTS.macNotFound).waitFor();
    await page.context().close();
  });
});
