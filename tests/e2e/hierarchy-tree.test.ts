/**
 * The hierarchy tree in the browser: a reseller sees itself and its dealers with their figures,
 * chooses a dealer, opens its accounts (the accounts list filtered to that branch, its Branch filter
 * showing the dealer) and comes Back to the same member and window.
 */
import { expect, it } from 'vitest';
import { ACCOUNT_MOVES, ACCOUNT_SCREEN, BULK_FILTER, EXPIRY_WARNING_DAYS, RENEWAL, nameWithUsername } from '../../src/contract';
import { HIERARCHY_TREE, type HierarchyTree } from '../../src/contract';
import { describeBrowser, waitForToast } from './harness';

describeBrowser('hierarchy tree', (ctx) => {
  it('a reseller chooses a dealer, opens its accounts and its expiring ones, and Back returns to it', async () => {
    const page = await ctx.signIn('reseller');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const answer = await fetch(`${ctx.product.baseUrl}/api/v1/hierarchy/tree?expiring_days=30`, { headers: { Authorization: `Bearer ${token}` } });
    const { nodes } = ((await answer.json()) as { data: HierarchyTree }).data;
    const dealer = nodes.find((n) => n.username === 'dealer')!;
    expect(dealer, JSON.stringify(nodes)).toBeDefined();
    expect(dealer.accounts).toBeGreaterThan(0);

    await page.goto('/hierarchy');
    await page.locator('.ant-card-head-title', { hasText: HIERARCHY_TREE.title }).waitFor();
    const tree = page.getByRole('tree');
    await tree.getByText(nameWithUsername(dealer.name, dealer.username), { exact: true }).waitFor();
    // The window: 30 days, kept in the URL.
    await page.locator('.ant-select', { has: page.getByRole('combobox', { name: HIERARCHY_TREE.expiringWindow, exact: true }) }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^30 days$/ }).click();
    await page.waitForURL(/expiring_days=30/);

    await tree.getByText(nameWithUsername(dealer.name, dealer.username), { exact: true }).click();
    await page.waitForURL(new RegExp(`member=${dealer.id}`));
    const details = page.locator('.ant-card-small', { hasText: nameWithUsername(dealer.name, dealer.username) });
    await expect.poll(() => details.locator('.ant-descriptions-row', { hasText: HIERARCHY_TREE.expiring('30') }).innerText()).toContain(String(dealer.expiring_accounts));
    await expect.poll(() => details.locator('.ant-descriptions-row', { hasText: /^Accounts/ }).innerText()).toContain(String(dealer.accounts));

    await details.getByRole('button', { name: HIERARCHY_TREE.openAccounts, exact: true }).click();
    await page.waitForURL(/\/users\?.*branch/);
    const branch = page.locator('.ant-select', { has: page.getByRole('combobox', { name: HIERARCHY_TREE.branch, exact: true }) });
    await expect.poll(() => branch.locator('.ant-select-selection-item').innerText()).toContain(dealer.username);
    await page.getByText(`${dealer.accounts} total`, { exact: true }).waitFor();

    await page.goBack();
    await page.waitForURL(/\/hierarchy\?.*member=/);
    expect(page.url()).toContain('expiring_days=30');
    await details.waitFor();

    await details.getByRole('button', { name: HIERARCHY_TREE.openExpiring, exact: true }).click();
    await page.waitForURL(/\/users\?.*expiry/);
    const expiry = page.locator('.ant-select', { has: page.getByRole('combobox', { name: 'Expiry', exact: true }) });
    await expect.poll(() => expiry.locator('.ant-select-selection-item').innerText()).toBe('Within 30 days');
  });

  it("a dealer's dashboard card opens the accounts expiring within a week, and a bulk renew of them is one step away", async () => {
    const page = await ctx.signIn('dealer');
    const card = page.getByTestId('card-expiring_users');
    await card.waitFor();
    const value = card.locator('.ant-statistic-content-value');
    // The demo data has accounts expiring within the week.
    await expect.poll(async () => Number((await value.count()) && (await value.innerText()).replace(/[^0-9]/g, ''))).toBeGreaterThan(0);
    const figure = Number((await value.innerText()).replace(/[^0-9]/g, ''));
    await card.click();
    await page.waitForURL(/\/users\?.*expiry/);
    const expiry = page.locator('.ant-select', { has: page.getByRole('combobox', { name: 'Expiry', exact: true }) });
    await expect.poll(() => expiry.locator('.ant-select-selection-item').innerText()).toBe(`Within ${EXPIRY_WARNING_DAYS} days`);
    await page.getByText(`${figure} total`, { exact: true }).waitFor();

    const rows = page.locator('.app-content').getByRole('checkbox', { name: /^Select (?!all)/ });
    for (const row of await rows.all()) await row.check();
    await page.getByRole('button', { name: RENEWAL.bulkRenew }).click();
    // The preview first: the selection counted, the credits it would cost.
    const dialog = page.locator('.ant-modal-wrap:visible .ant-modal', { hasText: ACCOUNT_SCREEN.bulkRenewTitle });
    await dialog.getByTestId('bulk-filter-ok').click();
    await dialog.getByTestId('bulk-preview').getByText(BULK_FILTER.matched(figure)).waitFor();
    expect(await dialog.getByTestId('bulk-credits').innerText()).toMatch(/^\d+ credits?$/);
  });

  it('a reseller takes an account back from its dealer: the preview first, then the move', async () => {
    const page = await ctx.signIn('reseller');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const get = async (path: string) => (await (await fetch(`${ctx.product.baseUrl}/api/v1/${path}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as any;
    const { nodes } = (await get('hierarchy/tree')).data as HierarchyTree;
    const dealer = nodes.find((n) => n.username === 'dealer')!;
    // The new owner: the reseller itself, first in its tree.
    const dealer2 = nodes[0];
    const account = (await get(`accounts?filter[owner_id]=${dealer.id}&per_page=1`)).data[0] as { id: number; login: string };

    await page.goto(`/users?filters[0][field]=search&filters[0][operator]=contains&filters[0][value]=${encodeURIComponent(account.login)}`);
    await page
      .locator('.app-content')
      .getByRole('checkbox', { name: new RegExp(`^Select .*${account.login}`) })
      .first()
      .check();
    await page.getByRole('button', { name: ACCOUNT_MOVES.action, exact: true }).click();
    const dialog = page.locator('.ant-modal', { hasText: ACCOUNT_MOVES.title });
    const move = dialog.getByRole('button', { name: ACCOUNT_MOVES.action, exact: true });
    await expect.poll(() => move.isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: ACCOUNT_MOVES.newOwner }).fill(dealer2.username);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `(${dealer2.username})` }).click();
    await dialog.getByText(ACCOUNT_MOVES.preview(1, nameWithUsername(dealer2.name, dealer2.username))).waitFor();
    await move.click();
    await waitForToast(page, ACCOUNT_MOVES.done(1, nameWithUsername(dealer2.name, dealer2.username)));
    await expect.poll(async () => (await get(`accounts/${account.id}`)).data.owner.id).toBe(dealer2.id);
  });

  it('a dealer has no tree: no menu link, and the page is refused', async () => {
    const page = await ctx.signIn('dealer');
    await page.locator('.ant-menu').first().waitFor();
    expect(await page.locator('.ant-menu a[href="/hierarchy"]').count()).toBe(0);
    await page.goto('/hierarchy');
    await page.waitForURL(/\/unauthorized/);
  });
});
