/**
 * Bulk actions on the accounts list in the browser, always through the preview: a dealer's selection
 * renewed (the previewed credits are what the header's balance loses, the expiry moves), everything
 * a filter matches renewed, a selection with an account that would be refused (and one the balance
 * cannot pay for), and a preview whose accounts changed before Apply (409, nothing charged).
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ACCOUNT_SCREEN, BULK_ACTION_LABELS, BULK_FILTER, CREDITS, DATA_TABLE, GENERAL, RENEWAL, plural } from '../../src/contract';
import { describeBrowser } from './harness';

type ApiAccount = { id: number; login: string; status: string; expiry_date: string | null };

/** The API as the page's signed-in user. */
async function apiOf(page: Page, baseUrl: string) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api/v1/${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.status === 204 ? null : ((await res.json()) as any);
  };
  const account = async (login: string): Promise<ApiAccount> => {
    const { data } = await call('GET', `accounts?filter[search]=${encodeURIComponent(login)}&per_page=50`);
    const found = (data as ApiAccount[]).find((a) => a.login === login);
    expect(found, login).toBeDefined();
    return found!;
  };
  return { call, account };
}

async function headerCredits(page: Page): Promise<number> {
  await page.getByTestId('header-credits').waitFor();
  return Number((await page.getByTestId('header-credits').innerText()).replace(/[^0-9]/g, ''));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Opens the accounts list and checks the rows of these logins. */
async function select(page: Page, logins: string[]) {
  await page.goto('/users');
  for (const login of logins) {
    await page
      .locator('.app-content')
      .getByRole('checkbox', { name: new RegExp(`^Select .*${escape(login)}`) })
      .first()
      .check();
  }
  return page.locator('.app-content .ant-alert', { hasText: DATA_TABLE.selected(logins.length) });
}

/** The bulk dialog, its main button and its parts. */
function dialogOf(page: Page, title: string) {
  const dialog = page.locator('.ant-modal-wrap:visible .ant-modal', { hasText: title });
  return {
    dialog,
    ok: dialog.getByTestId('bulk-filter-ok'),
    preview: dialog.getByTestId('bulk-preview'),
    credits: async () => Number((await dialog.getByTestId('bulk-credits').innerText()).replace(/[^0-9]/g, '')),
  };
}

describeBrowser('bulk actions through the preview', (ctx) => {
  it("a dealer's Bulk Renew of two selected accounts: the preview's credits are what the balance loses, the expiry moves", async () => {
    const page = await ctx.signIn('dealer');
    const api = await apiOf(page, ctx.product.baseUrl);
    const before = { john: await api.account('john.doe'), alice: await api.account('alice.w') };
    const balance = await headerCredits(page);

    const bar = await select(page, ['john.doe', 'alice.w']);
    await bar.getByRole('button', { name: RENEWAL.bulkRenew, exact: true }).click();
    const { dialog, ok, preview, credits } = dialogOf(page, ACCOUNT_SCREEN.bulkRenewTitle);
    await dialog.getByText(BULK_FILTER.applyToSelected(2)).waitFor();
    await dialog.locator('.ant-radio-button-wrapper', { hasText: /^3 months$/ }).click();
    await ok.click();
    await preview.waitFor();
    expect(await preview.innerText()).toContain(BULK_FILTER.matched(2));
    expect(await preview.innerText()).toContain(BULK_FILTER.applicable(2));
    const previewed = await credits();
    expect(previewed).toBeGreaterThan(0);
    expect(await dialog.getByTestId('bulk-balance-before').innerText()).toBe(plural(balance, 'credit'));
    expect(await dialog.getByTestId('bulk-balance-after').innerText()).toBe(plural(balance - previewed, 'credit'));
    // Nothing moved before Apply.
    expect((await api.account('john.doe')).expiry_date).toBe(before.john.expiry_date);

    await ok.click();
    await page.getByText(BULK_FILTER.done(2)).first().waitFor();
    await expect.poll(() => headerCredits(page)).toBe(balance - previewed);
    // The selection is cleared once applied.
    await bar.waitFor({ state: 'detached' });
    for (const [login, was] of [
      ['john.doe', before.john],
      ['alice.w', before.alice],
    ] as const) {
      const now = await api.account(login);
      expect(new Date(now.expiry_date!).getTime(), login).toBeGreaterThan(new Date(was.expiry_date!).getTime() + 80 * 86_400_000);
    }
  });

  it('a reseller renews everything the expiring filter matches: the preview counts what the list counts, then the list refreshes', async () => {
    const page = await ctx.signIn('reseller');
    const balance = await headerCredits(page);
    await page.goto('/users?filters[0][field]=expiry&filters[0][operator]=eq&filters[0][value]=7');
    const matching = page.getByTestId('matching-actions');
    await matching.waitFor();
    const total = Number((await matching.locator('.ant-typography').first().innerText()).replace(/[^0-9]/g, ''));
    expect(total).toBeGreaterThan(0);
    await matching.getByRole('button', { name: BULK_ACTION_LABELS.renew, exact: true }).click();

    const { dialog, ok, preview, credits } = dialogOf(page, ACCOUNT_SCREEN.bulkRenewTitle);
    await dialog.getByText(BULK_FILTER.applyToAll(total)).waitFor();
    await ok.click();
    await preview.waitFor();
    expect(await preview.innerText()).toContain(BULK_FILTER.matched(total));
    const previewed = await credits();
    expect(previewed).toBe(total);
    await ok.click();
    await page.getByText(BULK_FILTER.done(total)).first().waitFor();
    await expect.poll(() => headerCredits(page)).toBe(balance - previewed);
    // Renewed for a month, none expires within the week any more: the list answers again, empty.
    await ok.click();
    await page.locator('.app-content').getByText(GENERAL.noData).first().waitFor();
  });

  it('a selection with an account that would be refused shows it with its reason; one the balance cannot pay is not applied', async () => {
    const page = await ctx.signIn('dealer');
    const api = await apiOf(page, ctx.product.baseUrl);
    const bob = await api.account('bob.jones');
    await api.call('PATCH', `accounts/${bob.id}`, { status: 'suspended' });

    const bar = await select(page, ['bob.jones', 'jane.smith']);
    await bar.getByRole('button', { name: BULK_ACTION_LABELS.suspend, exact: true }).click();
    const suspend = dialogOf(page, BULK_FILTER.previewTitle(BULK_ACTION_LABELS.suspend));
    await suspend.ok.click();
    await suspend.preview.waitFor();
    expect(await suspend.dialog.getByTestId('bulk-refused').innerText()).toBe(`${BULK_FILTER.alreadySuspended} (1): bob.jones`);
    expect(await suspend.preview.innerText()).toContain(BULK_FILTER.applicable(1));
    await suspend.ok.click();
    await page.getByText(BULK_FILTER.done(1)).first().waitFor();
    expect((await api.account('jane.smith')).status).toBe('suspended');
    await suspend.ok.click();

    // All four for 50 months: more than the dealer holds.
    const balance = await headerCredits(page);
    const all = await select(page, ['john.doe', 'jane.smith', 'bob.jones', 'alice.w']);
    await all.getByRole('button', { name: RENEWAL.bulkRenew, exact: true }).click();
    const renew = dialogOf(page, ACCOUNT_SCREEN.bulkRenewTitle);
    await renew.dialog.getByRole('spinbutton', { name: 'Months' }).fill('50');
    await renew.ok.click();
    await renew.preview.waitFor();
    const needed = await renew.credits();
    expect(needed).toBeGreaterThan(balance);
    expect(await renew.dialog.getByTestId('bulk-insufficient').innerText()).toBe(CREDITS.insufficientCredits(needed, balance));
    await expect.poll(() => renew.ok.isDisabled()).toBe(true);
    await renew.dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await headerCredits(page)).toBe(balance);
  });

  it('a preview whose accounts changed before Apply is refused whole: the panel says so and nothing is charged', async () => {
    const page = await ctx.signIn('dealer');
    const api = await apiOf(page, ctx.product.baseUrl);
    const john = await api.account('john.doe');
    const alice = await api.account('alice.w');
    const balance = await headerCredits(page);

    const bar = await select(page, ['john.doe', 'alice.w']);
    await bar.getByRole('button', { name: RENEWAL.bulkRenew, exact: true }).click();
    const { dialog, ok, preview } = dialogOf(page, ACCOUNT_SCREEN.bulkRenewTitle);
    await ok.click();
    await preview.waitFor();
    // Meanwhile one of them is deleted through the API.
    await api.call('DELETE', `accounts/${alice.id}`);
    await ok.click();
    await dialog.getByTestId('bulk-refusal').getByText(BULK_FILTER.changed).waitFor();
    expect(await ok.innerText()).toBe(BULK_FILTER.previewAgain);
    expect(await preview.count()).toBe(0);
    // The selection stays for another try.
    expect(await bar.count()).toBe(1);
    expect(await headerCredits(page)).toBe(balance);
    expect((await api.call('GET', 'user')).credits).toBe(balance);
    expect((await api.account('john.doe')).expiry_date).toBe(john.expiry_date);
  });
});
