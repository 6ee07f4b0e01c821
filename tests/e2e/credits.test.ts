import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DIALOGS, HIERARCHY } from '../../src/contract';
import { describeBrowser, waitForToast } from './harness';

async function headerCredits(page: Page): Promise<number> {
  const text = await page.getByTestId('header-credits').innerText();
  return Number(text.replace(/[^0-9]/g, ''));
}

/** The figure the header shows once the session is loaded. */
async function settledCredits(page: Page): Promise<number> {
  await page.getByTestId('header-credits').waitFor();
  return headerCredits(page);
}

/**
 * Opens Add Credits on the row of `username` in the list at `path`, picks the option of `amount`
 * and submits with a double click. Returns the bonus the chosen option announced.
 */
async function addCredits(page: Page, path: string, username: string, amount: number): Promise<number> {
  await page.goto(path);
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: username, exact: true }) });
  await row.waitFor();
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name: DIALOGS.addCredits }).click();
  const dialog = page.locator('.ant-modal', { hasText: 'Recipient' });
  await dialog.waitFor();

  // Nothing chosen: 'Please select a valid amount'.
  await dialog.getByRole('button', { name: DIALOGS.addCredits }).click();
  await dialog.getByText('Please select a valid amount').waitFor();

  // Typing filters the (virtual) option list down to the amount.
  await dialog.getByRole('combobox', { name: 'Amount' }).fill(String(amount));
  const option = page.locator('.ant-select-item-option').filter({ hasText: new RegExp(`^${amount} credits( \\+ \\d+ bonus)?$`) });
  await option.first().waitFor();
  const label = await option.first().innerText();
  await option.first().click();
  const bonus = Number(/\+ (\d+) bonus/.exec(label)?.[1] ?? 0);

  // A double click sends at most one move (one Idempotency-Key per opening, a busy guard).
  await dialog.getByRole('button', { name: DIALOGS.addCredits }).dblclick();
  await waitForToast(page, HIERARCHY.creditsAdded);
  await dialog.waitFor({ state: 'hidden' });
  return bonus;
}

/** The newest row of the caller's /transactions whose remarks match, as text. */
async function newestTransaction(page: Page, remarks: string): Promise<string> {
  await page.goto('/transactions');
  await page.getByRole('textbox', { name: 'Search' }).fill(remarks);
  const row = page.getByRole('row').filter({ hasText: remarks }).first();
  await row.waitFor();
  return row.innerText();
}

