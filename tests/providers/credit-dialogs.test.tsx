/**
 * The Add Credits and Recover Credits dialogs over a fake HTTP layer: amounts from the option
 * endpoints, the client rules, one Idempotency-Key per opening (kept for a retry), the bonus the
 * dialog showed sent back, and the spec's error toasts.
 */
import { waitFor } from './dom';
import { type AuthProvider, type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CREDITS } from '../../src/contract';
import { AddCreditsDialog, type CreditEntity, type CreditTarget, RecoverCreditsDialog } from '../../src/components/credits';
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
    <Refine dataProvider={createDataProvider(fake.http)} authProvider={authProviderFor(identity)} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
      <Dialog entity={entity} target={target} onClose={onClose} />
    </Refine>,
  );
  const modal = () => view.baseElement.querySelector('.ant-modal')!;
  const text = () => modal().textContent ?? '';
  const okButton = () => [...modal().querySelectorAll<HTMLButtonElement>('.ant-modal-footer button')].find((b) => /Add Credits|Recover Credits/.test(b.textContent ?? ''))!;
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
  /** The message under the Amount field ('' when none). */
  const amountError = () => {
    const item = [...modal().querySelectorAll('.ant-form-item')].find((i) => i.querySelector('label')?.textContent === 'Amount');
    return item?.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
  };
  return { view, text, submit, ready, choose, typeAmount, amountError, onClose };
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
        ? { status: 422, body: { message: 'Too many credit operations. Please wait before trying again.', errors: { rate_limit: ['Too many credit operations. Please wait before trying again.'] } } }
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

    // Beyond the balance: not offered, the rule is said instead.
    const input = view.baseElement.querySelector<HTMLInputElement>('.ant-modal .ant-select-selection-search-input')!;
    fireEvent.change(input, { target: { value: '900' } });
    await waitFor(() => expect(view.baseElement.querySelector('.ant-select-item-empty')?.textContent).toBe('Type 10 to 745 credits'));
    fireEvent.change(input, { target: { value: '' } });

    await typeAmount(40);
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'resellers/5/credits').map((c) => c.body)).toEqual([{ action: 'renew', credits: 40 }]);
  });

  it('maps the server refusals of spec 8', async () => {
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

  it("shows the server's 422 on credits under the amount, with the spec's toast, and retries with the same key", async () => {
    fake.on('GET', 'credit-options/allocation', { status: 200, body: { data: { options: [option(10), option(20)], user_credits: 500, min_credits: 10, max_credits: 500 } } });
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
        data: { options: [option(50)], message: 'Up to 60 paid credits can be recovered.', available_paid_credits: 60, bonus_credits_to_zero: 0, user_credits: 60, bonus_credits: 0 },
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
