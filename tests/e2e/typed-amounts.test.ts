/**
 * In Chromium: the amount that moves is the amount typed, or nothing. In every
 * amount field (Add Credits, Recover Credits, the initial credits of a new reseller and of a new
 * manager) 0, 5, 7, 9 and more than the balance are typed and entered as a user does; the requests
 * the API received and the balances after say what moved. The old picker replaced a typed amount that
 * was no option by the first option whose text contained it (5 became 25, 0 became 10).
 */
import type { Locator, Page, Response } from 'playwright-core';
import { expect, it } from 'vitest';
import { CREDITS, DIALOGS, ENTITY_FORM, HIERARCHY } from '../../src/contract';
import { describeBrowser } from './harness';

/** The credit-moving writes the page sent: the user creates and the credit moves, with their bodies. */
function recordWrites(page: Page) {
  const writes: Array<{ path: string; body: Record<string, unknown> }> = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && /^\/api\/v1\/(managers|resellers|dealers)(\/\d+\/credits)?$/.test(path)) {
      writes.push({ path, body: request.postDataJSON() as Record<string, unknown> });
    }
  });
  return writes;
}

const digits = (text: string) => Number(text.replace(/[^0-9]/g, ''));

async function headerCredits(page: Page): Promise<number> {
  await page.getByTestId('header-credits').waitFor();
  return digits(await page.getByTestId('header-credits').innerText());
}

/** A figure of the dialog's summary ('Current balance', 'Available paid credits'). */
async function figure(dialog: Locator, label: string): Promise<number> {
  return digits(await dialog.locator('.ant-descriptions-item', { hasText: label }).locator('.ant-descriptions-item-content').innerText());
}

/** Types `text` into the dialog's amount picker and presses Enter once the list shows what it made of it. */
async function typeAmount(page: Page, dialog: Locator, text: string) {
  const box = dialog.getByRole('combobox', { name: 'Amount' });
  // The chosen amount covers the search input: typing goes to it once it has the focus.
  await box.focus();
  await box.fill(text);
  const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await open.locator('.ant-select-item-option-active, .ant-select-item-empty').first().waitFor();
  await box.press('Enter');
}

/** The amount the picker shows as chosen ('' when none). */
async function shownAmount(dialog: Locator): Promise<string> {
  const item = dialog.locator('.ant-select', { has: dialog.page().getByRole('combobox', { name: 'Amount' }) }).locator('.ant-select-selection-item');
  return (await item.count()) > 0 ? item.first().innerText() : '';
}

/** Refused: the rule's message under the field, and nothing sent. */
async function expectRefused(page: Page, dialog: Locator, writes: unknown[], message: string) {
  const before = writes.length;
  await dialog.locator('.ant-form-item-explain-error', { hasText: message }).waitFor();
  await page.waitForTimeout(300);
  expect(writes.length).toBe(before);
}

/** Clicks `button` and waits for the API's answer to the write it sends. */
async function sendAndAnswer(page: Page, button: Locator, path: RegExp): Promise<Record<string, any>> {
  const [response] = await Promise.all([page.waitForResponse((r: Response) => r.request().method() === 'POST' && path.test(new URL(r.url()).pathname)), button.click()]);
  expect(response.status()).toBeLessThan(300);
  return ((await response.json()) as { data: Record<string, any> }).data;
}

async function openRowDialog(page: Page, path: string, username: string, action: string, marker: string): Promise<Locator> {
  await page.goto(path);
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: username, exact: true }) });
  await row.waitFor();
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name: action }).click();
  const dialog = page.locator('.ant-modal', { hasText: marker });
  await dialog.waitFor();
  // The amounts' lookup answered: the dialog's button is enabled.
  await expect.poll(() => dialog.getByRole('button', { name: action }).isEnabled()).toBe(true);
  return dialog;
}

