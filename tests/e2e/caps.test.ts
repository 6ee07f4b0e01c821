/**
 * Member caps in the browser: a reseller chooses one of its dealers in the hierarchy tree and caps
 * its live accounts in the caps editor; the dealer sees the cap and its use in "Your limits" on its
 * dashboard, and an account beyond it is refused with the API's message. Nobody sets a cap from
 * below or from beside: the dealer's own call is 403, another reseller's dealer is not found.
 */
import { expect, it } from 'vitest';
import { ACCOUNT_SCREEN, CAPS, HIERARCHY_TREE, type HierarchyTree, nameWithUsername } from '../../src/contract';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { describeBrowser, waitForToast } from './harness';

describeBrowser('member caps in the browser', (ctx) => {
  const api = async (path: string, init: RequestInit = {}, token?: string) => {
    const res = await fetch(`${ctx.product.baseUrl}/api/v1${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  // The demo users (admin, manager, reseller, dealer) take any password; the others have the seed's.
  const tokenOf = async (username: string) => (await api('/login', { method: 'POST', body: JSON.stringify({ username, password: DEMO_PASSWORD }) })).body.token as string;
  const noCaps = { max_accounts: null, trials_per_day: null, credits_per_day: null };

  it('a reseller caps its dealer in the tree; the dealer sees it on its dashboard and is refused an account beyond it', async () => {
    const resellerToken = await tokenOf('reseller');
    const { nodes } = (await api('/hierarchy/tree', {}, resellerToken)).body.data as HierarchyTree;
    const dealer = nodes.find((n) => n.username === 'dealer')!;
    expect(dealer, JSON.stringify(nodes)).toBeDefined();
    const live = dealer.accounts;
    expect(live).toBeGreaterThan(0);

    const page = await ctx.signIn('reseller');
    await page.goto('/hierarchy');
    await page.locator('.ant-card-head-title', { hasText: HIERARCHY_TREE.title }).waitFor();
    await page.getByRole('tree').getByText(nameWithUsername(dealer.name, dealer.username), { exact: true }).click();
    await page.waitForURL(new RegExp(`member=${dealer.id}`));
    const editor = page.getByTestId('caps-editor');
    // No cap yet: the use is shown beside "No limit".
    await editor.getByText(`${live} (${CAPS.noLimit})`).first().waitFor();
    await editor.getByLabel(CAPS.maxAccounts).fill(String(live));
    await editor.getByRole('button', { name: 'Save' }).click();
    await waitForToast(page, CAPS.saved(dealer.username));
    await editor.getByText(CAPS.usage(live, live), { exact: true }).waitFor();
    expect((await api(`/hierarchy/caps/${dealer.id}`, {}, resellerToken)).body.data.caps).toEqual({ ...noCaps, max_accounts: live });
    await page.context().close();

    const dealerPage = await ctx.signIn('dealer');
    const mine = dealerPage.getByTestId('my-caps');
    await mine.getByText(CAPS.yours).waitFor();
    await mine.locator('.ant-descriptions-item', { hasText: CAPS.maxAccounts }).getByText(CAPS.usage(live, live), { exact: true }).waitFor();
    // Only the caps set are listed.
    expect(await mine.getByText(CAPS.trialsPerDay).count()).toBe(0);

    await dealerPage.goto('/users');
    await dealerPage.locator('.ant-card-head-title', { hasText: ACCOUNT_SCREEN.title }).waitFor();
    await dealerPage.getByRole('button', { name: ACCOUNT_SCREEN.add }).click();
    const create = dealerPage.locator('.ant-modal', { hasText: ACCOUNT_SCREEN.createTitle });
    await create.waitFor();
    await create.getByLabel('Name', { exact: true }).fill('Over The Cap');
    await create.getByLabel('Username').fill('over.the.cap');
    await create.getByLabel('Password').fill('box-pass-1');
    await create.getByLabel('STB MAC address').fill('00:1A:79:00:0C:AF');
    await create.getByRole('button', { name: 'Create' }).click();
    await dealerPage.getByText(CAPS.accountsReached(dealer.username, live)).waitFor();
    // Refused: the dialog stays open and nothing was created.
    expect(await create.isVisible()).toBe(true);
    const dealerToken = await tokenOf('dealer');
    expect((await api('/accounts?filter[search]=over.the.cap', {}, dealerToken)).body.data).toEqual([]);
    expect((await api('/hierarchy/my-caps', {}, dealerToken)).body.data).toMatchObject({ caps: { max_accounts: live }, usage: { accounts: live } });
    await dealerPage.context().close();
  }, 180_000);

  it('refuses caps set from below or beside: the dealer on itself is 403, a reseller on another reseller’s dealer is 404', async () => {
    const admin = await tokenOf('admin');
    const { nodes } = (await api('/hierarchy/tree', {}, admin)).body.data as HierarchyTree;
    const dealer = nodes.find((n) => n.username === 'dealer')!;
    const otherDealer = nodes.find((n) => n.username === 'dealer2')!;
    const before = (await api(`/hierarchy/caps/${dealer.id}`, {}, admin)).body.data.caps;

    const dealerToken = await tokenOf('dealer');
    const own = await api(`/hierarchy/caps/${dealer.id}`, { method: 'PUT', body: JSON.stringify(noCaps) }, dealerToken);
    expect(own.status, JSON.stringify(own.body)).toBe(403);
    expect((await api(`/hierarchy/caps/${dealer.id}`, {}, dealerToken)).status).toBe(403);
    expect((await api(`/hierarchy/caps/${dealer.id}`, {}, admin)).body.data.caps).toEqual(before);

    const resellerToken = await tokenOf('reseller');
    const beside = await api(`/hierarchy/caps/${otherDealer.id}`, { method: 'PUT', body: JSON.stringify({ ...noCaps, max_accounts: 1 }) }, resellerToken);
    expect(beside.status, JSON.stringify(beside.body)).toBe(404);
    expect((await api(`/hierarchy/caps/${otherDealer.id}`, {}, resellerToken)).status).toBe(404);
    expect((await api(`/hierarchy/caps/${otherDealer.id}`, {}, admin)).body.data.caps).toEqual(noCaps);
    // Its own reseller may.
    const reseller2 = await tokenOf('reseller2');
    expect((await api(`/hierarchy/caps/${otherDealer.id}`, { method: 'PUT', body: JSON.stringify({ ...noCaps, max_accounts: 5 }) }, reseller2)).status).toBe(200);
  });
});
