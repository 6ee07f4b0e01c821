/**
 * The columns a user hides in a list (useColumnChoice): remembered per signed-in user and list in
 * localStorage, read back on the next mount, and applied by DataTable's Columns chooser, which never
 * offers the key columns.
 */
import './dom';
import { Refine } from '@refinedev/core';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DataTable } from '../../src/components/DataTable';
import { columnChoiceKey, useColumnChoice } from '../../src/components/DataTable/columnChoice';
import { DATA_TABLE } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { signedInAs } from './fakeAuth';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;
beforeEach(() => {
  localStorage.clear();
  fake = fakeHttp();
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

describe('useColumnChoice', () => {
  it('stores the hidden columns under the user and the list, and reads them back on the next mount', async () => {
    const first = renderProbe(7);
    // The identity arrives after the first render: until then nothing is stored.
    await waitFor(() => expect(localStorage.length).toBe(0));
    await waitFor(() => expect(choice[0]).toEqual([]));
    await waitFor(() => {
      act(() => choice[1](['created_at', 'total_children']));
      expect(localStorage.getItem(columnChoiceKey(7, 'resellers'))).toBe('["created_at","total_children"]');
    });
    expect(screen.getByTestId('hidden').textContent).toBe('created_at,total_children');
    first.unmount();

    const again = renderProbe(7);
    await waitFor(() => expect(screen.getByTestId('hidden').textContent).toBe('created_at,total_children'));
    again.unmount();
  });

  it('is per user and per list', async () => {
    localStorage.setItem(columnChoiceKey(7, 'resellers'), '["created_at"]');
    const other = renderProbe(8);
    await waitFor(() => expect(fake.requests.length + 1).toBeGreaterThan(0));
    // Another user sees every column of the same list.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('hidden').textContent).toBe('');
    other.unmount();
    const otherList = renderProbe(7, 'dealers');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('hidden').textContent).toBe('');
    otherList.unmount();
    const same = renderProbe(7);
    await waitFor(() => expect(screen.getByTestId('hidden').textContent).toBe('created_at'));
    same.unmount();
  });

  it('shows every column when what is stored is not a list of names', async () => {
    localStorage.setItem(columnChoiceKey(7, 'resellers'), '{not json');
    const view = renderProbe(7);
    await new Promise((r) => setTimeout(r, 50));
    expect(choice[0]).toEqual([]);
    view.unmount();
    localStorage.setItem(columnChoiceKey(7, 'resellers'), '[1, "status", null]');
    renderProbe(7);
    await waitFor(() => expect(choice[0]).toEqual(['status']));
  });
});

describe('DataTable with a column chooser', { timeout: 120_000 }, () => {
  it('offers the optional columns only, hides the unticked one, and remembers it', async () => {
    fake.on('GET', 'managers', {
      status: 200,
      body: { data: [{ id: 1, name: 'Ann', username: 'ann', phone: '555' }], meta: { total: 1, current_page: 1, per_page: 10, last_page: 1 } },
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
              { dataIndex: 'phone', title: 'Phone' },
            ]}
          />
        </Refine>,
      );
    const headers = (container: HTMLElement) => [...container.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent);
    const view = table();
    await waitFor(() => expect(view.container.textContent).toContain('Ann'));
    expect(headers(view.container)).toEqual(['Name', 'Username', 'Phone']);

    fireEvent.click(screen.getByRole('button', { name: new RegExp(DATA_TABLE.columns) }));
    const chooser = await screen.findByTestId('column-chooser');
    // The key column is not offered: it names the row.
    expect([...chooser.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Username', 'Phone']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Phone' }));
    await waitFor(() => expect(headers(view.container)).toEqual(['Name', 'Username']));
    expect(localStorage.getItem(columnChoiceKey(3, 'managers'))).toBe('["phone"]');
    view.unmount();

    const again = table();
    await waitFor(() => expect(again.container.textContent).toContain('Ann'));
    await waitFor(() => expect(headers(again.container)).toEqual(['Name', 'Username']));
  });
});
