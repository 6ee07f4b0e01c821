/**
 * The Add Credits and Recover Credits dialogs over a fake HTTP layer: amounts from the option
 * endpoints, the client rules, one Idempotency-Key per opening (kept for a retry), the bonus the
 * dialog showed sent back, and the error toasts.
 */
import { waitFor } from './dom';
import { type AuthProvider, type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CREDITS, HIERARCHY } from '../../src/contract';
import { AddCreditsDialog, type CreditEntity, type CreditTarget, RecoverCreditsDialog } from '../../src/features/credits';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { type FakeHttp, fakeHttp } from './fakeHttp';

const RESELLER: CreditTarget = { id: 5, name: 'Rita Reseller', username: 'reseller', role: 'reseller', credits: 100, bonus_credits: 0 };

const option = (value: number, bonus = 0) => ({
  value,
  display_text: bonus ? `${value} credits + ${bonus} bonus` : `${value} credits`,
  bonus_credits: bonus,
  total_credits: value + bonus,
});

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
});

const MANAGER_IDENTITY = { id: 2, name: 'Maria Manager', username: 'manager', role: 'manager', credits: 500, bonus_credits: 0 };
const ADMIN_IDENTITY = { id: 1, name: 'Ada Admin', username: 'admin', role: 'admin', credits: null, bonus_credits: 0 };
const MANAGER: CreditTarget = { id: 2, name: 'Maria Manager', username: 'manager', role: 'manager', credits: 500, bonus_credits: 0 };

const authProviderFor = (identity: Record<string, unknown>): AuthProvider => ({
  login: async () => ({ success: true }),
  logout: async () => ({ success: true }),
  check: async () => ({ authenticated: true }),
  onError: async () => ({}),
  getIdentity: async () => identity,
});

