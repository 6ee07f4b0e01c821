/**
 * The bulk-by-filter dialog and the caps editor over a fake HTTP layer: the preview of everything the
 * list's filters match (credits, balance after, refused reasons with sample rows), its application
 * as a job with progress and a report, and the limits a parent sets for a member.
 */
import { waitFor } from './dom';
import { type AuthProvider, type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNTS, BULK_FILTER, CAPS, type BulkJob, type BulkPreview } from '../../src/contract';
import { BulkFilterDialog } from '../../src/features/accounts/BulkFilterDialog';
import { CapsEditor } from '../../src/features/hierarchy/CapsEditor';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { type FakeHttp, fakeHttp } from './fakeHttp';

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
  getIdentity: async () => ({ id: 4, name: 'Dan Dealer', username: 'dealer', role: 'dealer', credits: 2000, bonus_credits: 0 }),
};

function renderWith(children: React.ReactNode) {
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  return render(
    <Refine dataProvider={createDataProvider(fake.http)} authProvider={authProvider} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
      {children}
    </Refine>,
  );
}

const PREVIEW: BulkPreview = {
  id: 7,
  action: 'renew',
  months: 1,
  matched: 1203,
  applicable: 1200,
  credits: 1150,
  bonus_credits: 20,
  balance_before: 2000,
  balance_after: 850,
  insufficient: false,
  refused: [
    {
      reason: ACCOUNTS.bonusPeriod,
      count: 3,
      sample: [
        { id: 1, login: 'alpha' },
        { id: 2, login: 'beta' },
      ],
    },
  ],
  mode: 'job',
  limit: 1000,
  expires_at: '2030-01-01T00:00:00.000Z',
};
const job = (processed: number, status: BulkJob['status']): BulkJob => ({
  id: 7,
  action: 'renew',
  months: 1,
  status,
  mode: 'job',
  total: 1203,
  processed,
  succeeded: processed,
  refused: 0,
  credits: processed,
  error: null,
  created_at: '2030-01-01T00:00:00.000Z',
  finished_at: status === 'done' ? '2030-01-01T00:01:00.000Z' : null,
});

