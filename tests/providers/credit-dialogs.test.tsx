/**
 * The Add Credits and Recover Credits dialogs over a fake HTTP layer: amounts from the option
 * endpoints, the client rules, one Idempotency-Key per opening (kept for a retry), the bonus the
 * dialog showed sent back, and the spec's error toasts.
 */
import { waitFor } from './dom';
import { type AuthProvider, type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AddCreditsDialog, type CreditTarget, RecoverCreditsDialog } from '../../src/components/credits';
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

const authProvider: AuthProvider = {
  login: async () => ({ success: true }),
  logout: async () => ({ success: true }),
  check: async () => ({ authenticated: true }),
  onError: async () => ({}),
  getIdentity: async () => ({ id: 2, name: 'Maria Manager', username: 'manager', role: 'manager', credits: 500, bonus_credits: 0 }),
};

function renderDialog(kind: 'add' | 'recover', onClose = vi.fn()) {
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const Dialog = kind === 'add' ? AddCreditsDialog : RecoverCreditsDialog;
  const view = render(
    <Refine dataProvider={createDataProvider(fake.http)} authProvider={authProvider} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
      <Dialog entity="resellers" target={RESELLER} onClose={onClose} />
    </Refine>,
  );
  const modal = () => view.baseElement.querySelector('.ant-modal')!;
  const text = () => modal().textContent ?? '';
  const submit = () =>
    fireEvent.click([...modal().querySelectorAll('.ant-modal-footer button')].find((b) => /Add Credits|Recover Credits/.test(b.textContent ?? ''))!);
  const choose = async (label: string) => {
    fireEvent.mouseDown(modal().querySelector('.ant-select-selector')!);
    await waitFor(() => expect([...view.baseElement.querySelectorAll('.ant-select-item-option')].some((o) => o.textContent === label)).toBe(true));
    fireEvent.click([...view.baseElement.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === label)!);
  };
  return { view, text, submit, choose, onClose };
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
    const { text, submit, choose, onClose } = renderDialog('add');

    await waitFor(() => expect(fake.calls('GET', 'credit-options/allocation')).toHaveLength(1));
    expect(fake.calls('GET', 'credit-options/allocation')[0].query).toEqual({ user_id: '5' });
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
});