function renderDialog(
  kind: 'add' | 'recover',
  onClose = vi.fn(),
  { identity = MANAGER_IDENTITY, entity = 'resellers', target = RESELLER }: { identity?: Record<string, unknown>; entity?: CreditEntity; target?: CreditTarget } = {},
) {
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const Dialog = kind === 'add' ? AddCreditsDialog : RecoverCreditsDialog;
  const view = render(
    <Refine
      dataProvider={createDataProvider(fake.http)}
      authProvider={authProviderFor(identity)}
      notificationProvider={notificationProvider}
      options={{ disableTelemetry: true }}
    >
      <Dialog entity={entity} target={target} onClose={onClose} />
    </Refine>,
  );
  const modal = () => view.baseElement.querySelector('.ant-modal')!;
  const text = () => modal().textContent ?? '';
  const okButton = () =>
    [...modal().querySelectorAll<HTMLButtonElement>('.ant-modal-footer button')].find((b) => /Add Credits|Recover Credits/.test(b.textContent ?? ''))!;
  const submit = () => fireEvent.click(okButton());
  /** The amounts' lookup answered: until then the dialog's button is disabled and a click does nothing. */
  const ready = () => waitFor(() => expect(okButton().disabled).toBe(false));
  const choose = async (label: string) => {
    fireEvent.mouseDown(modal().querySelector('.ant-select-selector')!);
    await waitFor(() => expect([...view.baseElement.querySelectorAll('.ant-select-item-option')].some((o) => o.textContent === label)).toBe(true));
    fireEvent.click([...view.baseElement.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === label)!);
  };
  /** An amount typed into the search (admin may pick any), then its option chosen. */
  const typeAmount = async (amount: number) => {
    const input = modal().querySelector<HTMLInputElement>('.ant-select-selection-search-input')!;
    fireEvent.mouseDown(modal().querySelector('.ant-select-selector')!);
    fireEvent.change(input, { target: { value: String(amount) } });
    await choose(`${amount} credits`);
  };
  /**
   * Types `text` into the amount's search and presses Enter, as a user does (the list is open and
   * shows what the picker made of the text first).
   */
  const typeAndEnter = async (text: string) => {
    const input = modal().querySelector<HTMLInputElement>('.ant-select-selection-search-input')!;
    fireEvent.mouseDown(modal().querySelector('.ant-select-selector')!);
    fireEvent.change(input, { target: { value: text } });
    await waitFor(() => expect(view.baseElement.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item')).not.toBeNull());
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
    fireEvent.keyUp(input, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
  };
  /** Types `text` and leaves the field without Enter (a click elsewhere). */
  const typeAndLeave = async (text: string) => {
    const input = modal().querySelector<HTMLInputElement>('.ant-select-selection-search-input')!;
    fireEvent.mouseDown(modal().querySelector('.ant-select-selector')!);
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: text } });
    await waitFor(() => expect(view.baseElement.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item')).not.toBeNull());
    fireEvent.focusOut(input);
  };
  /** The message under the Amount field ('' when none). */
  const amountError = () => {
    const item = [...modal().querySelectorAll('.ant-form-item')].find((i) => i.querySelector('label')?.textContent === 'Amount');
    return item?.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
  };
  return { view, text, submit, ready, choose, typeAmount, typeAndEnter, typeAndLeave, amountError, onClose };
}

/** The toasts as the user reads them (Refine's antd provider shows `description` as the title: see titled()). */
const toasts = () =>
  notify.mock.calls.map(([n]) => {
    const { type, message, description } = n as { type: string; message: string; description?: string };
    return description ? { type, title: description, body: message } : { type, title: message };
  });

describe('Add Credits dialog', { timeout: 30_000 }, () => {
  it('offers the allocation options, requires a choice, and sends the shown bonus with one key per opening', async () => {
    fake.on('GET', 'credit-options/allocation', {
      status: 200,
      body: { data: { options: [option(10), option(25, 5)], user_credits: 500, min_credits: 10, max_credits: 500 } },
    });
    let attempt = 0;
    fake.on('POST', 'resellers/5/credits', () =>
      ++attempt === 1
        ? {
            status: 422,
            body: {
              message: 'Too many credit operations. Please wait before trying again.',
              errors: { rate_limit: ['Too many credit operations. Please wait before trying again.'] },
            },
          }
        : { status: 200, body: { message: 'Credits added successfully.', data: { credits: 25, bonus_credits: 5 } } },
    );
    const { text, submit, ready, choose, onClose } = renderDialog('add');

    await waitFor(() => expect(fake.calls('GET', 'credit-options/allocation')).toHaveLength(1));
    expect(fake.calls('GET', 'credit-options/allocation')[0].query).toEqual({ user_id: '5' });
    await ready();
    expect(text()).toContain('Your available credits');

    submit();
    await waitFor(() => expect(text()).toContain('Please select a valid amount'));
    expect(fake.calls('POST', 'resellers/5/credits')).toHaveLength(0);

    await choose('25 credits + 5 bonus');
    await waitFor(() => expect(text()).toContain('Rita Reseller receives 30 credits'));

    submit();
    await waitFor(() => expect(toasts().some((t) => t.title === 'Rate Limit Exceeded')).toBe(true));
    expect(toasts().find((t) => t.title === 'Rate Limit Exceeded')!.body).toBe('Too many credit operations. Please wait before trying again.');
    expect(onClose).not.toHaveBeenCalled();

    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [first, second] = fake.calls('POST', 'resellers/5/credits');
    expect(first.body).toEqual({ action: 'renew', credits: 25, bonus_credits: 5 });
    expect(first.headers['Idempotency-Key']).toMatch(/.{16,}/);
    // The retry of the same opening reuses the key: the server replays instead of moving twice.
    expect(second.headers['Idempotency-Key']).toBe(first.headers['Idempotency-Key']);
    expect(toasts().at(-1)).toMatchObject({ type: 'success', title: 'Credits added successfully.' });
  });

  it('lists the configured amounts apart from those computed from the balance, and takes a typed amount within the rules', async () => {
    fake.on('GET', 'credit-options/allocation', {
      status: 200,
      body: {
        data: {
          options: [option(10), option(25), { ...option(186), share: '25% of your balance' }, { ...option(745), share: 'All your credits' }],
          user_credits: 745,
          min_credits: 10,
          max_credits: 745,
          step: 1,
        },
      },
    });
    fake.on('POST', 'resellers/5/credits', { status: 200, body: { message: 'Credits added successfully.', data: { credits: 40, bonus_credits: 0 } } });
    const { view, submit, typeAmount, onClose } = renderDialog('add');
    await waitFor(() => expect(fake.calls('GET', 'credit-options/allocation')).toHaveLength(1));
    fireEvent.mouseDown(view.baseElement.querySelector('.ant-modal .ant-select-selector')!);
    await waitFor(() => expect(view.baseElement.querySelectorAll('.ant-select-item-option')).toHaveLength(4));
    const rows = [...view.baseElement.querySelectorAll('.ant-select-item')].map((o) => o.textContent);
    expect(rows).toEqual(['Amounts', '10 credits', '25 credits', 'From the balance', '186 credits (25% of your balance)', '745 credits (All your credits)']);

    // The rules of a typed amount are said under the field; a typed amount is offered as typed, first.
    expect(view.baseElement.querySelector('.ant-modal .ant-form-item-extra')?.textContent).toBe('Type 10 to 745 credits');
    const input = view.baseElement.querySelector<HTMLInputElement>('.ant-modal .ant-select-selection-search-input')!;
    fireEvent.change(input, { target: { value: '900' } });
    await waitFor(() => expect(view.baseElement.querySelector('.ant-select-item-option-active')?.textContent).toBe('900 credits'));
    fireEvent.change(input, { target: { value: '' } });

    await typeAmount(40);
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'resellers/5/credits').map((c) => c.body)).toEqual([{ action: 'renew', credits: 40 }]);
  });

  it('maps the server refusals to their toasts', async () => {
    fake.on('GET', 'credit-options/allocation', { status: 200, body: { data: { options: [option(10)], user_credits: 500, min_credits: 10, max_credits: 500 } } });
    fake.on('POST', 'resellers/5/credits', { status: 422, body: { message: 'Insufficient Credits', errors: { paid_credits: ['Insufficient Credits'] } } });
    const { submit, choose } = renderDialog('add');
    await choose('10 credits');
    submit();
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'error', title: 'Insufficient Credits' }));

    fake.on('POST', 'resellers/5/credits', { status: 403, body: { message: 'This action is unauthorized.' } });
    submit();
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'error', title: 'Unauthorized', body: "You don't have permission to perform this action." }));
  });

  it('falls back to 10 in steps of 5 up to the balance when the options cannot be loaded', async () => {
    fake.on('GET', 'credit-options/allocation', { status: 500, body: { message: 'Server Error' } });
    const { view } = renderDialog('add');
    await waitFor(() => expect(fake.calls('GET', 'credit-options/allocation')).toHaveLength(1));
    fireEvent.mouseDown(view.baseElement.querySelector('.ant-modal .ant-select-selector')!);
    await waitFor(() => expect(view.baseElement.querySelector('.ant-select-item-option')?.textContent).toBe('10 credits'));
    const labels = [...view.baseElement.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
    expect(labels.slice(0, 3)).toEqual(['10 credits', '15 credits', '20 credits']);
  });
});

