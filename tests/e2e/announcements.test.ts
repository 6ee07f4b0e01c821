import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ANNOUNCEMENT_FORM, ANNOUNCEMENT_SECTIONS, STORAGE_KEYS } from '../../src/contract';
import { describeBrowser } from './harness';

/** Waits for a toast with this text and closes it, so the next one can be told apart. */
async function toast(page: Page, text: string) {
  const notice = page.locator('.ant-notification-notice', { hasText: text });
  await notice.waitFor();
  await notice.locator('.ant-notification-notice-close').click();
  await notice.waitFor({ state: 'detached' });
}

/** Picks an option of the antd select labelled `label` in the open dialog. */
async function pick(page: Page, label: string, option: string) {
  const dialog = page.getByRole('dialog');
  await dialog.locator('.ant-select', { has: page.getByLabel(label, { exact: true }) }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: new RegExp(`^${option}$`) }).click();
}

describeBrowser('announcements in the browser', (ctx) => {
  it('an admin posts an urgent announcement; a dealer sees it in the banner, dismisses it for good and reads it under Announcements', async () => {
    const title = `Outage tonight ${Date.now()}`;
    const admin = await ctx.signIn('admin');
    await admin.goto('/announcements');
    await admin.getByRole('button', { name: ANNOUNCEMENT_FORM.add }).click();
    const dialog = admin.getByRole('dialog');
    // Nothing typed: the contract's messages, nothing sent.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(ANNOUNCEMENT_FORM.titleRequired).waitFor();
    await dialog.getByText(ANNOUNCEMENT_FORM.contentRequired).waitFor();
    // Users can be chosen only once a role is.
    const targetUsers = dialog.locator('.ant-form-item', { hasText: 'Target users' });
    expect(await targetUsers.locator('.ant-select-disabled').count()).toBe(1);
    expect(await targetUsers.locator('.ant-form-item-extra, .ant-form-item-explain').innerText()).toBe(ANNOUNCEMENT_FORM.chooseRoleFirst);

    await dialog.getByLabel('Title').fill(title);
    const editor = dialog.getByRole('textbox', { name: 'Content' });
    await editor.click();
    await admin.keyboard.type('Streams stop at 02:00 for ');
    await dialog.getByRole('button', { name: 'Bold' }).click();
    await admin.keyboard.type('twenty minutes');
    await pick(admin, 'Priority', 'Urgent');
    await pick(admin, 'Target roles', 'Dealer');
    await admin.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(admin, ANNOUNCEMENT_FORM.created);
    const row = admin.getByTestId('announcement-row').filter({ hasText: title });
    await row.waitFor();
    expect(await row.innerText()).toContain('Streams stop at 02:00 for twenty minutes');
    expect(await row.innerText()).toContain('For dealer');

    const dealer = await ctx.signIn('dealer');
    const banner = dealer.getByTestId('announcement-banner');
    const item = banner.getByTestId('banner-announcement').filter({ hasText: title });
    await item.waitFor();
    expect(await banner.getByTestId('banner-announcement').count()).toBeLessThanOrEqual(3);
    // Urgent ones pulse.
    expect(await item.getAttribute('class')).toContain('announcement-urgent');

    // Notifications lists it as unread.
    await dealer.getByRole('button', { name: /Notifications/ }).click();
    await dealer.getByTestId('notifications').getByRole('link', { name: title }).waitFor();
    await dealer.keyboard.press('Escape');

    await item.getByRole('button', { name: `Dismiss ${title}` }).click();
    await item.waitFor({ state: 'detached' });
    const stored = JSON.parse((await dealer.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.dismissedAnnouncements)) ?? '[]');
    expect(stored).toHaveLength(1);
    // For good: still gone after a reload.
    await dealer.reload();
    await dealer.getByTestId('panel-name').waitFor();
    await dealer.getByRole('button', { name: /Notifications/ }).waitFor();
    await dealer.waitForLoadState('networkidle');
    expect(await dealer.getByTestId('banner-announcement').filter({ hasText: title }).count()).toBe(0);

    // Read under Announcements: in the Urgent section, new until opened.
    await dealer.getByRole('menuitem', { name: 'Announcements' }).click();
    await dealer.waitForURL('**/user-announcements');
    const urgent = dealer.getByTestId('section-urgent');
    await urgent.getByRole('heading', { name: ANNOUNCEMENT_SECTIONS.urgent }).waitFor();
    const entry = urgent.getByTestId('user-announcement').filter({ hasText: title });
    await entry.getByTestId('new-badge').waitFor();
    const unreadBefore = Number(await dealer.getByTestId('unread-count').innerText());
    await entry.click();
    const reader = dealer.getByTestId('announcement-reader');
    await reader.locator('strong', { hasText: 'twenty minutes' }).waitFor();
    await dealer.keyboard.press('Escape');
    await entry.getByTestId('new-badge').waitFor({ state: 'detached' });
    await expect
      .poll(async () =>
        Number(
          (await dealer
            .getByTestId('unread-count')
            .innerText()
            .catch(() => '0')) || 0,
        ),
      )
      .toBe(unreadBefore - 1);

    await admin.context().close();
    await dealer.context().close();
  });
});
