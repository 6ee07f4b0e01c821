/**
 * The Quick Renew dialog over a fake HTTP layer: months 1-50, the price from the discount lookup, the
 * balance checked before anything is sent, the renewal call with an Idempotency-Key, and the
 * server's field errors under the months.
 */
import { waitFor } from './dom';
import { type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { QuickRenewDialog, type RenewTarget, renewedExpiry } from '../../src/features/accounts/renewals';
import { RENEWAL } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { type FakeHttp, fakeHttp } from './fakeHttp';

const ACCOUNT: RenewTarget = { id: 7, login: 'viewer', server_id: 1, expiry_date: '2030-01-15T10:00:00.000Z' };

const quote = (months: number, over: Record<string, unknown> = {}) => ({
  data: {
    server_id: 1,
    months,
    credits: months,
    price_per_month: 1,
    default_credits: 1,
    regular_credits: months,
    savings: 0,
    discount_id: null,
    discount_name: null,
    is_promo: false,
    bonus_months: 0,
    payable_credits: months,
    user_credits: 10,
    sufficient: true,
    ...over,
  },
});

let fake: FakeHttp;
beforeEach(() => {
  fake = fakeHttp(http);
});

function renderDialog(onClose = vi.fn()) {
  const view = render(
    <Refine dataProvider={createDataProvider(fake.http)} options={{ disableTelemetry: true }}>
      <QuickRenewDialog account={ACCOUNT} onClose={onClose} />
    </Refine>,
  );
  const months = () => view.baseElement.querySelector<HTMLInputElement>('.ant-modal input[role=spinbutton]')!;
  const type = (value: string) => fireEvent.change(months(), { target: { value } });
  const renew = () => fireEvent.click([...view.baseElement.querySelectorAll('.ant-modal button')].find((b) => b.textContent === 'Quick Renew')!);
  const text = () => view.baseElement.querySelector('.ant-modal')!.textContent ?? '';
  return { view, type, renew, text, onClose };
}

describe('Quick Renew dialog', { timeout: 30_000 }, () => {
  it('prices the months with the discount and renews with an Idempotency-Key', async () => {
    fake.on('POST', 'global-discounts/calculate-credits', (r) => {
      const months = (r.body as { months: number }).months;
      return {
        status: 200,
        body: months === 3 ? quote(3, { credits: 2, payable_credits: 2, savings: 1, discount_id: 4, discount_name: 'Three for two' }) : quote(months),
      };
    });
    fake.on('POST', 'accounts/7/credits', { status: 200, body: { message: 'Account renewed successfully.', data: {} } });
    const { type, renew, text, onClose } = renderDialog();

    await waitFor(() => expect(text()).toContain('1 credit'));
    type('3');
    await waitFor(() => expect(text()).toContain('Three for two: save 1 credit'));
    expect(text()).toContain('2 credits');
    expect(fake.calls('POST', 'global-discounts/calculate-credits').at(-1)!.body).toEqual({ months: 3, server_id: 1 });
    expect(text()).toContain(renewedExpiry(ACCOUNT.expiry_date, 3).format('YYYY-MM-DD'));

    renew();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [call] = fake.calls('POST', 'accounts/7/credits');
    expect(call.body).toEqual({ action: 'renew', months: 3 });
    expect(call.headers['Idempotency-Key']).toMatch(/.{8,}:3$/);
  });

  it('offers 1, 3, 6 and 12 months as choices next to a free number', async () => {
    fake.on('POST', 'global-discounts/calculate-credits', (r) => ({ status: 200, body: quote((r.body as { months: number }).months) }));
    fake.on('POST', 'accounts/7/credits', { status: 200, body: { message: 'Account renewed successfully.', data: {} } });
    const { view, type, renew, text, onClose } = renderDialog();
    await waitFor(() => expect(text()).toContain('1 credit'));
    const choices = () => [...view.baseElement.querySelectorAll<HTMLInputElement>('.ant-modal input[type=radio]')];
    const labelOf = (input: HTMLInputElement) => input.closest('label')!.textContent;
    expect(choices().map(labelOf)).toEqual(['1 month', '3 months', '6 months', '12 months']);
    expect(
      choices()
        .find((c) => c.checked)!
        .closest('label')!.textContent,
    ).toBe('1 month');

    fireEvent.click(choices()[3]);
    await waitFor(() => expect(fake.calls('POST', 'global-discounts/calculate-credits').at(-1)!.body).toEqual({ months: 12, server_id: 1 }));
    expect(view.baseElement.querySelector<HTMLInputElement>('.ant-modal input[role=spinbutton]')!.value).toBe('12');

    // A free number: no choice is marked.
    type('7');
    await waitFor(() => expect(fake.calls('POST', 'global-discounts/calculate-credits').at(-1)!.body).toEqual({ months: 7, server_id: 1 }));
    expect(choices().some((c) => c.checked)).toBe(false);
    renew();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'accounts/7/credits')[0].body).toEqual({ action: 'renew', months: 7 });
  });

  it('never shows the price of other months: from the choice of 3 months until their price arrives, no figure and the button waits', async () => {
    fake.on('POST', 'global-discounts/calculate-credits', (r) => ({ status: 200, body: quote((r.body as { months: number }).months) }));
    fake.on('POST', 'accounts/7/credits', { status: 200, body: { message: 'Account renewed successfully.', data: {} } });
    const { view, renew, text, onClose } = renderDialog();
    const total = () => view.baseElement.querySelector('[data-testid="renewal-total"]')!.textContent;
    const button = () => [...view.baseElement.querySelectorAll<HTMLButtonElement>('.ant-modal button')].find((b) => b.textContent === 'Quick Renew')!;
    await waitFor(() => expect(total()).toBe('1 credit'));
    expect(button().disabled).toBe(false);

    const choice = [...view.baseElement.querySelectorAll<HTMLInputElement>('.ant-modal input[type=radio]')].find((c) => c.closest('label')!.textContent === '3 months')!;
    fireEvent.click(choice);
    // The same render as the choice: the 1 month's figure is gone and the button waits for the new one.
    expect(total()).not.toContain('credit');
    expect(button().disabled).toBe(true);
    // Enter in the field does not renew meanwhile either.
    fireEvent.submit(view.baseElement.querySelector('.ant-modal form')!);
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.calls('POST', 'accounts/7/credits')).toHaveLength(0);

    await waitFor(() => expect(total()).toBe('3 credits'));
    expect(button().disabled).toBe(false);
    expect(text()).not.toContain('1 credit ');
    renew();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'accounts/7/credits')[0].body).toEqual({ action: 'renew', months: 3 });
  });

  it('refuses months outside 1-50 without asking for a price or renewing', async () => {
    fake.on('POST', 'global-discounts/calculate-credits', (r) => ({ status: 200, body: quote((r.body as { months: number }).months) }));
    const { type, renew, text } = renderDialog();
    await waitFor(() => expect(text()).toContain('1 credit'));
    const priced = fake.calls('POST', 'global-discounts/calculate-credits').length;
    type('51');
    await waitFor(() => expect(text()).toContain('Invalid months: Please enter a value between 1 and 50 months'));
    renew();
    await new Promise((r) => setTimeout(r, 400));
    expect(fake.calls('POST', 'global-discounts/calculate-credits').length).toBe(priced);
    expect(fake.calls('POST', 'accounts/7/credits')).toHaveLength(0);
  });

  it('checks the balance before sending', async () => {
    fake.on('POST', 'global-discounts/calculate-credits', {
      status: 200,
      body: quote(1, { credits: 5, payable_credits: 5, regular_credits: 5, user_credits: 3, sufficient: false }),
    });
    const { renew, text } = renderDialog();
    await waitFor(() => expect(text()).toContain('Insufficient credits: You need 5 credits but only have 3'));
    renew();
    await new Promise((r) => setTimeout(r, 400));
    expect(fake.calls('POST', 'accounts/7/credits')).toHaveLength(0);
  });

  it("shows the server's refusal under the months", async () => {
    fake.on('POST', 'global-discounts/calculate-credits', { status: 200, body: quote(1) });
    const refusal = 'This promo account is in its bonus period and cannot be renewed until one month before it expires.';
    fake.on('POST', 'accounts/7/credits', { status: 422, body: { message: refusal, errors: { months: [refusal] } } });
    const { renew, text, onClose } = renderDialog();
    await waitFor(() => expect(text()).toContain('1 credit'));
    renew();
    await waitFor(() => expect(text()).toContain(refusal));
    expect(onClose).not.toHaveBeenCalled();
  });
});

