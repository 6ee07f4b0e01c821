/**
 * The servers page over a fake HTTP layer: each Ministra server's circuit breaker in its own column
 * (with the failures and until when calls are refused), and the per-server timeout in the form,
 * its default shown and the value typed sent as a number.
 */
import { waitFor } from './dom';
import { type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SERVERS, SERVER_DEFAULTS, type Server } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { ServersPage } from '../../src/resources/servers/list';
import { type FakeHttp, fakeHttp } from './fakeHttp';

const closed = { state: 'closed', failures: 0, opened_at: null, retry_at: null } as const;
const server = (id: number, name: string, extra: Partial<Server> = {}): Server => ({
  id,
  name,
  db_host: '10.0.0.9',
  db_username: 'stalker',
  db_port: '3306',
  db_name: 'stalker_db',
  driver: 'ministra',
  timeout_seconds: 5,
  status: 'active',
  connection_status: 'online',
  has_password: true,
  last_checked_at: null,
  breaker: closed,
  accounts_count: 0,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  ...extra,
});
const SERVERS_LISTED = [
  server(1, 'Healthy'),
  server(2, 'Failing', { breaker: { state: 'open', failures: 3, opened_at: '2030-01-01T10:00:00.000Z', retry_at: '2030-01-01T10:00:30.000Z' } }),
  server(3, 'Trying', { breaker: { state: 'half_open', failures: 4, opened_at: '2030-01-01T10:00:00.000Z', retry_at: '2030-01-01T10:01:00.000Z' } }),
  server(4, 'Panel only', { driver: 'local' }),
];

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
  fake.on('GET', 'servers', { status: 200, body: { data: SERVERS_LISTED, meta: { total: SERVERS_LISTED.length } } });
});

function renderPage() {
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const view = render(
    <MemoryRouter>
      <App>
        <Refine dataProvider={createDataProvider(fake.http)} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
          <ServersPage />
        </Refine>
      </App>
    </MemoryRouter>,
  );
  const row = (name: string) => [...view.baseElement.querySelectorAll('tr')].find((r) => r.textContent?.includes(name));
  const input = (field: string) => view.baseElement.querySelector<HTMLInputElement>(`#servers-create_${field}`)!;
  const button = (text: string) => [...view.baseElement.querySelectorAll('button')].find((b) => b.textContent?.trim() === text)!;
  return { view, row, input, button };
}

describe('Servers page', { timeout: 30_000 }, () => {
  it("shows each Ministra server's breaker; a local server has none", async () => {
    const { row } = renderPage();
    await waitFor(() => expect(row('Failing')).toBeDefined());
    expect(row('Healthy')!.textContent).toContain(SERVERS.breakerStates.closed);
    expect(row('Failing')!.textContent).toContain(SERVERS.breakerStates.open);
    expect(row('Trying')!.textContent).toContain(SERVERS.breakerStates.half_open);
    expect(row('Panel only')!.textContent).not.toMatch(/Closed|Open|Half-open/);
  });

  it('shows the default timeout in the form and sends the one typed as a number', async () => {
    fake.on('POST', 'servers', (r) => ({ status: 201, body: { data: server(9, 'New', r.body as Partial<Server>) } }));
    const { input, button } = renderPage();
    await waitFor(() => expect(button('Add Server')).toBeDefined());
    fireEvent.click(button('Add Server'));
    await waitFor(() => expect(input('timeout_seconds')).not.toBeNull());
    expect(input('timeout_seconds').value).toBe(String(SERVER_DEFAULTS.timeout_seconds));
    for (const [field, value] of [
      ['name', 'New'],
      ['db_host', 'db.example.com'],
      ['db_name', 'stalker_db'],
      ['db_username', 'stalker'],
    ]) {
      fireEvent.change(input(field), { target: { value } });
    }
    fireEvent.change(input('timeout_seconds'), { target: { value: '2' } });
    fireEvent.click(button('Save'));
    await waitFor(() => expect(fake.calls('POST', 'servers')).toHaveLength(1));
    expect(fake.calls('POST', 'servers')[0].body).toMatchObject({ name: 'New', timeout_seconds: 2 });
  });
});
