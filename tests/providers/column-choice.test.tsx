/**
 * The columns a user hides in a list (useColumnChoice): shown at once and cached per signed-in user and
 * list in localStorage, saved on the server (PATCH /profile/preferences), and taken from the server
 * on first use, so the choice follows the user to another browser; applied by DataTable's Columns
 * chooser, which offers only the list's choosable columns (never the key ones).
 */
import './dom';
import { Refine } from '@refinedev/core';
import type { AxiosInstance } from 'axios';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DataTable } from '../../src/components/DataTable';
import { columnChoice, columnChoiceKey, useColumnChoice } from '../../src/components/DataTable/columnChoice';
import { DATA_TABLE } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { signedInAs } from './fakeAuth';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;
beforeEach(() => {
  localStorage.clear();
  columnChoice.reset();
  // The hook talks to the panel's own client; its network is this fake.
  fake = fakeHttp(http);
  fake.on('GET', 'profile/preferences', { status: 200, body: { data: { colorScheme: 'system' } } });
  fake.on('PATCH', 'profile/preferences', (request) => ({
    status: 200,
    body: { data: { colorScheme: 'system', hiddenColumns: (request.body as { hiddenColumns: unknown }).hiddenColumns } },
  }));
});

const user = (id: number) => ({ id, name: `User ${id}`, username: `user${id}`, role: 'admin', credits: null });

let choice: ReturnType<typeof useColumnChoice>;
function Probe({ list }: { list: string }) {
  choice = useColumnChoice(list);
  return <span data-testid="hidden">{choice[0].join(',')}</span>;
}

function renderProbe(id: number, list = 'resellers') {
  return render(
    <Refine dataProvider={createDataProvider(fake.http)} authProvider={signedInAs(user(id))} options={{ disableTelemetry: true }}>
      <Probe list={list} />
    </Refine>,
  );
}
const shown = () => screen.getByTestId('hidden').textContent;

describe('useColumnChoice', () => {
  it('shows a choice at once, caches it under the user and the list, and saves that list on the server', async () => {
    const first = renderProbe(7);
    await waitFor(() => expect(fake.calls('GET', 'profile/preferences')).toHaveLength(1));
    act(() => choice[1](['created_at', 'total_children']));
    // Before the server answers.
    expect(shown()).toBe('created_at,total_children');
    expect(localStorage.getItem(columnChoiceKey(7, 'resellers'))).toBe('["created_at","total_children"]');
    await waitFor(() =>
      expect(fake.calls('PATCH', 'profile/preferences').map((r) => r.body)).toEqual([{ hiddenColumns: { resellers: ['created_at', 'total_children'] } }]),
    );
    // Showing every column again forgets the list on the server.
    act(() => choice[1]([]));
    await waitFor(() => expect(fake.calls('PATCH', 'profile/preferences').at(-1)?.body).toEqual({ hiddenColumns: { resellers: null } }));
    expect(localStorage.getItem(columnChoiceKey(7, 'resellers'))).toBeNull();
    act(() => choice[1](['password']));
    first.unmount();

    // The next mount paints the cached choice, and reads the server only once per page load.
    const again = renderProbe(7);
    await waitFor(() => expect(shown()).toBe('password'));
    again.unmount();
    expect(fake.calls('GET', 'profile/preferences')).toHaveLength(1);
  });

  it("takes the server's choice on first use (another browser's), over what this browser cached", async () => {
    localStorage.setItem(columnChoiceKey(7, 'resellers'), '["created_at"]');
    localStorage.setItem(columnChoiceKey(7, 'dealers'), '["created_at"]');
    fake.on('GET', 'profile/preferences', { status: 200, body: { data: { colorScheme: 'system', hiddenColumns: { resellers: ['password', 'total_accounts'] } } } });
    const view = renderProbe(7);
    await waitFor(() => expect(shown()).toBe('password,total_accounts'));
    view.unmount();
    // A list the server keeps nothing for shows every column.
    const dealers = renderProbe(7, 'dealers');
    expect(localStorage.getItem(columnChoiceKey(7, 'dealers'))).toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    expect(shown()).toBe('');
    dealers.unmount();
  });

  it('never lets a slower server answer undo a choice made meanwhile', async () => {
    let answer: (reply: unknown) => void = () => undefined;
    const slow = { get: () => new Promise((resolve) => (answer = resolve)) } as unknown as AxiosInstance;
    const loading = columnChoice.load(7, slow);
    const saving = columnChoice.save(7, 'resellers', ['created_at']);
    answer({ data: { data: { hiddenColumns: { resellers: ['password'], dealers: ['total_accounts'] } } } });
    await Promise.all([loading, saving]);
    const view = renderProbe(7);
    await waitFor(() => expect(shown()).toBe('created_at'));
    view.unmount();
    // The lists not chosen here meanwhile take the server's answer.
    renderProbe(7, 'dealers');
    await waitFor(() => expect(shown()).toBe('total_accounts'));
    // Read once for the user: the mounts asked nothing more.
    expect(fake.calls('GET', 'profile/preferences')).toHaveLength(0);
  });

  it('keeps the choice in this browser when the server refuses to save it', async () => {
    fake.on('PATCH', 'profile/preferences', { status: 503, body: { message: 'Maintenance' } });
    const view = renderProbe(7);
    await waitFor(() => expect(fake.calls('GET', 'profile/preferences')).toHaveLength(1));
    act(() => choice[1](['created_at']));
    await waitFor(() => expect(fake.calls('PATCH', 'profile/preferences')).toHaveLength(1));
    expect(shown()).toBe('created_at');
    expect(localStorage.getItem(columnChoiceKey(7, 'resellers'))).toBe('["created_at"]');
    view.unmount();
  });

  it('is per user and per list', async () => {
    localStorage.setItem(columnChoiceKey(7, 'resellers'), '["created_at"]');
    const other = renderProbe(8);
    await waitFor(() => expect(fake.calls('GET', 'profile/preferences')).toHaveLength(1));
    // Another user sees every column of the same list.
    expect(shown()).toBe('');
    other.unmount();
    const otherList = renderProbe(7, 'dealers');
    expect(shown()).toBe('');
    otherList.unmount();
    // A list that keeps no choice stores nothing and asks nothing.
    const unknown = renderProbe(7, 'tickets');
    act(() => choice[1](['subject']));
    expect(shown()).toBe('');
    unknown.unmount();
    expect(fake.calls('PATCH', 'profile/preferences')).toHaveLength(0);
  });

  it("shows every column when what is cached is not a list of the list's columns", async () => {
    fake.on('GET', 'profile/preferences', { networkError: 'offline' });
    localStorage.setItem(columnChoiceKey(7, 'resellers'), '{not json');
    const view = renderProbe(7);
    await waitFor(() => expect(fake.calls('GET', 'profile/preferences')).toHaveLength(1));
    expect(choice[0]).toEqual([]);
    view.unmount();
    columnChoice.reset();
    localStorage.setItem(columnChoiceKey(7, 'resellers'), '[1, "created_at", null, "login"]');
    renderProbe(7);
    await waitFor(() => expect(choice[0]).toEqual(['created_at']));
  });
});