describe('Add Credits: a typed amount shows its bonus before the move, as the offered ones do', { timeout: 90_000 }, () => {
  /** What the dialog says of the bonus under the field ('' when nothing). */
  const bonusLine = (view: ReturnType<typeof renderDialog>['view']) => view.baseElement.querySelector('.ant-modal .ant-alert-success')?.textContent ?? '';
  /** The first (active) item while a number is typed: the typed amount, named as the picker names it. */
  const typedItem = (view: ReturnType<typeof renderDialog>['view']) => view.baseElement.querySelector('.ant-select-item-option-active')?.textContent;

  it("prices a typed amount by the promos' tiers the options state: none below the first, then the tier reached, and sends that bonus", async () => {
    fake.on('GET', 'credit-options/allocation', {
      status: 200,
      body: {
        data: {
          options: [option(10), option(50, 5), option(100, 15)],
          user_credits: 500,
          min_credits: 10,
          max_credits: 500,
          step: 1,
          bonus_rule: {
            kind: 'tiers',
            tiers: [
              { credits_required: 100, bonus_credits: 15 },
              { credits_required: 50, bonus_credits: 5 },
            ],
          },
        },
      },
    });
    fake.on('POST', 'resellers/5/credits', { status: 200, body: { message: 'Credits added successfully.', data: { credits: 120, bonus_credits: 15 } } });
    const { view, text, submit, ready, typeAndEnter, onClose } = renderDialog('add');
    await ready();

    await typeAndEnter('30');
    await waitFor(() => expect(text()).toContain('30 credits'));
    expect(bonusLine(view)).toBe('');
    expect(text()).not.toContain('bonus');

    const input = view.baseElement.querySelector<HTMLInputElement>('.ant-modal .ant-select-selection-search-input')!;
    fireEvent.mouseDown(view.baseElement.querySelector('.ant-modal .ant-select-selector')!);
    fireEvent.change(input, { target: { value: '60' } });
    // While typing, before anything is chosen: the typed amount is named with its bonus.
    await waitFor(() => expect(typedItem(view)).toBe('60 credits + 5 bonus'));
    fireEvent.change(input, { target: { value: '' } });

    await typeAndEnter('60');
    await waitFor(() => expect(bonusLine(view)).toBe('Includes 5 bonus credits: Rita Reseller receives 65 credits.'));
    await typeAndEnter('120');
    await waitFor(() => expect(bonusLine(view)).toBe('Includes 15 bonus credits: Rita Reseller receives 135 credits.'));

    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'resellers/5/credits').map((c) => c.body)).toEqual([{ action: 'renew', credits: 120, bonus_credits: 15 }]);
  });

  it("prices a typed amount to a manager by the credit levels' ratio, and says nothing of a bonus where the levels give none", async () => {
    const levels = (bonus_rule: unknown) => ({
      status: 200,
      body: { data: { options: [option(100, 10), option(200, 20)], user_credits: null, min_credits: 100, max_credits: 10_000, step: 1, bonus_rule } },
    });
    fake.on('GET', 'credit-options/allocation', levels({ kind: 'ratio', ratio: 0.1 }));
    const { view, ready, typeAndEnter } = renderDialog('add', vi.fn(), { identity: ADMIN_IDENTITY, entity: 'managers', target: MANAGER });
    await ready();
    await typeAndEnter('150');
    await waitFor(() => expect(bonusLine(view)).toBe('Includes 15 bonus credits: Maria Manager receives 165 credits.'));
    await typeAndEnter('333');
    await waitFor(() => expect(bonusLine(view)).toBe('Includes 33 bonus credits: Maria Manager receives 366 credits.'));
    // Below the amount whose ratio rounds to one credit: no bonus.
    await typeAndEnter('4');
    await waitFor(() => expect(bonusLine(view)).toBe(''));
  });

  it('says nothing of a bonus for a typed amount when the promos are off (no rule)', async () => {
    fake.on('GET', 'credit-options/allocation', {
      status: 200,
      body: { data: { options: [option(10), option(50)], user_credits: 500, min_credits: 10, max_credits: 500, step: 1, bonus_rule: null } },
    });
    const { view, text, ready, typeAndEnter } = renderDialog('add');
    await ready();
    await typeAndEnter('120');
    await waitFor(() => expect(text()).toContain('120 credits'));
    expect(bonusLine(view)).toBe('');
  });
});

