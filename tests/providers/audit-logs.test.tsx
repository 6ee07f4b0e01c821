/**
 * The audit log viewer over a fake HTTP layer: 15 a page by default with 10/15/25/50/100 offered,
 * filters sent as the API's plain parameters, the details dialog with old and new values side by
 * side, stats cards, and silence when a load fails.
 */
import { waitFor } from './dom';
import { type AccessControlProvider, type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AUDIT, AUDIT_LABELS, AUDIT_PAGE_SIZES, can } from '../../src/contract';
import { AuditLogsPage } from '../../src/resources/auditLogs/list';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { type FakeHttp, fakeHttp } from './fakeHttp';
import { signedInAs } from './fakeAuth';

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
});

const entry = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  module: 'ticket_categories',
  action: 'update',
  user_id: 1,
  username: 'admin',
  target_username: null,
  entity_id: 3,
  description: `Entry ${id}`,
  ip_address: '127.0.0.1',
  user_agent: 'test',
  old_values: { name: 'Billing', description: 'before' },
  new_values: { name: 'Billing', description: 'after' },
  created_at: '2030-01-01T10:00:00.000Z',
  ...extra,
});

function renderPage() {
  const authProvider = signedInAs({ id: 1, name: 'Administrator', username: 'admin', role: 'admin' });
  const accessControlProvider: AccessControlProvider = { can: async ({ resource, action }) => ({ can: can('admin', resource ?? '', action) }) };
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  return render(
    <MemoryRouter>
      <Refine
        dataProvider={createDataProvider(fake.http)}
        authProvider={authProvider}
        accessControlProvider={accessControlProvider}
        notificationProvider={notificationProvider}
        options={{ disableTelemetry: true }}
      >
        <AuditLogsPage />
      </Refine>
    </MemoryRouter>,
  );
}

describe('audit log viewer', { timeout: 60_000 }, () => {
  it('loads 15 a page, offers 10/15/25/50/100, shows the stats and sends filters as plain parameters', async () => {
    fake.on('GET', 'audit-logs', {
      status: 200,
      body: { data: [entry(1), entry(2)], pagination: { current_page: 1, last_page: 4, per_page: 15, total: 52, from: 1, to: 15 } },
    });
    fake.on('GET', 'audit-logs/stats', {
      status: 200,
      body: {
        data: {
          total_logs: 52,
          today: 7,
          by_module: [
            { module: 'a', count: 1 },
            { module: 'b', count: 2 },
          ],
          by_action: [{ action: 'x', count: 3 }],
          by_date: [],
        },
      },
    });
    fake.on('GET', 'audit-logs/modules', { status: 200, body: { data: ['auth', 'ticket_categories'] } });
    fake.on('GET', 'audit-logs/actions', { status: 200, body: { data: ['create', 'login'] } });
    const view = renderPage();
    await view.findByText('Entry 2', undefined, { timeout: 25_000 });
    expect(fake.calls('GET', 'audit-logs')[0].query).toEqual({ page: '1', per_page: '15' });
    const card = (title: string) => view.getByText(title).closest('.ant-card')!.textContent;
    expect(card(AUDIT_LABELS.totalLogs)).toContain('52');
    expect(card(AUDIT_LABELS.modules)).toContain('2');
    expect(card(AUDIT_LABELS.actions)).toContain('1');
    expect(card(AUDIT_LABELS.recentActivity)).toContain('7');
    expect(view.getByText('52 total')).toBeTruthy();

    fireEvent.mouseDown(view.getByRole('combobox', { name: 'Rows per page' }));
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option').length).toBeGreaterThan(0));
    expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => Number(o.textContent))).toEqual([...AUDIT_PAGE_SIZES]);

    fireEvent.change(view.getByLabelText('Username'), { target: { value: 'admin' } });
    await waitFor(() => expect(fake.calls('GET', 'audit-logs').some((r) => r.query.username === 'admin')).toBe(true));
    const withUser = fake.calls('GET', 'audit-logs').find((r) => r.query.username === 'admin')!;
    expect(Object.keys(withUser.query).some((k) => k.startsWith('filter['))).toBe(false);
    expect(notify).not.toHaveBeenCalled();
  });

  it('opens the details with the old and new values side by side, the changed field marked', async () => {
    fake.on('GET', 'audit-logs', { status: 200, body: { data: [entry(9)], pagination: { current_page: 1, last_page: 1, per_page: 15, total: 1, from: 1, to: 1 } } });
    const view = renderPage();
    fireEvent.click(await view.findByRole('button', { name: 'Details of entry 9' }, { timeout: 25_000 }));
    const dialog = await view.findByTestId('audit-details');
    const values = within(dialog).getByTestId('audit-values');
    expect(within(values).getAllByText(AUDIT.oldValues).length).toBeGreaterThan(0);
    expect(within(values).getAllByText(AUDIT.newValues).length).toBeGreaterThan(0);
    const row = within(values).getAllByText('description')[0].closest('tr')!;
    expect(row.textContent).toContain('before');
    expect(row.textContent).toContain('after');
    expect(row.querySelector('.ant-tag')?.textContent).toBe('description');
    expect(within(values).getAllByText('name')[0].closest('tr')!.querySelector('.ant-tag')).toBeNull();
  });

  it('stays silent when the loads fail: no toast, an empty table', async () => {
    fake.otherwise({ status: 500, body: { message: 'Server Error' } });
    const view = renderPage();
    await waitFor(() => expect(fake.calls('GET', 'audit-logs').length).toBeGreaterThan(0));
    await waitFor(() => expect(view.getByText('No data found')).toBeTruthy());
    expect(notify).not.toHaveBeenCalled();
  });
});
