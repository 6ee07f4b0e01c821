/**
 * The Notifications page over a fake HTTP layer that keeps its state: unread ones marked, Mark read
 * on one, Mark all read, Unread only, the delivery log; and the Notifications button counting the
 * unread notifications and linking to the page.
 */
import { type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCEMENT_FORM, NOTIFICATIONS } from '../../src/contract';
import { NotificationsButton } from '../../src/features/announcements';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { NotificationsPage } from '../../src/resources/notifications/list';
import { waitFor } from './dom';
import { signedInAs } from './fakeAuth';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;

interface Row {
  id: number;
  type: string;
  title: string;
  text: string;
  link: string | null;
  created_at: string;
  read_at: string | null;
}

/** Three notifications, two unread, served and changed like the API does. */
function serve() {
  const rows: Row[] = [
    {
      id: 3,
      type: 'credits_received',
      title: 'Credits received',
      text: 'reseller added 10 credits to your balance.',
      link: '/transactions',
      created_at: '2030-01-03T00:00:00.000Z',
      read_at: null,
    },
    {
      id: 2,
      type: 'ticket_reply',
      title: 'Ticket reply',
      text: 'reseller replied to the ticket "Box".',
      link: '/tickets?ticket=5',
      created_at: '2030-01-02T00:00:00.000Z',
      read_at: null,
    },
    { id: 1, type: 'announcement', title: 'Maintenance', text: 'Sunday night', link: null, created_at: '2030-01-01T00:00:00.000Z', read_at: '2030-01-01T10:00:00.000Z' },
  ];
  const unread = () => rows.filter((r) => r.read_at === null).length;
  fake.on('GET', 'notifications', (req) => {
    const data = req.query.unread === 'true' ? rows.filter((r) => r.read_at === null) : rows;
    return {
      status: 200,
      body: { data, meta: { total: data.length, current_page: 1, per_page: 20, last_page: 1, from: 1, to: data.length, total_exact: true }, unread_count: unread() },
    };
  });
  fake.on('GET', 'notifications/unread-count', () => ({ status: 200, body: { unread_count: unread() } }));
  fake.on('POST', /^notifications\/\d+\/read$/, (req) => {
    const row = rows.find((r) => `notifications/${r.id}/read` === req.path);
    if (!row) return { status: 404, body: { message: 'Not found' } };
    row.read_at ??= '2030-01-04T00:00:00.000Z';
    return { status: 200, body: { message: NOTIFICATIONS.markedRead, data: row } };
  });
  fake.on('POST', 'notifications/read-all', () => {
    const updated = unread();
    for (const r of rows) r.read_at ??= '2030-01-04T00:00:00.000Z';
    return { status: 200, body: { message: NOTIFICATIONS.allMarkedRead, data: { updated } } };
  });
  fake.on('GET', 'notifications/deliveries', {
    status: 200,
    body: {
      data: [
        {
          id: 7,
          channel: 'webhook',
          status: 'pending',
          attempts: 2,
          last_error: NOTIFICATIONS.webhookStatus(500),
          next_attempt_at: '2030-01-04T00:00:00.000Z',
          sent_at: null,
          created_at: '2030-01-03T00:00:00.000Z',
          event: { type: 'credits_received', title: 'Credits received' },
        },
      ],
    },
  });
  return rows;
}

beforeEach(() => {
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
});

function renderAs(ui: React.ReactNode) {
  const authProvider = signedInAs({ id: 9, name: 'Dan Dealer', username: 'dealer', role: 'dealer' });
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  return render(
    <MemoryRouter>
      <Refine dataProvider={createDataProvider(fake.http)} authProvider={authProvider} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
        {ui}
      </Refine>
    </MemoryRouter>,
  );
}

const items = (root: HTMLElement) => [...root.querySelectorAll('[data-testid="notification"]')] as HTMLElement[];
const unreadItems = (root: HTMLElement) => items(root).filter((e) => e.dataset.unread === 'true');

describe('Notifications page', { timeout: 90_000 }, () => {
  it('marks unread ones, marks one read, then all read, and shows the delivery log', async () => {
    serve();
    const view = renderAs(<NotificationsPage />);
    await waitFor(() => expect(items(view.container)).toHaveLength(3));
    expect(unreadItems(view.container)).toHaveLength(2);
    expect(view.getByTestId('notifications-unread').textContent).toContain('2');
    expect(view.getByRole('link', { name: 'Ticket reply' }).getAttribute('href')).toBe('/tickets?ticket=5');

    fireEvent.click(view.getByRole('button', { name: `${NOTIFICATIONS.markRead}: Ticket reply` }));
    await waitFor(() => expect(unreadItems(view.container)).toHaveLength(1));
    expect(fake.calls('POST', 'notifications/2/read')).toHaveLength(1);
    expect(view.queryByRole('button', { name: `${NOTIFICATIONS.markRead}: Ticket reply` })).toBeNull();

    // Unread only asks the API for the unread ones.
    fireEvent.click(view.getByRole('switch', { name: NOTIFICATIONS.unreadOnly }));
    await waitFor(() => expect(items(view.container)).toHaveLength(1));
    expect(fake.calls('GET', 'notifications').at(-1)!.query).toMatchObject({ unread: 'true' });
    fireEvent.click(view.getByRole('switch', { name: NOTIFICATIONS.unreadOnly }));
    await waitFor(() => expect(items(view.container)).toHaveLength(3));

    fireEvent.click(view.getByRole('button', { name: NOTIFICATIONS.markAllRead }));
    await waitFor(() => expect(unreadItems(view.container)).toHaveLength(0));
    expect(fake.calls('POST', 'notifications/read-all')).toHaveLength(1);
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', message: NOTIFICATIONS.allMarkedRead })));
    expect((view.getByRole('button', { name: NOTIFICATIONS.markAllRead }) as HTMLButtonElement).disabled).toBe(true);

    const log = view.getByTestId('delivery-log');
    await waitFor(() => expect(log.textContent).toContain(NOTIFICATIONS.webhookStatus(500)));
    expect(log.textContent).toContain(NOTIFICATIONS.deliveryStatus.pending);
    expect(log.textContent).toContain(NOTIFICATIONS.channels.webhook);
  });

  it('the Notifications button counts unread notifications and links to the page', async () => {
    serve();
    const view = renderAs(<NotificationsButton />);
    await waitFor(() => expect(view.getByRole('button', { name: `${ANNOUNCEMENT_FORM.notifications} (2)` })).toBeTruthy());
    fireEvent.click(view.getByRole('button', { name: `${ANNOUNCEMENT_FORM.notifications} (2)` }));
    await waitFor(() => expect(view.getByTestId('notifications-page-link').getAttribute('href')).toBe('/notifications'));
  });
});