describe('bulk by filter dialog', () => {
  it('previews everything the filters match, then runs the job with its progress and report', async () => {
    fake.on('POST', 'accounts/bulk/preview', { status: 200, body: { data: PREVIEW } });
    fake.on('POST', 'accounts/bulk/7/apply', { status: 202, body: { message: BULK_FILTER.started(1203), data: job(0, 'running') } });
    let polls = 0;
    fake.on('GET', 'accounts/bulk/7', () => ({ status: 200, body: { data: ++polls > 1 ? job(1203, 'done') : job(400, 'running') } }));
    const onDone = vi.fn();
    const view = renderWith(
      <BulkFilterDialog
        request={{
          action: 'renew',
          total: 1203,
          filters: [
            { field: 'expiry', operator: 'eq', value: '7' },
            { field: 'search', operator: 'contains', value: undefined },
          ],
        }}
        onClose={() => undefined}
        onDone={onDone}
      />,
    );
    const modal = () => view.baseElement.querySelector('.ant-modal')!;
    const ok = () => view.baseElement.querySelector<HTMLButtonElement>('[data-testid="bulk-filter-ok"]')!;
    expect(modal().textContent).toContain(BULK_FILTER.applyToAll(1203));
    fireEvent.click(ok());
    await waitFor(() => expect(view.baseElement.querySelector('[data-testid="bulk-preview"]')).toBeTruthy());
    // The list's own filter, months, the action: nothing else.
    expect(fake.calls('POST', 'accounts/bulk/preview')[0].body).toEqual({ action: 'renew', months: 1, filter: { expiry: '7' } });
    const preview = view.baseElement.querySelector('[data-testid="bulk-preview"]')!.textContent!;
    expect(preview).toContain(BULK_FILTER.applicable(1200));
    expect(view.baseElement.querySelector('[data-testid="bulk-credits"]')!.textContent).toBe('1150 credits');
    expect(view.baseElement.querySelector('[data-testid="bulk-balance-after"]')!.textContent).toBe('850 credits');
    expect(preview).toContain(BULK_FILTER.asJob(1000));
    expect(view.baseElement.querySelector('[data-testid="bulk-refused"]')!.textContent).toBe(`${ACCOUNTS.bonusPeriod} (3): alpha, beta, …`);

    fireEvent.click(ok());
    await waitFor(() => expect(view.baseElement.querySelector('[data-testid="bulk-job"]')).toBeTruthy());
    expect(onDone).toHaveBeenCalled();
    await waitFor(() => expect(view.baseElement.querySelector('[data-testid="bulk-job"]')!.textContent).toContain(BULK_FILTER.progress(1203, 1203)));
    expect(view.baseElement.querySelector('[data-testid="bulk-job"]')!.textContent).toContain(BULK_FILTER.report);
  });

  it('offers no Apply when the balance is short, and checks the message before asking', async () => {
    fake.on('POST', 'accounts/bulk/preview', { status: 200, body: { data: { ...PREVIEW, mode: 'direct', insufficient: true, balance_after: -5 } } });
    const view = renderWith(<BulkFilterDialog request={{ action: 'renew', account_ids: [1, 2] }} onClose={() => undefined} onDone={() => undefined} />);
    const ok = () => view.baseElement.querySelector<HTMLButtonElement>('[data-testid="bulk-filter-ok"]')!;
    fireEvent.click(ok());
    await waitFor(() => expect(view.baseElement.textContent).toContain(BULK_FILTER.insufficient(1150, 2000)));
    expect(ok().disabled).toBe(true);

    const message = renderWith(<BulkFilterDialog request={{ action: 'message', filters: [] }} onClose={() => undefined} onDone={() => undefined} />);
    const okOf = message.baseElement.querySelectorAll<HTMLButtonElement>('[data-testid="bulk-filter-ok"]');
    fireEvent.click(okOf[okOf.length - 1]);
    await waitFor(() => expect(message.baseElement.textContent).toContain(ACCOUNTS.messageRequired));
    expect(fake.calls('POST', 'accounts/bulk/preview')).toHaveLength(1);
  });
});

describe('caps editor', () => {
  it('shows a member’s limits with its usage and saves them, empty for no limit', async () => {
    const view0 = {
      user_id: 9,
      caps: { max_accounts: 50, trials_per_day: null, credits_per_day: 100 },
      usage: { accounts: 12, trials_today: 1, credits_given_today: 30 },
    };
    fake.on('GET', 'hierarchy/caps/9', { status: 200, body: { data: view0 } });
    fake.on('PUT', 'hierarchy/caps/9', { status: 200, body: { message: 'ok', data: view0 } });
    const view = renderWith(<CapsEditor memberId={9} username="dealer9" />);
    await waitFor(() => expect(view.baseElement.textContent).toContain(CAPS.usage(12, 50)));
    expect(view.baseElement.textContent).toContain(CAPS.usage(30, 100));
    expect(view.baseElement.textContent).toContain(`1 (${CAPS.noLimit})`);
    const input = view.baseElement.querySelector<HTMLInputElement>('#cap-max_accounts')!;
    fireEvent.change(input, { target: { value: '80' } });
    fireEvent.blur(input);
    fireEvent.click([...view.baseElement.querySelectorAll('button')].find((b) => b.textContent === 'Save')!);
    await waitFor(() => expect(fake.calls('PUT', 'hierarchy/caps/9')).toHaveLength(1));
    expect(fake.calls('PUT', 'hierarchy/caps/9')[0].body).toEqual({ max_accounts: 80, trials_per_day: null, credits_per_day: 100 });
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ type: 'success' })));
  });
});
