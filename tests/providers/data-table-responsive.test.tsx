/**
 * The shared DataTable fitting the screen: which columns stay in the row and which fold into its
 * details; the phone card with the key columns and an inline action; labelled row checkboxes; the
 * empty states; the page's h1.
 */
import './dom';
import { Refine } from '@refinedev/core';
import { fireEvent, render, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DataColumn, DataTable, type DataTableProps, type ListColumn } from '../../src/components/DataTable';
import { fitColumns } from '../../src/components/DataTable/fit';
import { PhoneList } from '../../src/components/DataTable/PhoneList';
import { PageHeadingProvider } from '../../src/components/layout/PageHeading';
import { createDataProvider } from '../../src/providers/dataProvider';
import { type FakeHttp, fakeHttp } from './fakeHttp';

describe('fitColumns', () => {
  const col = (name: string, extra: Partial<DataColumn<object>> = {}) => ({ dataIndex: name, title: name, ...extra }) as DataColumn<object> & { dataIndex: string };
  const names = (cols: Array<{ dataIndex: string }>) => cols.map((c) => c.dataIndex);
  const all = { xs: false, sm: true, md: true, lg: true, xl: true, xxl: true };

  it('keeps every column while they fit, and secondary ones always in the details', () => {
    const columns = [col('login', { priority: 'key' }), col('name'), col('balance', { priority: 'secondary' })];
    const { shown, folded } = fitColumns(columns, 1000, all);
    expect(names(shown)).toEqual(['login', 'name']);
    expect(names(folded)).toEqual(['balance']);
  });

  it('folds the last declared non-key columns first until the row fits, never a key column', () => {
    const columns = [
      col('login', { priority: 'key' }),
      col('name'),
      col('mac', { priority: 'key', width: 180 }),
      col('server'),
      col('status', { priority: 'key' }),
      col('created'),
    ];
    // 150 + 180 + 150 = 480 for the keys; each other column is 150.
    expect(names(fitColumns(columns, 640, all).shown)).toEqual(['login', 'name', 'mac', 'status']);
    expect(names(fitColumns(columns, 640, all).folded)).toEqual(['server', 'created']);
    expect(names(fitColumns(columns, 100, all).shown)).toEqual(['login', 'mac', 'status']);
    expect(names(fitColumns(columns, 10_000, all).folded)).toEqual([]);
  });

  it('treats the first column as the key when none is declared, and folds below a column’s breakpoints', () => {
    const columns = [col('name'), col('username'), col('created', { responsive: ['lg'] })];
    expect(names(fitColumns(columns, 100, all).shown)).toEqual(['name']);
    expect(names(fitColumns(columns, null, { ...all, lg: false }).folded)).toEqual(['created']);
    expect(names(fitColumns(columns, null, all).folded)).toEqual([]);
  });
});

interface Account {
  id: number;
  login: string;
  mac: string;
  expiry: string;
  status: string;
  server: { name: string };
}

const ROWS: Account[] = [
  { id: 1, login: 'alice.w', mac: '00:1A:79:00:00:04', expiry: '2027-01-01', status: 'active', server: { name: 'Main' } },
  { id: 2, login: 'bob.jones', mac: '00:1A:79:00:00:03', expiry: '2026-01-01', status: 'suspended', server: { name: 'Backup' } },
];

const columns: Array<ListColumn<Account, 'accounts'>> = [
  { dataIndex: 'login', title: 'Login', priority: 'key', sortable: true },
  { dataIndex: 'server.name', title: 'Server' },
  { dataIndex: 'mac', title: 'MAC', priority: 'key' },
  { dataIndex: 'expiry', title: 'Expiry', priority: 'key', inlineAction: 'renew' },
  { dataIndex: 'status', title: 'Status', priority: 'key' },
];

let fake: FakeHttp;
const realMatchMedia = window.matchMedia;

