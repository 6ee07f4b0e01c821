import { expect, it } from 'vitest';
import { ACCESS, PANEL_NAMES, type Role } from '../../src/contract';
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
});