describeBrowser('credits down the hierarchy in the browser', (ctx) => {
  it('admin adds to a manager, the manager to a reseller, the reseller to a dealer; headers and transactions follow', async () => {
    // Balances before, as each user's header shows them.
    const start: Record<string, number> = {};
    for (const username of ['manager', 'reseller', 'dealer']) {
      const page = await ctx.signIn(username);
      start[username] = await settledCredits(page);
      await page.context().close();
    }

    // Admin -> manager: minted; the credit levels may add a bonus.
    const admin = await ctx.signIn('admin');
    const adminBonus = await addCredits(admin, '/managers', 'manager', 20);
    const adminView = await newestTransaction(admin, 'Credits from admin');
    expect(adminView).toContain('+20');
    expect(adminView).toContain('Maria Manager');
    await admin.context().close();

    // The manager sees the new balance, and the allocation in its transactions.
    const manager = await ctx.signIn('manager');
    const managerAfterMint = start.manager + 20 + adminBonus;
    await expect.poll(() => headerCredits(manager)).toBe(managerAfterMint);
    expect(await newestTransaction(manager, 'Credits from admin')).toContain('+20');

    // Manager -> reseller: moved from the manager's balance; the header updates without a reload.
    const resellerBonus = await addCredits(manager, '/resellers', 'reseller', 25);
    await expect.poll(() => headerCredits(manager)).toBe(managerAfterMint - 25);
    expect(await newestTransaction(manager, 'Credits added to reseller')).toContain('-25');
    await manager.context().close();

    const reseller = await ctx.signIn('reseller');
    const resellerAfter = start.reseller + 25 + resellerBonus;
    await expect.poll(() => headerCredits(reseller)).toBe(resellerAfter);
    expect(await newestTransaction(reseller, 'Credits from manager')).toContain('+25');

    // Reseller -> dealer.
    const dealerBonus = await addCredits(reseller, '/dealers', 'dealer', 10);
    await expect.poll(() => headerCredits(reseller)).toBe(resellerAfter - 10);
    expect(await newestTransaction(reseller, 'Credits added to dealer')).toContain('-10');
    await reseller.context().close();

    const dealer = await ctx.signIn('dealer');
    await expect.poll(() => headerCredits(dealer)).toBe(start.dealer + 10 + dealerBonus);
    expect(await newestTransaction(dealer, 'Credits from reseller')).toContain('+10');
    await dealer.context().close();
  }, 180_000);

  it('a reseller is offered the configured amounts apart from shares of its balance, and may type one within the rules', async () => {
    const reseller = await ctx.signIn('reseller');
    await reseller.goto('/dealers');
    const row = reseller.getByRole('row').filter({ has: reseller.getByRole('cell', { name: 'dealer', exact: true }) });
    await row.waitFor();
    await row.getByRole('button', { name: /^Actions for / }).click();
    await reseller.getByRole('menuitem', { name: DIALOGS.addCredits }).click();
    const dialog = reseller.locator('.ant-modal', { hasText: 'Recipient' });
    await dialog.waitFor();
    const amount = dialog.getByRole('combobox', { name: 'Amount' });
    await amount.click();
    // The configured amounts under one heading, the shares of the balance, named, under another.
    await reseller.locator('.ant-select-item-group', { hasText: 'From the balance' }).waitFor();
    expect(await reseller.locator('.ant-select-item-group', { hasText: 'Amounts' }).count()).toBe(1);
    // The list is virtual: the search brings the last share into view.
    await amount.fill('All your');
    await reseller.locator('.ant-select-item-option', { hasText: '(All your credits)' }).first().waitFor();
    // A typed amount that is no preset: offered as typed.
    await amount.fill('13');
    await reseller
      .locator('.ant-select-item-option')
      .filter({ hasText: /^13 credits$/ })
      .waitFor();
    await reseller.context().close();
  }, 60_000);

  it('a reseller recovers credits from its dealer; more than the dealer holds is refused in the dialog', async () => {
    const openRecover = async (page: Page) => {
      await page.goto('/dealers');
      const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'dealer', exact: true }) });
      await row.waitFor();
      await row.getByRole('button', { name: /^Actions for / }).click();
      await page.getByRole('menuitem', { name: DIALOGS.recoverCredits }).click();
      const dialog = page.locator('.ant-modal', { hasText: 'Available paid credits' });
      await dialog.waitFor();
      return dialog;
    };

    // Admin may type any amount, but not more than the dealer's paid credits.
    const admin = await ctx.signIn('admin');
    const adminDialog = await openRecover(admin);
    const available = Number((await adminDialog.locator('.ant-descriptions-item', { hasText: 'Available paid credits' }).innerText()).replace(/[^0-9]/g, ''));
    expect(available).toBeGreaterThan(10);
    await adminDialog.getByRole('combobox', { name: 'Amount' }).fill(String(available + 1));
    await admin
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${available + 1} credits$`) })
      .click();
    await adminDialog.getByRole('button', { name: DIALOGS.recoverCredits }).click();
    await adminDialog.getByText(`Cannot recover more than available credits (${available})`).waitFor();
    await admin.context().close();

    const reseller = await ctx.signIn('reseller');
    const before = await settledCredits(reseller);
    const dialog = await openRecover(reseller);
    await dialog.getByRole('combobox', { name: 'Amount' }).fill('10');
    await reseller
      .locator('.ant-select-item-option')
      .filter({ hasText: /^10 credits$/ })
      .first()
      .click();
    await dialog.getByRole('button', { name: DIALOGS.recoverCredits }).click();
    await waitForToast(reseller, HIERARCHY.creditsRecovered);
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => headerCredits(reseller)).toBe(before + 10);
    expect(await newestTransaction(reseller, 'Credits recovered from dealer')).toContain('+10');
    await reseller.context().close();
  }, 120_000);
});