describe('Add Credits form: the contract rules before sending, the server 422 under the amount', { timeout: 30_000 }, () => {
  it('checks the amount with the schema and the allocation cap before any request', async () => {
    fake.on('GET', 'credit-options/allocation', { status: 200, body: { data: { options: [option(10)], user_credits: null, min_credits: 10, max_credits: 10_000 } } });
    fake.on('POST', 'managers/2/credits', { status: 200, body: { message: 'Credits added successfully.', data: { credits: 10_000, bonus_credits: 0 } } });
    const { submit, ready, typeAmount, amountError, onClose } = renderDialog('add', vi.fn(), { identity: ADMIN_IDENTITY, entity: 'managers', target: MANAGER });
    await waitFor(() => expect(fake.calls('GET', 'credit-options/allocation')).toHaveLength(1));
    await ready();

    submit();
    await waitFor(() => expect(amountError()).toBe(CREDITS.selectAmount));
    await typeAmount(10_001);
    await waitFor(() => expect(amountError()).toBe(CREDITS.adminAllocationCap));
    submit();
    await new Promise((r) => setTimeout(r, 300));
    expect(amountError()).toBe(CREDITS.adminAllocationCap);
    expect(fake.calls('POST', 'managers/2/credits')).toHaveLength(0);
    expect(notify).not.toHaveBeenCalled();

    // At the cap it is sent, without a bonus the dialog never showed.
    await typeAmount(10_000);
    await waitFor(() => expect(amountError()).toBe(''));
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'managers/2/credits').map((c) => c.body)).toEqual([{ action: 'renew', credits: 10_000 }]);
  });

  it("shows the server's 422 on credits under the amount, with the dialog's toast, and retries with the same key", async () => {
    fake.on('GET', 'credit-options/allocation', {
      status: 200,
      body: { data: { options: [option(10), option(20)], user_credits: 500, min_credits: 10, max_credits: 500 } },
    });
    const refusal = 'Credits are given in steps of 10.';
    fake.on('POST', 'resellers/5/credits', { status: 422, body: { message: refusal, errors: { credits: [refusal] } } });
    const { submit, choose, amountError, onClose } = renderDialog('add');
    await choose('10 credits');
    submit();
    await waitFor(() => expect(amountError()).toBe(refusal));
    expect(toasts().at(-1)).toEqual({ type: 'error', title: CREDITS.validation.title, body: CREDITS.validation.description });
    expect(onClose).not.toHaveBeenCalled();

    // Choosing again clears the server's message; the next try of this opening reuses its key.
    await choose('20 credits');
    await waitFor(() => expect(amountError()).toBe(''));
    fake.on('POST', 'resellers/5/credits', { status: 200, body: { message: 'Credits added successfully.', data: { credits: 20, bonus_credits: 0 } } });
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [first, second] = fake.calls('POST', 'resellers/5/credits');
    expect(second.body).toEqual({ action: 'renew', credits: 20, bonus_credits: 0 });
    expect(second.headers['Idempotency-Key']).toBe(first.headers['Idempotency-Key']);
  });
});

