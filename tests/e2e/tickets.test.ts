import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { TICKETS } from '../../src/contract';
import { describeBrowser } from './harness';

/** Waits for a toast with this text and closes it, so the next one can be told apart. */
async function toast(page: Page, text: string) {
  const notice = page.locator('.ant-notification-notice', { hasText: text });
  await notice.waitFor();
  await notice.locator('.ant-notification-notice-close').click();
  await notice.waitFor({ state: 'detached' });
}

describeBrowser('tickets in the browser', (ctx) => {
  it('a dealer opens a ticket, the admin sees it unread and answers it, the dealer reads the answer', async () => {
    const subject = `Box frozen ${Date.now()}`;
    const dealer = await ctx.signIn('dealer');
    await dealer.getByRole('menuitem', { name: 'Tickets' }).click();
    await dealer.waitForURL('**/tickets');
    await dealer.getByRole('button', { name: TICKETS.add }).click();
    const dialog = dealer.getByRole('dialog');
    // The contract's rules before anything is sent.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(TICKETS.subjectRequired).waitFor();
    await dialog.getByText(TICKETS.categoryRequired).waitFor();
    await dialog.getByLabel('Subject').fill(subject);
    await dialog.getByLabel('Category').click();
    await dealer.locator('.ant-select-item-option', { hasText: 'Technical Support' }).click();
    await dialog.getByLabel('Message').fill('The picture freezes every evening.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(dealer, TICKETS.created);
    const dealerRow = dealer.getByRole('row', { name: new RegExp(subject) });
    await dealerRow.waitFor();
    expect(await dealerRow.innerText()).toContain('Technical Support');

    const admin = await ctx.signIn('admin');
    await admin.goto('/tickets');
    const adminRow = admin.getByRole('row', { name: new RegExp(subject) });
    await adminRow.waitFor();
    // New for the staff side.
    await adminRow.getByLabel(TICKETS.unread).waitFor();
    await adminRow.getByRole('button', { name: subject, exact: true }).click();
    const thread = admin.getByTestId('ticket-thread');
    await thread.getByText('The picture freezes every evening.').waitFor();
    await thread.getByLabel(TICKETS.reply).fill('Please update the firmware and restart.');
    await thread.getByRole('button', { name: 'Send Reply' }).click();
    await toast(admin, TICKETS.replied);
    await thread.getByTestId('ticket-reply').filter({ hasText: 'Please update the firmware' }).waitFor();
    await admin.keyboard.press('Escape');
    // Opened and answered: no longer unread for admin.
    await admin
      .getByRole('row', { name: new RegExp(subject) })
      .getByLabel(TICKETS.unread)
      .waitFor({ state: 'detached' });

    await dealer.reload();
    const answered = dealer.getByRole('row', { name: new RegExp(subject) });
    await answered.getByLabel(TICKETS.unread).waitFor();
    await answered.getByRole('button', { name: subject, exact: true }).click();
    const dealerThread = dealer.getByTestId('ticket-thread');
    await dealerThread.getByText('Please update the firmware and restart.').waitFor();
    await dealerThread.getByRole('button', { name: TICKETS.close }).click();
    await toast(dealer, TICKETS.closed);
    await dealerThread.getByRole('button', { name: TICKETS.reopen }).waitFor();

    await admin.context().close();
    await dealer.context().close();
  });
});
