/**
 * Notifications and API tokens in the browser. Credits the admin adds to a reseller reach its
 * Notifications button and page, unread; Mark read and Mark all read change the list and the button's
 * count; the reseller's channels chosen in the profile are kept, and a bad webhook URL is named under
 * its field. The admin sets the panel's public address (the digests' links) with the SMTP server.
 * An API token created on the profile is shown once, listed by its prefix, reads the API,
 * is refused a change its scope does not cover, and stops working when revoked.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ANNOUNCEMENT_FORM, API_TOKENS, NOTIFICATIONS, NOTIFICATIONS_LINK, type HierarchyTree } from '../../src/contract';
import { describeBrowser, waitForToast } from './harness';

describeBrowser('notifications and API tokens in the browser', (ctx) => {
  const api = async (path: string, init: RequestInit = {}, token?: string) => {
    const res = await fetch(`${ctx.product.baseUrl}/api/v1${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  // The demo users take any password.
  const tokenOf = async (username: string) => (await api('/login', { method: 'POST', body: JSON.stringify({ username, password: 'x' }) })).body.token as string;
  const pageToken = (page: Page) => page.evaluate(() => localStorage.getItem('token')) as Promise<string>;

  it("tells a reseller of the credits it received: the button's count, the page, Mark read and Mark all read", async () => {
    const admin = await tokenOf('admin');
    const { nodes } = (await api('/hierarchy/tree', {}, admin)).body.data as HierarchyTree;
    const reseller = nodes.find((n) => n.username === 'reseller')!;
    for (const credits of [7, 5]) {
      const moved = await api(`/resellers/${reseller.id}/credits`, { method: 'POST', body: JSON.stringify({ action: 'renew', credits }) }, admin);
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }

    const page = await ctx.signIn('reseller');
    const token = await pageToken(page);
    // The button counts unread notifications, announcements and ticket replies together.
    const others = async () =>
      (await api('/user/announcements?per_page=100', {}, token)).body.unread_count + (await api('/tickets?unread=true&per_page=20', {}, token)).body.data.total;
    const unread = async () => (await api('/notifications/unread-count', {}, token)).body.unread_count as number;
    const before = await unread();
    expect(before).toBeGreaterThanOrEqual(2);
    const button = page.getByRole('button', { name: new RegExp(`^${ANNOUNCEMENT_FORM.notifications} \\(\\d+\\)$`) });
    const buttonCount = async () => Number(/\((\d+)\)/.exec((await button.getAttribute('aria-label')) ?? '')?.[1]);
    const otherCount = await others();
    await expect.poll(buttonCount).toBe(otherCount + before);

    await button.click();
    const link = page.getByTestId('notifications-page-link');
    await expect.poll(() => link.innerText()).toBe(`${NOTIFICATIONS_LINK.openPage} (${before} ${NOTIFICATIONS_LINK.unread.toLowerCase()})`);
    await link.click();
    await page.waitForURL(/\/notifications$/);

    const received = page.getByTestId('notification').filter({ hasText: NOTIFICATIONS.types.credits_received });
    const unreadItems = page.locator('[data-testid="notification"][data-unread="true"]');
    const seven = received.filter({ hasText: NOTIFICATIONS.creditsReceived(7, 'admin') });
    const five = received.filter({ hasText: NOTIFICATIONS.creditsReceived(5, 'admin') });
    await seven.waitFor();
    await five.waitFor();
    expect(await seven.getAttribute('data-unread')).toBe('true');
    expect(await five.getAttribute('data-unread')).toBe('true');
    await expect.poll(() => unreadItems.count()).toBe(before);

    // Mark read on one: it stays listed, no longer unread; the other is untouched.
    await seven.getByRole('button', { name: `${NOTIFICATIONS.markRead}: ${NOTIFICATIONS.types.credits_received}` }).click();
    await expect.poll(() => seven.getAttribute('data-unread')).toBe('false');
    expect(await seven.getByRole('button', { name: NOTIFICATIONS.markRead }).count()).toBe(0);
    expect(await five.getAttribute('data-unread')).toBe('true');
    await expect.poll(() => unreadItems.count()).toBe(before - 1);
    expect(await unread()).toBe(before - 1);

    // Back on the dashboard the button counts one less.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(buttonCount).toBe(otherCount + before - 1);

    await page.goForward();
    await page.waitForURL(/\/notifications$/);
    await page.getByRole('button', { name: NOTIFICATIONS.markAllRead }).click();
    await waitForToast(page, NOTIFICATIONS.allMarkedRead);
    await expect.poll(() => unreadItems.count()).toBe(0);
    expect(await five.getAttribute('data-unread')).toBe('false');
    expect(await page.getByRole('button', { name: NOTIFICATIONS.markAllRead }).isDisabled()).toBe(true);
    expect(await unread()).toBe(0);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(buttonCount).toBe(otherCount);
    await button.click();
    await expect.poll(() => link.innerText()).toBe(`${NOTIFICATIONS_LINK.openPage} (0 ${NOTIFICATIONS_LINK.unread.toLowerCase()})`);
    await page.context().close();
  }, 180_000);

  it('keeps the channels a reseller chooses in its profile, and names a bad webhook URL under its field', async () => {
    const page = await ctx.signIn('reseller');
    await page.goto('/profile');
    const card = page.locator('.ant-card', { has: page.locator('.ant-card-head-title', { hasText: NOTIFICATIONS.settingsTitle }) });
    await card.locator('form').waitFor();
    const channel = (name: keyof typeof NOTIFICATIONS.channels) => card.locator('.ant-form-item', { has: page.getByText(NOTIFICATIONS.channels[name], { exact: true }) });
    const box = (name: keyof typeof NOTIFICATIONS.channels, type: keyof typeof NOTIFICATIONS.types) =>
      channel(name).getByRole('checkbox', { name: NOTIFICATIONS.types[type], exact: true });

    // The boxes show the form's values, which a click changes a render later: each click is awaited by its result.
    const untick = async (name: keyof typeof NOTIFICATIONS.channels, type: keyof typeof NOTIFICATIONS.types) => {
      await box(name, type).click();
      await expect.poll(() => box(name, type).isChecked()).toBe(false);
    };

    // All types on every channel by default; e-mail loses low balance, the webhook keeps only credits.
    await expect.poll(() => box('email', 'low_balance').isChecked()).toBe(true);
    await untick('email', 'low_balance');
    for (const type of ['account_expiring', 'account_expired', 'low_balance', 'ticket_reply', 'announcement'] as const) await untick('webhook', type);
    expect(await box('webhook', 'credits_received').isChecked()).toBe(true);
    await card.getByRole('button', { name: 'Save' }).click();
    await waitForToast(page, NOTIFICATIONS.settingsSaved);

    await page.reload();
    await card.locator('form').waitFor();
    await expect.poll(() => box('webhook', 'credits_received').isChecked()).toBe(true);
    expect(await box('email', 'low_balance').isChecked()).toBe(false);
    expect(await box('email', 'credits_received').isChecked()).toBe(true);
    expect(await box('webhook', 'ticket_reply').isChecked()).toBe(false);
    expect(await box('panel', 'low_balance').isChecked()).toBe(true);
    const saved = (await api('/profile/notifications', {}, await pageToken(page))).body.data;
    expect(saved.channels.webhook).toEqual(['credits_received']);
    expect(saved.channels.email).not.toContain('low_balance');

    const url = card.getByLabel(NOTIFICATIONS.webhookUrlLabel);
    await url.fill('ftp://hooks.example.test/x');
    await card.getByLabel(NOTIFICATIONS.webhookSecretLabel).fill('a-long-enough-secret-1');
    await card.getByRole('button', { name: 'Save' }).click();
    const item = card.locator('.ant-form-item', { has: page.getByLabel(NOTIFICATIONS.webhookUrlLabel) });
    await item.getByText(NOTIFICATIONS.webhookUrlInvalid).waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect((await api('/profile/notifications', {}, await pageToken(page))).body.data.webhook_url).toBeNull();
    await page.context().close();
  }, 180_000);

  it("sets the panel's public address with the SMTP server: a bad one is named under its field, a good one is kept", async () => {
    const page = await ctx.signIn('admin');
    await page.goto('/settings');
    const card = page.locator('.ant-card', { has: page.locator('.ant-card-head-title', { hasText: NOTIFICATIONS.smtpTitle }) });
    await card.locator('form').waitFor();
    await card.getByText(NOTIFICATIONS.panelUrlHint).waitFor();
    await card.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await card.getByLabel('From address').fill('panel@example.test');
    const address = card.getByLabel(NOTIFICATIONS.panelUrlLabel);
    await address.fill('https://panel.example.test/?from=mail');
    await card.getByRole('button', { name: 'Save' }).click();
    await card
      .locator('.ant-form-item', { has: page.getByLabel(NOTIFICATIONS.panelUrlLabel) })
      .getByText(NOTIFICATIONS.panelUrlInvalid)
      .waitFor();
    const token = await pageToken(page);
    expect((await api('/smtp-settings', {}, token)).body.data).toBeNull();

    await address.fill('https://panel.example.test/panel');
    await card.getByRole('button', { name: 'Save' }).click();
    await waitForToast(page, NOTIFICATIONS.smtpSaved);
    expect((await api('/smtp-settings', {}, token)).body.data).toMatchObject({ host: '127.0.0.1', panel_url: 'https://panel.example.test/panel' });
    await page.reload();
    await card.locator('form').waitFor();
    await expect.poll(() => address.inputValue()).toBe('https://panel.example.test/panel');
    await page.context().close();
  }, 180_000);

  it('creates an API token shown once, listed by its prefix, that reads but cannot change accounts, and is refused once revoked', async () => {
    // From none, also when a failed attempt left one.
    const dealer = await tokenOf('dealer');
    for (const left of (await api('/api-tokens', {}, dealer)).body.data) await api(`/api-tokens/${left.id}`, { method: 'DELETE' }, dealer);
    const page = await ctx.signIn('dealer');
    await page.goto('/profile');
    const card = page.locator('.ant-card', { has: page.locator('.ant-card-head-title', { hasText: API_TOKENS.title }) });
    await card.getByText(API_TOKENS.empty).waitFor();
    await card.getByRole('button', { name: API_TOKENS.create }).click();
    const dialog = page.locator('.ant-modal', { hasText: API_TOKENS.createTitle });
    await dialog.getByLabel(API_TOKENS.nameLabel).fill('Reporting script');
    // Read is the one scope ticked, and cannot be unticked.
    expect(await dialog.getByRole('checkbox', { name: new RegExp(`^${API_TOKENS.scopeLabels.read}`) }).isChecked()).toBe(true);
    expect(await dialog.getByRole('checkbox', { name: new RegExp(`^${API_TOKENS.scopeLabels.read}`) }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('checkbox', { name: new RegExp(`^${API_TOKENS.scopeLabels.accounts}`) }).isChecked()).toBe(false);
    await dialog.getByRole('button', { name: API_TOKENS.create }).click();

    const shown = page.locator('.ant-modal', { hasText: API_TOKENS.created });
    await shown.getByText(API_TOKENS.shownOnce).waitFor();
    const secret = (await shown.getByTestId('api-token-value').innerText()).trim();
    expect(secret).toMatch(/^cpt_/);
    await shown.getByRole('button', { name: API_TOKENS.done }).click();
    await shown.waitFor({ state: 'hidden' });
    // Gone from the page once closed: the list shows only its prefix.
    expect(await page.getByText(secret).count()).toBe(0);
    const row = card.getByRole('row').filter({ hasText: 'Reporting script' });
    await row.waitFor();
    const prefix = (await row.locator('code').first().innerText()).trim();
    expect(secret.startsWith(`${prefix}_`)).toBe(true);
    expect(prefix.length).toBeLessThan(secret.length);
    expect(await row.innerText()).toContain(API_TOKENS.scopeLabels.read);

    const read = await api('/accounts?per_page=5', {}, secret);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.data.length).toBeGreaterThan(0);
    const write = await api(
      '/accounts',
      { method: 'POST', body: JSON.stringify({ login: 'token.box', full_name: 'Token Box', password: 'box-pass-1', mac_address: '00:1A:79:00:00:99' }) },
      secret,
    );
    expect(write.status, JSON.stringify(write.body)).toBe(403);
    expect(write.body.message).toBe(API_TOKENS.scopeMissing('accounts'));
    expect((await api('/accounts?filter[search]=token.box', {}, secret)).body.data).toEqual([]);

    await row.getByRole('button', { name: `${API_TOKENS.revoke} Reporting script` }).click();
    await page.getByRole('dialog').getByRole('button', { name: API_TOKENS.revoke }).click();
    await waitForToast(page, API_TOKENS.revoked);
    await card.getByText(API_TOKENS.empty).waitFor();
    expect((await api('/accounts?per_page=5', {}, secret)).status).toBe(401);
    await page.context().close();
  }, 180_000);
});