/** The Quick Renew months form, with its toasts (bulk renewal is the bulk preview's: bulk-filter-dialog.test.tsx). */
function renderForm(accounts: RenewTarget[] = [ACCOUNT]) {
  const notify = vi.fn<(params: unknown) => void>();
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const onClose = vi.fn();
  const onRenewed = vi.fn();
  const view = render(
    <Refine dataProvider={createDataProvider(fake.http)} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
      <QuickRenewDialog account={accounts[0]} onClose={onClose} onRenewed={onRenewed} />
    </Refine>,
  );
  const modal = () => view.baseElement.querySelector('.ant-modal')!;
  const type = (value: string) => fireEvent.change(modal().querySelector<HTMLInputElement>('input[role=spinbutton]')!, { target: { value } });
  const renew = () => fireEvent.click([...modal().querySelectorAll('button')].find((b) => b.textContent === RENEWAL.quickRenew)!);
  const text = () => modal().textContent ?? '';
  /** The message under the Months field ('' when none). */
  const monthsError = () => {
    const item = [...modal().querySelectorAll('.ant-form-item')].find((i) => i.querySelector('label')?.textContent === 'Months');
    return item?.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
  };
  const toasts = () =>
    notify.mock.calls.map(([n]) => {
      const { type: kind, message, description } = n as { type: string; message: string; description?: string };
      return description ? { type: kind, title: description, body: message } : { type: kind, title: message };
    });
  return { view, type, renew, text, monthsError, toasts, onClose, onRenewed };
}