describe('DataTable with a column chooser', { timeout: 120_000 }, () => {
  it('offers only the columns its list may hide, hides the unticked one, and remembers it', async () => {
    fake.on('GET', 'managers', {
      status: 200,
      body: {
        data: [{ id: 1, name: 'Ann', username: 'ann', total_accounts: 4, created_at: '2026-01-01T00:00:00Z' }],
        meta: { total: 1, current_page: 1, per_page: 10, last_page: 1 },
      },
    });
    const table = () =>
      render(
        <Refine
          dataProvider={createDataProvider(fake.http)}
          authProvider={signedInAs(user(3))}
          resources={[{ name: 'managers', list: '/managers' }]}
          options={{ disableTelemetry: true }}
        >
          <DataTable
            resource="managers"
            columnChooser
            columns={[
              { dataIndex: 'name', title: 'Name', priority: 'key' },
              { dataIndex: 'username', title: 'Username' },
              { dataIndex: 'total_accounts', title: 'Total Users' },
              { dataIndex: 'created_at', title: 'Created' },
            ]}
          />
        </Refine>,
      );
    const headers = (container: HTMLElement) => [...container.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent);
    const view = table();
    await waitFor(() => expect(view.container.textContent).toContain('Ann'));
    expect(headers(view.container)).toEqual(['Name', 'Username', 'Total Users', 'Created']);

    fireEvent.click(screen.getByRole('button', { name: new RegExp(DATA_TABLE.columns) }));
    const chooser = await screen.findByTestId('column-chooser');
    // The key column is not offered (it names the row), nor one the server keeps no choice for.
    expect([...chooser.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Total Users', 'Created']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Total Users' }));
    await waitFor(() => expect(headers(view.container)).toEqual(['Name', 'Username', 'Created']));
    expect(localStorage.getItem(columnChoiceKey(3, 'managers'))).toBe('["total_accounts"]');
    await waitFor(() => expect(fake.calls('PATCH', 'profile/preferences').map((r) => r.body)).toEqual([{ hiddenColumns: { managers: ['total_accounts'] } }]));
    view.unmount();

    const again = table();
    await waitFor(() => expect(again.container.textContent).toContain('Ann'));
    await waitFor(() => expect(headers(again.container)).toEqual(['Name', 'Username', 'Created']));
  });
});