describe('Recover Credits dialog', { timeout: 30_000 }, () => {
  it('shows the recovery message and recovers with a key', async () => {
    fake.on('GET', 'resellers/5/credits/recovery-options', {
      status: 200,
      body: {
        data: {
          options: [option(50), option(100)],
          message: 'Up to 100 paid credits can be recovered.',
          available_paid_credits: 100,
          bonus_credits_to_zero: 0,
          user_credits: 100,
          bonus_credits: 0,
        },
      },
    });
    fake.on('POST', 'resellers/5/credits', { status: 200, body: { message: 'Credits recovered successfully.', data: {} } });
    const { text, submit, choose, onClose } = renderDialog('recover');
    await waitFor(() => expect(text()).toContain('Up to 100 paid credits can be recovered.'));
    await choose('50 credits');
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [call] = fake.calls('POST', 'resellers/5/credits');
    expect(call.body).toEqual({ action: 'recover', credits: 50 });
    expect(call.headers['Idempotency-Key']).toBeTruthy();
  });

  it("says 'Failed to load recovery options' and sends nothing when the lookup fails", async () => {
    fake.on('GET', 'resellers/5/credits/recovery-options', { status: 500, body: { message: 'Server Error' } });
    const { text, submit } = renderDialog('recover');
    await waitFor(() => expect(text()).toContain('Failed to load recovery options'));
    expect(toasts().at(-1)).toEqual({ type: 'error', title: 'Error', body: 'Failed to load recovery options' });
    submit();
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.calls('POST', 'resellers/5/credits')).toHaveLength(0);
  });

  it("refuses more than the available paid credits before sending, and puts the server's paid_credits refusal under the amount", async () => {
    fake.on('GET', 'resellers/5/credits/recovery-options', {
      status: 200,
      body: {
        data: {
          options: [option(50)],
          message: 'Up to 60 paid credits can be recovered.',
          available_paid_credits: 60,
          bonus_credits_to_zero: 0,
          user_credits: 60,
          bonus_credits: 0,
        },
      },
    });
    const spent = 'Cannot recover more than available credits (40)';
    fake.on('POST', 'resellers/5/credits', { status: 422, body: { message: spent, errors: { paid_credits: [spent] } } });
    const { text, submit, choose, typeAmount, amountError, onClose } = renderDialog('recover', vi.fn(), { identity: ADMIN_IDENTITY });
    await waitFor(() => expect(text()).toContain('Up to 60 paid credits can be recovered.'));

    await typeAmount(61);
    await waitFor(() => expect(amountError()).toBe(CREDITS.cannotRecover(60)));
    submit();
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.calls('POST', 'resellers/5/credits')).toHaveLength(0);

    // The dealer spent some meanwhile: the API refuses, and says so under the amount.
    await choose('50 credits');
    await waitFor(() => expect(amountError()).toBe(''));
    submit();
    await waitFor(() => expect(amountError()).toBe(spent));
    expect(toasts().at(-1)).toEqual({ type: 'error', title: CREDITS.paidCredits, body: spent });
    expect(fake.calls('POST', 'resellers/5/credits').map((c) => c.body)).toEqual([{ action: 'recover', credits: 50 }]);
    expect(onClose).not.toHaveBeenCalled();
  });
});