const pricedByMonths = (r: { body: unknown }) => ({ status: 200, body: quote((r.body as { months: number }).months) });
const INVALID = `${RENEWAL.invalidMonths.title}: ${RENEWAL.invalidMonths.description}`;

describe('Quick Renew form: the contract rule before sending, the server 422 under the months', { timeout: 30_000 }, () => {
  it('shows the months rule under the field and toasts it on submit, with no request sent', async () => {
    fake.on('POST', 'global-discounts/calculate-credits', pricedByMonths);
    const { type, renew, text, monthsError, toasts } = renderForm();
    await waitFor(() => expect(text()).toContain('1 credit'));
    for (const value of ['', '0', '2.5', '51']) {
      type(value);
      await waitFor(() => expect(monthsError()).toBe(INVALID));
    }
    renew();
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'error', title: RENEWAL.invalidMonths.title, body: RENEWAL.invalidMonths.description }));
    await new Promise((r) => setTimeout(r, 400));
    expect(fake.calls('POST', 'accounts/7/credits')).toHaveLength(0);
    type('2');
    await waitFor(() => expect(monthsError()).toBe(''));
  });

  it("puts the server's refusal under the months (credits too), toasts 'Renewal Failed', and retries with the same key", async () => {
    fake.on('POST', 'global-discounts/calculate-credits', pricedByMonths);
    const short = 'Insufficient credits: You need 2 credits but only have 1';
    let attempt = 0;
    fake.on('POST', 'accounts/7/credits', () =>
      ++attempt === 1
        ? { status: 422, body: { message: short, errors: { credits: [short] } } }
        : { status: 200, body: { message: 'Account renewed successfully.', data: {} } },
    );
    const { type, renew, text, monthsError, toasts, onClose, onRenewed } = renderForm();
    type('2');
    await waitFor(() => expect(text()).toContain('2 credits'));
    renew();
    await waitFor(() => expect(monthsError()).toBe(short));
    expect(toasts().at(-1)).toEqual({ type: 'error', title: RENEWAL.failed, body: short });
    expect(onClose).not.toHaveBeenCalled();

    renew();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onRenewed).toHaveBeenCalled();
    const [first, second] = fake.calls('POST', 'accounts/7/credits');
    expect(second.body).toEqual({ action: 'renew', months: 2 });
    expect(second.headers['Idempotency-Key']).toBe(first.headers['Idempotency-Key']);
    expect(toasts().at(-1)).toEqual({ type: 'success', title: 'Account renewed successfully.' });
  });
});