/** A window of `width` px as antd's breakpoints see it. */
function viewport(width: number) {
  window.matchMedia = (query: string) => {
    const min = /min-width:\s*(\d+)/.exec(query);
    const max = /max-width:\s*(\d+(?:\.\d+)?)/.exec(query);
    const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    } as MediaQueryList;
  };
}

beforeEach(() => {
  fake = fakeHttp();
  fake.on('GET', 'accounts', { status: 200, body: { data: ROWS, meta: { total: 2 } } });
});
afterEach(() => {
  window.matchMedia = realMatchMedia;
});

function renderTable(props: Partial<DataTableProps<Account, 'accounts'>> = {}, wrap: (node: ReactNode) => ReactNode = (n) => n) {
  const renew = vi.fn();
  const view = render(
    <Refine dataProvider={createDataProvider(fake.http)} resources={[{ name: 'accounts', list: '/accounts' }]} options={{ disableTelemetry: true }}>
      {wrap(
        <DataTable<Account, 'accounts'>
          resource="accounts"
          title="Users"
          columns={columns}
          rowActions={() => [
            { key: 'renew', label: 'Quick Renew', onClick: renew },
            { key: 'delete', label: 'Delete', danger: true, onClick: () => undefined },
          ]}
          bulkActions={[{ key: 'suspend', label: 'Suspend', onClick: () => undefined }]}
          {...props}
        />,
      )}
    </Refine>,
  );
  return { view, renew };
}

