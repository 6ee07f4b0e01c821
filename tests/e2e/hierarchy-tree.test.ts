/**
 * The hierarchy tree in the browser: a reseller sees itself and its dealers with their figures,
 * chooses a dealer, opens its accounts (the accounts list filtered to that branch, its Branch filter
 * showing the dealer) and comes Back to the same member and window.
 */
import { expect, it } from 'vitest';
import { EXPIRY_WARNING_DAYS, RENEWAL, nameWithUsername } from '../../src/contract';
import { HIERARCHY_TREE, type HierarchyTree } from '../../src/contract/resources/hierarchy';
import { describeBrowser } from './harness';

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
    await page.locator('.ant-modal:visible').waitFor();
  });

  it('a dealer has no tree: no menu link, and the page is refused', async () => {
    const page = await ctx.signIn('dealer');
    await page.locator('.ant-menu').first().waitFor();
    expect(await page.locator('.ant-menu a[href="/hierarchy"]').count()).toBe(0);
    await page.goto('/hierarchy');
    await page.waitForURL(/\/unauthorized/);
  });
});
