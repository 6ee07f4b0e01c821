/**
 * The bulk dialog and the caps editor over a fake HTTP layer: the preview of a selection or of
 * everything the list's filters match (credits, balance after, refused reasons with sample rows),
 * its application at once or as a job with progress and a report, the months and message checked
 * before asking, a preview the accounts moved away from (409) told and previewed again, and the
 * limits a parent sets for a member.
 */
import { waitFor } from './dom';
import { type AuthProvider, type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNTS, ACCOUNT_SCREEN, BULK_FILTER, CAPS, CREDITS, RENEWAL, STATUS, type BulkJob, type BulkPreview } from '../../src/contract';
import { BulkFilterDialog, type BulkFilterRequest } from '../../src/features/accounts/BulkFilterDialog';
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

function tree(children: React.ReactNode) {
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  return (
    <Refine dataProvider={createDataProvider(fake.http)} authProvider={authProvider} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
      {children}
    </Refine>
  );
}
const renderWith = (children: React.ReactNode) => render(tree(children));

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

  it('offers no Apply when the balance is short, saying what is needed as the renewal dialogs do', async () => {
    fake.on('POST', 'accounts/bulk/preview', { status: 200, body: { data: { ...PREVIEW, mode: 'direct', insufficient: true, balance_after: -5 } } });
    const view = renderWith(<BulkFilterDialog request={{ action: 'renew', account_ids: [1, 2] }} onClose={() => undefined} onDone={() => undefined} />);
    const ok = () => view.baseElement.querySelector<HTMLButtonElement>('[data-testid="bulk-filter-ok"]')!;
    fireEvent.click(ok());
    await waitFor(() => expect(view.baseElement.querySelector('[data-testid="bulk-insufficient"]')?.textContent).toBe(CREDITS.insufficientCredits(1150, 2000)));
    expect(ok().disabled).toBe(true);
    expect(fake.calls('POST', 'accounts/bulk/7/apply')).toHaveLength(0);
  });
});

/** The dialog on a selection, with its toasts and callbacks. */
function renderSelection(action: 'renew' | 'suspend' | 'activate' | 'message', ids = [3, 4]) {
  const onDone = vi.fn();
  const onClose = vi.fn();
  const view = renderWith(<BulkFilterDialog request={{ action, account_ids: ids }} onClose={onClose} onDone={onDone} />);
  const modal = () => view.baseElement.querySelector('.ant-modal')!;
  const ok = () => view.baseElement.querySelector<HTMLButtonElement>('[data-testid="bulk-filter-ok"]')!;
  const text = () => modal().textContent ?? '';
  const toasts = () =>
    notify.mock.calls.map(([n]) => {
      const { type: kind, message, description } = n as { type: string; message: string; description?: string };
      return description ? { type: kind, title: description, body: message } : { type: kind, title: message };
    });
  /** The page opens the same (still mounted) dialog for another request. */
  const reopen = (next: BulkFilterRequest) => view.rerender(tree(<BulkFilterDialog request={next} onClose={onClose} onDone={onDone} />));
  return { view, modal, ok, text, toasts, onDone, onClose, reopen };
}

const direct = (over: Partial<BulkPreview>): BulkPreview => ({ ...PREVIEW, id: 9, mode: 'direct', refused: [], bonus_credits: 0, ...over });
const doneJob = (over: Partial<BulkJob>): BulkJob => ({ ...job(2, 'done'), id: 9, mode: 'direct', total: 2, ...over });

