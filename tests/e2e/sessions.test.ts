/**
 * Sessions and view-as in the browser: the profile lists where the user is signed in (the current
 * session marked) and its sign-in history, and ends the other sessions after a confirmation; a parent
 * views the panel as a dealer from the dealers list, under a banner naming both, and ends it.
 */
import { expect, it } from 'vitest';
import { DATA_TABLE, SESSIONS, VIEW_AS } from '../../src/contract';
import { describeBrowser, waitForToast } from './harness';

describeBrowser('sessions and view-as in the browser', (ctx) => {
  const api = async (path: string, init: RequestInit = {}, token?: string) => {
    const res = await fetch(`${ctx.product.baseUrl}/api/v1${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', 'user-agent': 'curl/8.5.0', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };

  it('lists the sessions and the sign-in history in the profile and ends the others', async () => {
    // A dealer of its own: the demo users take any password, so none of their sign-ins fails.
    const { token } = (await api('/login', { method: 'POST', body: JSON.stringify({ username: 'reseller', password: 'x' }) })).body;
    const created = await api(
      '/dealers',
      { method: 'POST', body: JSON.stringify({ name: 'Session Dealer', username: 'session_dealer', password: 'password123' }) },
      token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const page = await ctx.signIn('session_dealer', 'password123');
    // Another device: signed in through the API, with a failure before it.
    await api('/login', { method: 'POST', body: JSON.stringify({ username: 'session_dealer', password: 'wrong-password' }) });
    const other = await api('/login', { method: 'POST', body: JSON.stringify({ username: 'session_dealer', password: 'password123' }) });
    expect(other.status).toBe(200);

    await page.goto('/profile');
    const sessions = page.getByTestId('sessions-table');
    await expect.poll(() => sessions.locator('tbody tr.ant-table-row').count()).toBe(2);
    await sessions.getByText(SESSIONS.current).waitFor();
    await sessions.getByText('curl 8').waitFor();
    const history = page.getByTestId('sign-in-history');
    await history.getByText(SESSIONS.failure).first().waitFor();
    await history.getByText('Wrong password').waitFor();
    expect(await history.getByText(SESSIONS.success).count()).toBeGreaterThanOrEqual(2);

    await page.getByRole('button', { name: SESSIONS.endOthers }).click();
    await page.getByRole('dialog').getByRole('button', { name: SESSIONS.endOthers }).click();
    await waitForToast(page, SESSIONS.endedOthers(1));
    await expect.poll(() => sessions.locator('tbody tr.ant-table-row').count()).toBe(1);
    expect((await api('/user', {}, other.body.token)).status).toBe(401);
    await page.context().close();
  }, 180_000);

  it('views the panel as a dealer from the dealers list, under a banner naming both, and ends it', async () => {
    const page = await ctx.signIn('reseller', 'password123');
    const { token } = (await api('/login', { method: 'POST', body: JSON.stringify({ username: 'reseller', password: 'password123' }) })).body;
    const dealer = (await api('/dealers?per_page=1', {}, token)).body.data[0];
    await page.goto('/dealers');
    await page.getByRole('button', { name: DATA_TABLE.rowActions(dealer.name) }).click();
    await page.getByRole('menuitem', { name: VIEW_AS.action }).click();
    await page.getByRole('dialog').getByRole('button', { name: VIEW_AS.action }).click();

    const banner = page.getByTestId('view-as-banner');
    await banner.getByText(VIEW_AS.banner(dealer.username, 'reseller')).waitFor();
    await banner.getByText(VIEW_AS.readOnlyTag).waitFor();
    await expect.poll(() => page.getByTestId('panel-name').innerText()).toBe('DEALER PANEL');
    // The banner stays on every screen.
    await page.goto('/accounts');
    await banner.waitFor();

    await banner.getByRole('button', { name: VIEW_AS.end }).click();
    await expect.poll(() => page.getByTestId('panel-name').innerText()).toBe('RESELLER PANEL');
    expect(await page.getByTestId('view-as-banner').count()).toBe(0);
    await page.context().close();
  }, 180_000);
});