describe('DataTable on screens of every size', { timeout: 30_000 }, () => {
  it('on a phone shows each row as a card: key columns, the inline Renew, the rest under More details', async () => {
    viewport(390);
    const { view, renew } = renderTable();
    await waitFor(() => expect(view.getByTestId('data-table-cards')).toBeTruthy(), { timeout: 10_000 });
    expect(view.container.querySelector('.ant-table')).toBeNull();
    const cards = view.container.querySelectorAll('.data-table-card');
    expect(cards).toHaveLength(2);
    const alice = within(cards[0] as HTMLElement);
    for (const text of ['alice.w', 'MAC', '00:1A:79:00:00:04', 'Expiry', '2027-01-01', 'Status', 'active']) alice.getByText(text);
    // The non-key column is in the card's details, not on its face.
    const details = cards[0].querySelector('details')!;
    expect(details.querySelector('summary')!.textContent).toBe('More details');
    expect(details.textContent).toContain('Main');
    expect(cards[0].querySelector('.data-table-card-fields')!.textContent).not.toContain('Main');
    // Renew sits beside the expiry and acts on this row.
    fireEvent.click(alice.getByRole('button', { name: 'Quick Renew' }));
    expect(renew).toHaveBeenCalledWith(ROWS[0]);
    // Each row's menu is named after its row, its visible text first.
    alice.getByRole('button', { name: 'Actions for alice.w' });
    alice.getByRole('checkbox', { name: 'Select alice.w' });
    view.getByRole('checkbox', { name: 'Select all on this page' });
  });

  it('on a desktop shows a table whose row checkboxes are labelled by the row', async () => {
    viewport(1440);
    const { view } = renderTable();
    await waitFor(() => expect(view.getByText('alice.w')).toBeTruthy(), { timeout: 10_000 });
    expect(view.queryByTestId('data-table-cards')).toBeNull();
    view.getByRole('checkbox', { name: 'Select alice.w' });
    view.getByRole('checkbox', { name: 'Select bob.jones' });
    view.getByRole('button', { name: 'Actions for bob.jones' });
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(expect.arrayContaining(['Login', 'MAC', 'Expiry', 'Status']));
  });

  it('makes its title the page’s h1, and a second table’s title a sub-heading', async () => {
    viewport(1440);
    const { view } = renderTable({}, (table) => (
      <PageHeadingProvider title="Users page">
        {table}
        <DataTable<Account, 'accounts'> resource="accounts" title="Also here" columns={columns} />
      </PageHeadingProvider>
    ));
    await waitFor(() => expect(view.getAllByText('alice.w').length).toBeGreaterThan(0), { timeout: 10_000 });
    const h1s = view.container.querySelectorAll('h1');
    expect([...h1s].map((h) => h.textContent)).toEqual(['Users']);
    expect(view.container.querySelector('h2')!.textContent).toBe('Also here');
  });

  it('gives a page without a title of its own a hidden h1 with the route’s title', () => {
    const view = render(
      <PageHeadingProvider title="Dashboard">
        <p>cards</p>
      </PageHeadingProvider>,
    );
    const h1s = view.container.querySelectorAll('h1');
    expect(h1s).toHaveLength(1);
    expect(h1s[0].textContent).toBe('Dashboard');
    expect(h1s[0].className).toContain('visually-hidden');
  });

  it('says what to do next when the list is empty, with the button that does it', async () => {
    viewport(1440);
    fake.on('GET', 'accounts', { status: 200, body: { data: [], meta: { total: 0 } } });
    const add = vi.fn();
    const { view } = renderTable({ empty: { hint: 'Nothing here yet: add the first user.', action: <button onClick={add}>Add User</button> } });
    await waitFor(() => view.getByText('Nothing here yet: add the first user.'), { timeout: 10_000 });
    view.getByText('No data found');
    fireEvent.click(view.getByRole('button', { name: 'Add User' }));
    expect(add).toHaveBeenCalled();
  });

  it('says nothing matches a search, and clears it', async () => {
    viewport(1440);
    fake.on('GET', 'accounts', { status: 200, body: { data: [], meta: { total: 0 } } });
    const { view } = renderTable({ empty: { hint: 'Nothing here yet: add the first user.' } });
    const search = view.getByRole('textbox', { name: 'Search' }) as HTMLInputElement;
    fireEvent.change(search, { target: { value: 'zzz' } });
    await waitFor(() => view.getByText('Nothing matches the search or filters.'), { timeout: 10_000 });
    expect(view.queryByText('Nothing here yet: add the first user.')).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Clear search and filters' }));
    expect(search.value).toBe('');
    await waitFor(() => view.getByText('Nothing here yet: add the first user.'), { timeout: 10_000 });
  });

  it('on a phone keeps the place of what the cards bring while they load: the page checkbox is there, the placeholders are replaced, not moved', () => {
    const list = (rows: Account[], loading: boolean) => (
      <PhoneList<Account>
        rows={rows}
        rowKey="id"
        keyColumns={columns.filter((c) => c.priority === 'key') as Array<DataColumn<Account, string>>}
        otherColumns={columns.filter((c) => c.priority !== 'key') as Array<DataColumn<Account, string>>}
        rowActions={() => [{ key: 'delete', label: 'Delete', onClick: () => undefined }]}
        selectable
        selected={[]}
        onSelect={() => undefined}
        loading={loading}
        empty="Nothing"
      />
    );
    const view = render(list([], true));
    const selectPage = view.getByRole('checkbox', { name: 'Select all on this page' }) as HTMLInputElement;
    expect(selectPage.disabled).toBe(true);
    const placeholders = view.container.querySelector('ul.data-table-cards')!;
    expect(placeholders.getAttribute('aria-hidden')).toBe('true');
    // Each placeholder card's head has the row checkbox's place too.
    expect([...placeholders.querySelectorAll('.data-table-card-head')].every((head) => head.querySelector('.ant-checkbox'))).toBe(true);

    // The rows' ids are the placeholders' keys (1, 2): still new cards in a new list.
    view.rerender(list(ROWS, false));
    expect(view.getByRole('checkbox', { name: 'Select all on this page' })).toBe(selectPage);
    expect(selectPage.disabled).toBe(false);
    expect(placeholders.isConnected).toBe(false);
    expect(view.getByTestId('data-table-cards').querySelectorAll('.data-table-card')).toHaveLength(2);

    // Loaded and empty: no page checkbox over the empty state.
    view.rerender(list([], false));
    expect(view.queryByRole('checkbox', { name: 'Select all on this page' })).toBeNull();
  });
});