describe('bulk actions on the selection: always the preview first', { timeout: 30_000 }, () => {
  it("Bulk Renew: refuses months outside 1 to 50 with the renewal dialogs' message and asks nothing", async () => {
    const { modal, ok, text, toasts } = renderSelection('renew');
    expect(modal().querySelector('.ant-modal-title')!.textContent).toBe(ACCOUNT_SCREEN.bulkRenewTitle);
    expect(text()).toContain(BULK_FILTER.applyToSelected(2));
    const months = modal().querySelector<HTMLInputElement>('#bulk-months')!;
    for (const value of ['0', '51', '']) {
      fireEvent.change(months, { target: { value } });
      fireEvent.click(ok());
      await waitFor(() => expect(text()).toContain(`${RENEWAL.invalidMonths.title}: ${RENEWAL.invalidMonths.description}`));
      expect(toasts().at(-1)).toEqual({ type: 'error', title: RENEWAL.invalidMonths.title, body: RENEWAL.invalidMonths.description });
    }
    expect(fake.calls('POST', 'accounts/bulk/preview')).toHaveLength(0);
  });

  it('Bulk Renew: previews the selected ids for the months, shows credits and balance after, then applies it once', async () => {
    fake.on('POST', 'accounts/bulk/preview', {
      status: 200,
      body: { data: direct({ months: 3, matched: 2, applicable: 2, credits: 6, balance_before: 20, balance_after: 14 }) },
    });
    fake.on('POST', 'accounts/bulk/9/apply', { status: 200, body: { message: BULK_FILTER.done(2), data: doneJob({ credits: 6 }) } });
    const { modal, ok, toasts, onDone, reopen } = renderSelection('renew');
    fireEvent.click([...modal().querySelectorAll('.ant-radio-button-wrapper')].find((b) => b.textContent === '3 months')!);
    fireEvent.click(ok());
    await waitFor(() => expect(modal().querySelector('[data-testid="bulk-preview"]')).toBeTruthy());
    expect(fake.calls('POST', 'accounts/bulk/preview')[0].body).toEqual({ action: 'renew', months: 3, account_ids: [3, 4] });
    expect(modal().querySelector('[data-testid="bulk-credits"]')!.textContent).toBe('6 credits');
    expect(modal().querySelector('[data-testid="bulk-balance-before"]')!.textContent).toBe('20 credits');
    expect(modal().querySelector('[data-testid="bulk-balance-after"]')!.textContent).toBe('14 credits');
    // Nothing is applied before the preview's own button.
    expect(fake.calls('POST', 'accounts/bulk/9/apply')).toHaveLength(0);
    expect(ok().textContent).toBe(BULK_FILTER.apply);

    fireEvent.click(ok());
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(fake.calls('POST', 'accounts/bulk/9/apply')).toHaveLength(1);
    expect(toasts().at(-1)).toEqual({ type: 'success', title: BULK_FILTER.done(2) });

    // Opened again for another selection: its own form, not the last preview or result.
    reopen({ action: 'renew', account_ids: [5] });
    await waitFor(() => expect(modal().textContent).toContain(BULK_FILTER.applyToSelected(1)));
    expect(modal().querySelector('[data-testid="bulk-preview"]')).toBeNull();
    expect(modal().querySelector('[data-testid="bulk-job"]')).toBeNull();
    expect(ok().textContent).toBe(BULK_FILTER.preview);
  });

  it('a preview the accounts moved away from (409) says so, applies nothing, and previews again', async () => {
    let previews = 0;
    fake.on('POST', 'accounts/bulk/preview', () => ({
      status: 200,
      body: { data: direct({ id: ++previews === 1 ? 9 : 10, action: 'suspend', matched: 2, applicable: 2, credits: 0 }) },
    }));
    fake.on('POST', 'accounts/bulk/9/apply', { status: 409, body: { message: BULK_FILTER.changed } });
    fake.on('POST', 'accounts/bulk/10/apply', { status: 200, body: { message: BULK_FILTER.done(2), data: doneJob({ action: 'suspend', id: 10 }) } });
    const { modal, ok, toasts, onDone } = renderSelection('suspend');
    fireEvent.click(ok());
    await waitFor(() => expect(modal().querySelector('[data-testid="bulk-preview"]')).toBeTruthy());
    fireEvent.click(ok());
    await waitFor(() => expect(modal().querySelector('[data-testid="bulk-refusal"]')?.textContent).toBe(BULK_FILTER.changed));
    expect(toasts().at(-1)).toEqual({ type: 'error', title: STATUS.updateFailed.title, body: BULK_FILTER.changed });
    expect(modal().querySelector('[data-testid="bulk-preview"]')).toBeNull();
    expect(ok().textContent).toBe(BULK_FILTER.previewAgain);
    expect(onDone).not.toHaveBeenCalled();

    fireEvent.click(ok());
    await waitFor(() => expect(modal().querySelector('[data-testid="bulk-preview"]')).toBeTruthy());
    expect(fake.calls('POST', 'accounts/bulk/preview')).toHaveLength(2);
    fireEvent.click(ok());
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(fake.calls('POST', 'accounts/bulk/10/apply')).toHaveLength(1);
  });

  it('Activate: the refused accounts with their reason; with none left to change there is no Apply', async () => {
    fake.on('POST', 'accounts/bulk/preview', {
      status: 200,
      body: {
        data: direct({
          action: 'activate',
          matched: 2,
          applicable: 0,
          credits: 0,
          refused: [
            {
              reason: BULK_FILTER.alreadyActive,
              count: 2,
              sample: [
                { id: 3, login: 'c3' },
                { id: 4, login: 'c4' },
              ],
            },
          ],
        }),
      },
    });
    const { modal, ok } = renderSelection('activate');
    expect(modal().querySelector('.ant-modal-title')!.textContent).toBe(BULK_FILTER.previewTitle(BULK_FILTER.actions.activate));
    fireEvent.click(ok());
    await waitFor(() => expect(modal().querySelector('[data-testid="bulk-refused"]')?.textContent).toBe(`${BULK_FILTER.alreadyActive} (2): c3, c4`));
    expect(modal().textContent).toContain(BULK_FILTER.refusedTitle(2));
    expect(ok().disabled).toBe(true);
  });

  it('Send Message: requires the text before asking, then previews and sends it to the selected ids', async () => {
    fake.on('POST', 'accounts/bulk/preview', { status: 200, body: { data: direct({ action: 'message', matched: 2, applicable: 2, credits: 0 }) } });
    fake.on('POST', 'accounts/bulk/9/apply', { status: 200, body: { message: BULK_FILTER.done(2), data: doneJob({ action: 'message' }) } });
    const { modal, ok, onDone } = renderSelection('message');
    const box = modal().querySelector<HTMLTextAreaElement>('#bulk-message')!;
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.click(ok());
    await waitFor(() => expect(modal().textContent).toContain(ACCOUNTS.messageRequired));
    expect(fake.calls('POST', 'accounts/bulk/preview')).toHaveLength(0);

    fireEvent.change(modal().querySelector<HTMLTextAreaElement>('#bulk-message')!, { target: { value: ' Maintenance tonight ' } });
    fireEvent.click(ok());
    await waitFor(() => expect(modal().querySelector('[data-testid="bulk-preview"]')).toBeTruthy());
    expect(fake.calls('POST', 'accounts/bulk/preview')[0].body).toEqual({ action: 'message', message: 'Maintenance tonight', account_ids: [3, 4] });
    fireEvent.click(ok());
    await waitFor(() => expect(onDone).toHaveBeenCalled());
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
