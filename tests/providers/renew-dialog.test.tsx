/**
 * The Quick Renew dialog over a fake HTTP layer: months 1-50, the price from the discount lookup, the
 * balance checked before anything is sent, the renewal call with an Idempotency-Key, and the
 * server's field errors under the months.
 */
import { waitFor } from './dom';
import { Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { QuickRenewDialog, type RenewTarget, renewedExpiry } from '../../src/components/renewals';
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
    fake.on('POST', 'global-discounts/calculate-credits', { status: 200, body: quote(1, { credits: 5, payable_credits: 5, regular_credits: 5, user_credits: 3, sufficient: false }) });
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
