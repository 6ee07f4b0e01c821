import { expect, it } from 'vitest';
import { ACCESS, PANEL_NAMES, RESELLERS, type Role } from '../../src/contract';
import { menuLabels } from './menus';
import { describeBrowser } from './harness';

describeBrowser('foundation in the browser', (ctx) => {
  for (const role of ['admin', 'manager', 'reseller', 'dealer'] as Role[]) {
    it(`${role} signs in, sees exactly its menu, is refused a forbidden route, and signs out`, async () => {
      const page = await ctx.signIn(role);
      await expect(page.getByTestId('panel-name').textContent()).resolves.toBe(PANEL_NAMES[role]);
      // The menu is drawn once the access checks of its entries have answered, which may be just after the header.
      const menu = page.getByRole('menu', { name: 'Main menu' }).locator('[role=menuitem], .ant-menu-submenu-title');
      await expect.poll(async () => (await menu.allInnerTexts()).map((l) => l.trim()).filter(Boolean)).toEqual(menuLabels(role));

      // Ticket categories are admin-only: the others land on /unauthorized.
      await page.goto('/ticket-categories');
      if (role === 'admin') await page.locator('.ant-card-head-title', { hasText: 'Ticket Categories' }).waitFor();
      else {
        await page.waitForURL('**/unauthorized');
        await page.getByText(ACCESS.denied).waitFor();
        await page.getByText(ACCESS.deniedBody).waitFor();
      }

      await page.goto('/no-such-page');
      await page.getByText(ACCESS.notFound).waitFor();
      await page.getByRole('link', { name: ACCESS.returnToDashboard }).waitFor();

      await page.goto('/');
      await page.getByTestId('user-menu').click();
      await page.getByText('Logout').click();
      await page.waitForURL('**/login');
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await page.context().close();
    });
  }

  it('a dialog zooms in, unless the device asks for reduced motion: then it appears at once', async () => {
    const page = await ctx.signIn('manager');
    await page.goto('/resellers');
    const add = page.getByRole('button', { name: RESELLERS.add });
    await add.waitFor();
    // Notes whether a dialog's zoom ever runs (its active step; a prepare step, which places the zoom's
    // origin, comes with or without motion).
    await page.evaluate(() => {
      const w = window as unknown as { zoomSeen: boolean };
      w.zoomSeen = false;
      new MutationObserver(() => {
        if (document.querySelector('.ant-zoom-appear-active, .ant-zoom-enter-active')) w.zoomSeen = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    const zoomedWhileOpening = async () => {
      await page.evaluate(() => ((window as unknown as { zoomSeen: boolean }).zoomSeen = false));
      await add.click();
      const dialog = page.locator('.ant-modal', { hasText: 'Initial credits' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      return page.evaluate(() => (window as unknown as { zoomSeen: boolean }).zoomSeen);
    };
    // The harness's pages ask for reduced motion.
    expect(await zoomedWhileOpening()).toBe(false);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await zoomedWhileOpening()).toBe(true);
    await page.context().close();
  }, 120_000);
});