describeBrowser(
  'the amount typed is the amount moved, or nothing',
  (ctx) => {
    it('Add Credits, manager to reseller: 0, 5, 7, 9 and more than the balance are refused with their rule; 13 moves 13', async () => {
      const page = await ctx.signIn('manager');
      const writes = recordWrites(page);
      const balance = await headerCredits(page);
      const dialog = await openRowDialog(page, '/resellers', 'reseller', DIALOGS.addCredits, 'Recipient');
      const add = dialog.getByRole('button', { name: DIALOGS.addCredits });

      for (const typed of ['0', '5', '7', '9']) {
        await typeAmount(page, dialog, typed);
        await expect.poll(() => shownAmount(dialog)).toBe(`${typed} credits`);
        await add.click();
        await expectRefused(page, dialog, writes, HIERARCHY.minimumCreditLimit(10));
      }
      await typeAmount(page, dialog, String(balance + 1));
      await add.click();
      await expectRefused(page, dialog, writes, CREDITS.insufficientCredits(balance + 1, balance));
      expect(await headerCredits(page)).toBe(balance);

      const targetBefore = await figure(dialog, 'Current balance');
      await typeAmount(page, dialog, '13');
      const moved = await sendAndAnswer(page, add, /^\/api\/v1\/resellers\/\d+\/credits$/);
      // The typed amount, and the bonus the panel priced for it (0 here), which the API checks against its own.
      expect(writes.map((w) => w.body)).toEqual([{ action: 'renew', credits: 13, bonus_credits: 0 }]);
      expect(moved.credits).toBe(13);
      expect(moved.user.credits).toBe(targetBefore + 13 + moved.bonus_credits);
      await expect.poll(() => headerCredits(page)).toBe(balance - 13);
      await page.context().close();
    }, 120_000);

    it('Recover Credits, manager from reseller: 5, 7 and 9 are recovered as typed; 0 and more than the paid credits are refused', async () => {
      const page = await ctx.signIn('manager');
      const writes = recordWrites(page);
      const balance = await headerCredits(page);

      let dialog = await openRowDialog(page, '/resellers', 'reseller', DIALOGS.recoverCredits, 'Available paid credits');
      const available = await figure(dialog, 'Available paid credits');
      expect(available).toBeGreaterThan(21);
      await typeAmount(page, dialog, '0');
      await dialog.getByRole('button', { name: DIALOGS.recoverCredits }).click();
      await expectRefused(page, dialog, writes, HIERARCHY.minimumCreditLimit(1));
      await typeAmount(page, dialog, String(available + 1));
      await expect.poll(() => shownAmount(dialog)).toBe(`${available + 1} credits`);
      await dialog.getByRole('button', { name: DIALOGS.recoverCredits }).click();
      await expectRefused(page, dialog, writes, CREDITS.cannotRecover(available));
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      let recovered = 0;
      for (const typed of [5, 7, 9]) {
        dialog = await openRowDialog(page, '/resellers', 'reseller', DIALOGS.recoverCredits, 'Available paid credits');
        const before = await figure(dialog, 'Current balance');
        await typeAmount(page, dialog, String(typed));
        const moved = await sendAndAnswer(page, dialog.getByRole('button', { name: DIALOGS.recoverCredits }), /^\/api\/v1\/resellers\/\d+\/credits$/);
        expect(writes.at(-1)!.body).toEqual({ action: 'recover', credits: typed });
        expect(moved.credits).toBe(typed);
        expect(moved.user.credits).toBe(before - typed);
        recovered += typed;
        await expect.poll(() => headerCredits(page)).toBe(balance + recovered);
      }
      expect(writes).toHaveLength(3);
      await page.context().close();
    }, 120_000);

    it("Initial credits of a new reseller: 0 is none, 5, 7, 9 and more than the manager's balance are refused; 12 moves 12", async () => {
      const page = await ctx.signIn('manager');
      const writes = recordWrites(page);
      const balance = await headerCredits(page);
      const openCreate = async () => {
        await page.goto('/resellers');
        await page.getByRole('button', { name: 'Add Reseller' }).click();
        const dialog = page.locator('.ant-modal', { hasText: 'Create Reseller' });
        await dialog.waitFor();
        await dialog.getByLabel('Name', { exact: true }).fill('Typed Amount');
        await dialog.getByLabel('Username', { exact: true }).fill(`typed${Date.now()}`);
        await dialog.getByLabel('Password', { exact: true }).fill('long enough password');
        return dialog;
      };
      const create = (dialog: Locator) => dialog.getByRole('button', { name: 'Create Reseller' });

      let dialog = await openCreate();
      await typeAmount(page, dialog, '0');
      await expect.poll(() => shownAmount(dialog)).toBe('No initial credits');
      let created = await sendAndAnswer(page, create(dialog), /^\/api\/v1\/resellers$/);
      expect(writes.at(-1)!.body.credits).toBe(0);
      expect(created.credits).toBe(0);

      dialog = await openCreate();
      for (const typed of ['5', '7', '9']) {
        await typeAmount(page, dialog, typed);
        await expect.poll(() => shownAmount(dialog)).toBe(`${typed} credits`);
        await create(dialog).click();
        await expectRefused(page, dialog, writes, HIERARCHY.minimumCreditLimit(10));
      }
      await typeAmount(page, dialog, String(balance + 1));
      await create(dialog).click();
      await expectRefused(page, dialog, writes, CREDITS.insufficientCredits(balance + 1, balance));
      expect(await headerCredits(page)).toBe(balance);

      await typeAmount(page, dialog, '12');
      created = await sendAndAnswer(page, create(dialog), /^\/api\/v1\/resellers$/);
      expect(writes.at(-1)!.body.credits).toBe(12);
      expect(created.credits).toBe(12);
      expect(writes).toHaveLength(2);
      await expect.poll(() => headerCredits(page)).toBe(balance - 12);
      await page.context().close();
    }, 120_000);

    it("admin: Add Credits to a manager and a new manager's initial credits take 5, 7 and 9 as typed; 0 adds none; 7.5 and over the cap are refused", async () => {
      const page = await ctx.signIn('admin');
      const writes = recordWrites(page);

      let dialog = await openRowDialog(page, '/managers', 'manager2', DIALOGS.addCredits, 'Recipient');
      await typeAmount(page, dialog, '0');
      await dialog.getByRole('button', { name: DIALOGS.addCredits }).click();
      await expectRefused(page, dialog, writes, HIERARCHY.minimumCreditLimit(1));
      await typeAmount(page, dialog, '10001');
      await dialog.getByRole('button', { name: DIALOGS.addCredits }).click();
      await expectRefused(page, dialog, writes, CREDITS.adminAllocationCap);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      for (const typed of [5, 7, 9]) {
        dialog = await openRowDialog(page, '/managers', 'manager2', DIALOGS.addCredits, 'Recipient');
        const before = await figure(dialog, 'Current balance');
        await typeAmount(page, dialog, String(typed));
        const moved = await sendAndAnswer(page, dialog.getByRole('button', { name: DIALOGS.addCredits }), /^\/api\/v1\/managers\/\d+\/credits$/);
        expect(writes.at(-1)!.body.credits).toBe(typed);
        expect(moved.credits).toBe(typed);
        expect(moved.user.credits).toBe(before + typed + moved.bonus_credits);
      }

      // The manager page: a number input; Enter submits the form with what was typed.
      const createManager = async (typed: string) => {
        await page.goto('/managers/create');
        await page.getByLabel('Name', { exact: true }).fill('Typed Manager');
        await page.getByLabel('Username', { exact: true }).fill(`typedm${Date.now()}`);
        await page.getByLabel('Password', { exact: true }).fill('long enough password');
        const field = page.getByLabel('Initial credits', { exact: true });
        await field.fill(typed);
        return field;
      };
      for (const typed of [0, 5, 7, 9]) {
        const field = await createManager(String(typed));
        const [response] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/managers'),
          field.press('Enter'),
        ]);
        expect(response.status()).toBe(201);
        expect(writes.at(-1)!.body.credits).toBe(typed);
        // The credit levels may add a bonus to what admin gives a manager: the paid part is what was typed.
        expect(((await response.json()) as { data: { paid_credits: number } }).data.paid_credits).toBe(typed);
      }
      for (const [typed, message] of [
        ['7.5', ENTITY_FORM.creditsPositive],
        ['10001', CREDITS.adminAllocationCap],
      ] as const) {
        const before = writes.length;
        const field = await createManager(typed);
        await field.press('Enter');
        await page.locator('.ant-form-item-explain-error', { hasText: message }).waitFor();
        await page.waitForTimeout(300);
        expect(writes.length).toBe(before);
      }
      await page.context().close();
    }, 180_000);
  },
  { env: { CREDIT_OPS_PER_MINUTE: '1000' } },
);
