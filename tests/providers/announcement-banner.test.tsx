/**
 * The dashboard's announcement banner and Notifications button over a fake HTTP layer: at most 3
 * items, content cut at 150 characters, dismissal kept in localStorage, 'Expiring Soon', urgent
 * ones pulse, load failures silent; the button counts unread announcements and ticket replies.
 */
import { waitFor } from './dom';
import { type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AnnouncementBanner, NotificationsButton } from '../../src/features/announcements';
import { ANNOUNCEMENT_FORM, BANNER, STORAGE_KEYS } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { type FakeHttp, fakeHttp } from './fakeHttp';
import { signedInAs } from './fakeAuth';

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  localStorage.clear();
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
});

const item = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Notice ${id}`,
  content: `<p>Body of ${id}</p>`,
  type: 'info',
  priority: 'medium',
  target_roles: [],
  is_active: true,
  starts_at: null,
  expires_at: null,
  status: 'active',
  expiring_soon: false,
  creator: null,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  is_read: false,
  is_new: true,
  ...extra,
});

function renderAs(role: string, ui: React.ReactNode) {
  const authProvider = signedInAs({ id: 9, name: 'Dan Dealer', username: 'dealer', role });
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  return render(
    <MemoryRouter>
      <Refine dataProvider={createDataProvider(fake.http)} authProvider={authProvider} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
        {ui}
      </Refine>
    </MemoryRouter>,
  );
}

const titles = (root: HTMLElement) => [...root.querySelectorAll('[data-testid="banner-announcement"] .ant-alert-message strong')].map((e) => e.textContent);

describe('announcement banner', { timeout: 30_000 }, () => {
  it('shows at most 3 recent announcements with content cut at 150 characters, expiring soon and urgent marked', async () => {
    const long = 'x'.repeat(400);
    fake.on('GET', 'user/announcements/recent', {
      status: 200,
      body: {
        announcements: [item(1, { content: `<p>${long}</p>`, priority: 'urgent', expiring_soon: true }), item(2), item(3), item(4)],
      },
    });
    const { container } = renderAs('dealer', <AnnouncementBanner />);
    await waitFor(() => expect(titles(container)).toEqual(['Notice 1', 'Notice 2', 'Notice 3']));
    expect(BANNER.maxItems).toBe(3);
    const first = container.querySelector('[data-testid="banner-announcement"]')!;
    const text = first.querySelector('.ant-alert-description span')!.textContent!;
    expect(text).toBe(`${'x'.repeat(BANNER.contentCut)}…`);
    expect(first.className).toContain('announcement-urgent');
    expect(first.querySelector('[data-testid="expiring-soon"]')?.textContent).toBe(ANNOUNCEMENT_FORM.expiringSoon);
    expect(container.querySelectorAll('.announcement-urgent')).toHaveLength(1);
    expect(fake.calls('GET', 'user/announcements/recent')[0].query).toMatchObject({ limit: expect.any(String) });
  });

  it('hides a dismissed announcement for good (localStorage dismissed-announcements) and fills up from the rest', async () => {
    fake.on('GET', 'user/announcements/recent', { status: 200, body: { announcements: [item(1), item(2), item(3), item(4)] } });
    const first = renderAs('dealer', <AnnouncementBanner />);
    await waitFor(() => expect(titles(first.container)).toEqual(['Notice 1', 'Notice 2', 'Notice 3']));
    fireEvent.click(first.getByRole('button', { name: 'Dismiss Notice 2' }));
    await waitFor(() => expect(titles(first.container)).toEqual(['Notice 1', 'Notice 3', 'Notice 4']));
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.dismissedAnnouncements)!)).toEqual([2]);
    first.unmount();

    const again = renderAs('dealer', <AnnouncementBanner />);
    await waitFor(() => expect(titles(again.container)).toEqual(['Notice 1', 'Notice 3', 'Notice 4']));
  });

  it('shows admin what is live for anyone', async () => {
    fake.on('GET', 'announcements/visible', { status: 200, body: { data: [item(7)] } });
    const { container } = renderAs('admin', <AnnouncementBanner />);
    await waitFor(() => expect(titles(container)).toEqual(['Notice 7']));
    expect(fake.calls('GET', 'user/announcements/recent')).toHaveLength(0);
  });

  it('stays silent when the load fails: no banner, no toast', async () => {
    fake.on('GET', 'user/announcements/recent', { status: 500, body: { message: 'Server Error' } });
    const { container } = renderAs('dealer', <AnnouncementBanner />);
    await waitFor(() => expect(fake.calls('GET', 'user/announcements/recent').length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 50));
    expect(container.querySelector('[data-testid="announcement-banner"]')).toBeNull();
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('Notifications button', { timeout: 30_000 }, () => {
  it('counts unread announcements and unread tickets, and lists them when opened', async () => {
    fake.on('GET', 'user/announcements', { status: 200, body: { data: [item(1), item(2, { is_new: false, is_read: true })], meta: { total: 2 }, unread_count: 1 } });
    fake.on('GET', 'tickets', {
      status: 200,
      body: {
        data: {
          data: [{ id: 5, subject: 'Box frozen', user: { username: 'dealer' }, last_activity_at: '2030-01-01T00:00:00.000Z' }],
          total: 1,
          current_page: 1,
          per_page: 20,
        },
      },
    });
    const view = renderAs('dealer', <NotificationsButton />);
    await waitFor(() => expect(view.getByRole('button', { name: `${ANNOUNCEMENT_FORM.notifications} (2)` })).toBeTruthy());
    expect(fake.calls('GET', 'tickets')[0].query).toMatchObject({ unread: 'true' });
    fireEvent.click(view.getByRole('button', { name: `${ANNOUNCEMENT_FORM.notifications} (2)` }));
    await waitFor(() => expect(view.getByRole('link', { name: 'Box frozen' }).getAttribute('href')).toBe('/tickets?ticket=5'));
    expect(view.getByRole('link', { name: 'Notice 1' }).getAttribute('href')).toBe('/user-announcements?open=1');
    expect(view.queryByRole('link', { name: 'Notice 2' })).toBeNull();
  });

  it('asks admin only for tickets (admin reads no user announcements) and is silent on failures', async () => {
    fake.on('GET', 'tickets', { status: 500, body: { message: 'Server Error' } });
    const view = renderAs('admin', <NotificationsButton />);
    await waitFor(() => expect(fake.calls('GET', 'tickets').length).toBeGreaterThan(0));
    expect(fake.calls('GET', 'user/announcements')).toHaveLength(0);
    expect(view.getByRole('button', { name: `${ANNOUNCEMENT_FORM.notifications} (0)` })).toBeTruthy();
    expect(notify).not.toHaveBeenCalled();
  });
});