/**
 * The amount that moves is the amount typed or picked, or nothing. A typed
 * number that is no option was replaced by the first option whose text contained it (5 became
 * '25 credits', 7 and 9 '197 credits (25% of your balance)', 0 '10 credits') and moved silently.
 */
describe('a typed amount is the amount sent, or nothing with the rule under the field', { timeout: 120_000 }, () => {
  const GIVER = { ...MANAGER_IDENTITY, credits: 788 };
  const share = (value: number, what: string) => ({ ...option(value), share: what });
  const allocation = (min: number) => ({
    status: 200,
    body: {
      data: {
        options: [
          ...[10, 25, 50, 100, 200, 500].map((v) => option(v)),
          share(197, '25% of your balance'),
          share(394, '50% of your balance'),
          share(591, '75% of your balance'),
          share(788, 'All your credits'),
        ],
        user_credits: 788,
        min_credits: min,
        max_credits: 788,
        step: 1,
      },
    },
  });
  const recovery = {
    status: 200,
    body: {
      data: {
        options: [option(10), option(25), option(50), share(100, 'All paid credits')],
        message: 'Up to 100 paid credits can be recovered.',
        available_paid_credits: 100,
        bonus_credits_to_zero: 0,
        user_credits: 100,
        bonus_credits: 0,
      },
    },
  };
  const ok = { status: 200, body: { message: 'Done.', data: {} } };

  /** Opens the dialog, types `typed` then Enter, submits: the bodies the API received and the message under the field. */
  async function attempt(kind: 'add' | 'recover', typed: string, expected: { sent: number; bonus?: number } | { refused: string }) {
    fake = fakeHttp(http);
    fake.on('GET', 'credit-options/allocation', allocation(minimum));
    fake.on('GET', 'resellers/5/credits/recovery-options', recovery);
    fake.on('POST', 'resellers/5/credits', ok);
    const onClose = vi.fn();
    const dialog = renderDialog(kind, onClose, { identity: GIVER });
    await dialog.ready();
    await dialog.typeAndEnter(typed);
    dialog.submit();
    const action = kind === 'add' ? 'renew' : 'recover';
    if ('sent' in expected) {
      await waitFor(() => expect(onClose).toHaveBeenCalled());
      // An offered amount also sends the bonus it showed.
      const bonus = expected.bonus === undefined ? {} : { bonus_credits: expected.bonus };
      expect(fake.calls('POST', 'resellers/5/credits').map((c) => c.body)).toEqual([{ action, credits: expected.sent, ...bonus }]);
    } else {
      await waitFor(() => expect(dialog.amountError()).toBe(expected.refused));
      await new Promise((r) => setTimeout(r, 200));
      expect(fake.calls('POST', 'resellers/5/credits')).toHaveLength(0);
      expect(onClose).not.toHaveBeenCalled();
    }
    dialog.view.unmount();
  }
  let minimum = 10;
  beforeEach(() => {
    minimum = 10;
  });

  it('Add Credits: below the minimum of the options (0, 5, 7, 9) or above the balance is refused, naming the rule', async () => {
    for (const typed of ['0', '5', '7', '9']) await attempt('add', typed, { refused: HIERARCHY.minimumCreditLimit(10) });
    await attempt('add', '789', { refused: CREDITS.insufficientCredits(789, 788) });
    // Within the rules: sent as typed, an offered amount with its own label (not a longer one containing it).
    await attempt('add', '13', { sent: 13 });
    await attempt('add', '197', { sent: 197, bonus: 0 });
  });

  it('Add Credits: with a minimum of 1, 5, 7 and 9 are sent as typed, 0 is refused', async () => {
    minimum = 1;
    for (const typed of [5, 7, 9]) await attempt('add', String(typed), { sent: typed });
    await attempt('add', '0', { refused: HIERARCHY.minimumCreditLimit(1) });
  });

  it('Recover: 5, 7 and 9 are recovered as typed; 0 and more than the paid credits are refused', async () => {
    for (const typed of [5, 7, 9]) await attempt('recover', String(typed), { sent: typed });
    await attempt('recover', '0', { refused: HIERARCHY.minimumCreditLimit(1) });
    await attempt('recover', '101', { refused: CREDITS.cannotRecover(100) });
  });

  it('leaving the field with a number typed takes that number, not the amount picked before', async () => {
    fake.on('GET', 'credit-options/allocation', allocation(1));
    fake.on('POST', 'resellers/5/credits', ok);
    const { ready, choose, typeAndLeave, submit, onClose } = renderDialog('add', vi.fn(), { identity: GIVER });
    await ready();
    await choose('25 credits');
    await typeAndLeave('9');
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'resellers/5/credits').map((c) => c.body)).toEqual([{ action: 'renew', credits: 9 }]);
  });

  it('a text search chooses nothing by itself; the arrows and Enter pick an option', async () => {
    fake.on('GET', 'credit-options/allocation', allocation(10));
    fake.on('POST', 'resellers/5/credits', ok);
    const { view, ready, typeAndEnter, submit, amountError, onClose } = renderDialog('add', vi.fn(), { identity: GIVER });
    await ready();
    await typeAndEnter('All your');
    submit();
    await waitFor(() => expect(amountError()).toBe(CREDITS.selectAmount));
    expect(fake.calls('POST', 'resellers/5/credits')).toHaveLength(0);

    const input = view.baseElement.querySelector<HTMLInputElement>('.ant-modal .ant-select-selection-search-input')!;
    fireEvent.mouseDown(view.baseElement.querySelector('.ant-modal .ant-select-selector')!);
    fireEvent.change(input, { target: { value: 'All your' } });
    await waitFor(() => expect(view.baseElement.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')).not.toBeNull());
    fireEvent.keyDown(input, { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40, which: 40 });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
    await waitFor(() => expect(amountError()).toBe(''));
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'resellers/5/credits').map((c) => c.body)).toEqual([{ action: 'renew', credits: 788, bonus_credits: 0 }]);
  });
});
