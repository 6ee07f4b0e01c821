/**
 * A list keeps its search, filters, sort, page and page size in the URL (docs/domain.md#lists): a
 * change is written in place, a URL (a reload, a bookmark, a shared link) gives its view on the first
 * render, Back and the menu's link bring the URL's view back with its inputs, values the list does not
 * offer are ignored, and a list in a dialog (no title) leaves the URL alone.
 */
import './dom';
import { Refine } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { type NavigateFunction, MemoryRouter, Route, Routes, useLocation, useNavigate, useNavigationType } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from '../../src/components/DataTable';
import { createDataProvider } from '../../src/providers/dataProvider';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;
beforeEach(() => {
  localStorage.clear();
  fake = fakeHttp();
  fake.on('GET', 'managers', (request) => ({
    status: 200,
    body: { data: [{ id: Number(request.query.page ?? 1), name: `Row of page ${request.query.page}` }], meta: { total: 60 } },
  }));
});

const STATUS = {
  field: 'is_active',
  label: 'Status',
  options: [
    { label: 'Active', value: true },
    { label: 'Inactive', value: false },
  ],
};

/** Where the router is, and a way to move it as the browser would. */
const where = { path: '', type: '', navigate: null as NavigateFunction | null };
function Probe() {
  const location = useLocation();
  where.path = `${location.pathname}${location.search}`;
  where.type = useNavigationType();
  where.navigate = useNavigate();
  return null;
}

function tree(url: string, { inDialog = false, statusOptions = STATUS.options } = {}) {
  const title = inDialog ? undefined : 'Managers';
  return (
    <MemoryRouter initialEntries={['/transactions', url]} initialIndex={1}>
      <Refine
        dataProvider={createDataProvider(fake.http)}
        routerProvider={routerProvider}
        resources={[{ name: 'managers', list: '/managers' }]}
        options={{ disableTelemetry: true }}
      >
        <Probe />
        <Routes>
          <Route
            path="/managers"
            element={
              <DataTable
                resource="managers"
                title={title}
                columns={[{ dataIndex: 'name', title: 'Name', sortable: true }]}
                selectFilters={[{ ...STATUS, options: statusOptions }]}
              />
            }
          />
          <Route path="/transactions" element={<p>Transactions</p>} />
        </Routes>
      </Refine>
    </MemoryRouter>
  );
}
const renderAt = (url: string, options: Parameters<typeof tree>[1] = {}) => render(tree(url, options));

const calls = () => fake.requests.filter((r) => r.method === 'GET' && r.path === 'managers');
const lastQuery = () => calls().at(-1)?.query;
const searchBox = (view: ReturnType<typeof render>) => view.container.querySelector<HTMLInputElement>('input[aria-label="Search"]')!;
const statusShown = (view: ReturnType<typeof render>) => view.container.querySelector('.data-table-toolbar .ant-select-selection-item')?.textContent;
const query = (path: string) => new URLSearchParams(path.split('?')[1] ?? '');

describe('lists in the URL', { timeout: 30_000 }, () => {
  it('writes search, filter, sort and page into the URL in place, and asks for page 1 when a filter changes', async () => {
    const view = renderAt('/managers');
    await waitFor(() => expect(view.container.textContent).toContain('Row of page 1'));
    expect(where.path).toBe('/managers');

    fireEvent.change(searchBox(view), { target: { value: 'a&b #1' } });
    await waitFor(() => expect(lastQuery()?.['filter[search]']).toBe('a&b #1'), { timeout: 3000 });
    await waitFor(() => expect(query(where.path).get('filters[0][value]')).toBe('a&b #1'));
    expect(where.type).toBe('REPLACE');

    fireEvent.click(view.getByText('Name'));
    await waitFor(() => expect(query(where.path).get('sorters[0][field]')).toBe('name'));
    expect(lastQuery()).toMatchObject({ sort: 'name', order: 'asc' });

    fireEvent.click(view.getByLabelText('Next page'));
    await waitFor(() => expect(query(where.path).get('currentPage')).toBe('2'));
    expect(lastQuery()?.page).toBe('2');

    // A filter change goes back to page 1 (and page 1 is not written).
    fireEvent.mouseDown(view.container.querySelector('.data-table-toolbar .ant-select-selector')!);
    fireEvent.click(await waitFor(() => view.getByTitle('Active')));
    await waitFor(() => expect(query(where.path).get('filters[1][value]')).toBe('true'));
    expect(query(where.path).get('currentPage')).toBeNull();
    expect(lastQuery()).toMatchObject({ page: '1', 'filter[is_active]': 'true', 'filter[search]': 'a&b #1' });
    expect(where.type).toBe('REPLACE');

    // Every change replaced the entry: Back leaves the list.
    act(() => where.navigate!(-1));
    await waitFor(() => expect(where.path).toBe('/transactions'));
  });

  it('shows the view of the URL from its first request, inputs included', async () => {
    const view = renderAt(
      '/managers?currentPage=3&pageSize=25&sorters[0][field]=name&sorters[0][order]=desc&filters[0][field]=search&filters[0][operator]=contains&filters[0][value]=a%26b&filters[1][field]=is_active&filters[1][operator]=eq&filters[1][value]=false',
    );
    await waitFor(() => expect(calls().length).toBeGreaterThan(0));
    expect(calls()[0].query).toEqual({ page: '3', per_page: '25', sort: 'name', order: 'desc', 'filter[search]': 'a&b', 'filter[is_active]': 'false' });
    await waitFor(() => expect(view.container.textContent).toContain('Row of page 3'));
    expect(searchBox(view).value).toBe('a&b');
    expect(statusShown(view)).toBe('Inactive');
    expect(view.container.querySelector('[aria-label="Rows per page"]')?.closest('.ant-select')?.textContent).toContain('25');
    expect(calls()).toHaveLength(1);
  });

  it('brings the view back on Back after the menu opened the list fresh', async () => {
    const view = renderAt('/managers?currentPage=2&filters[0][field]=search&filters[0][operator]=contains&filters[0][value]=bob');
    await waitFor(() => expect(view.container.textContent).toContain('Row of page 2'));
    expect(searchBox(view).value).toBe('bob');

    // The menu's link: the same list, no query, its defaults.
    act(() => where.navigate!('/managers'));
    await waitFor(() => expect(lastQuery()).toEqual({ page: '1', per_page: '10' }));
    expect(searchBox(view).value).toBe('');
    expect(where.path).toBe('/managers');

    act(() => where.navigate!(-1));
    await waitFor(() => expect(lastQuery()).toEqual({ page: '2', per_page: '10', 'filter[search]': 'bob' }));
    expect(searchBox(view).value).toBe('bob');
    await waitFor(() => expect(view.container.textContent).toContain('Row of page 2'));
  });

  it('ignores what the list does not offer: a page size, sort key, page, filter or option it has not', async () => {
    const view = renderAt(
      '/managers?currentPage=abc&pageSize=7&sorters[0][field]=password&sorters[0][order]=asc&filters[0][field]=role&filters[0][value]=admin&filters[1][field]=is_active&filters[1][value]=maybe&filters[2][field]=search&filters[2][value][x]=1',
    );
    await waitFor(() => expect(view.container.textContent).toContain('Row of page 1'));
    expect(calls().map((c) => c.query)).toEqual([{ page: '1', per_page: '10' }]);
    expect(view.container.querySelector('.ant-alert-error')).toBeNull();
    expect(searchBox(view).value).toBe('');
  });

  it('shows the last page for a page past it', async () => {
    fake.on('GET', 'managers', (request) =>
      request.query.page === '6'
        ? { status: 200, body: { data: [{ id: 6, name: 'Row of page 6' }], meta: { total: 60 } } }
        : { status: 200, body: { data: [], meta: { total: 60 } } },
    );
    const view = renderAt('/managers?currentPage=999999999');
    await waitFor(() => expect(view.container.textContent).toContain('Row of page 6'));
    expect(calls().map((c) => c.query.page)).toEqual(['999999999', '6']);
    await waitFor(() => expect(query(where.path).get('currentPage')).toBe('6'));
  });

  it("keeps a select's value from the URL while its options load, and shows its label once they arrive", async () => {
    const url = '/managers?filters[0][field]=is_active&filters[0][operator]=eq&filters[0][value]=false';
    const view = renderAt(url, { statusOptions: [] });
    await waitFor(() => expect(calls().length).toBeGreaterThan(0));
    expect(calls()[0].query['filter[is_active]']).toBe('false');
    view.rerender(tree(url));
    await waitFor(() => expect(statusShown(view)).toBe('Inactive'));
    expect(calls().every((c) => c.query['filter[is_active]'] === 'false')).toBe(true);
    expect(query(where.path).get('filters[0][value]')).toBe('false');
  });

  it('leaves the URL alone for a list without a title (in a dialog or drawer)', async () => {
    const view = renderAt('/managers?currentPage=2', { inDialog: true });
    await waitFor(() => expect(view.container.textContent).toContain('Row of page 1'));
    fireEvent.click(view.getByLabelText('Next page'));
    await waitFor(() => expect(lastQuery()?.page).toBe('2'));
    expect(where.path).toBe('/managers?currentPage=2');
  });
});

describe('the first load of a list', () => {
  it('asks ahead for the fresh first page only when the URL carries no view of the list', async () => {
    const { preloadPage } = await import('../../src/navigation');
    const { dataProvider } = await import('../../src/providers/dataProvider');
    const { session } = await import('../../src/providers/session');
    session.save('token', 'admin');
    const prefetch = vi.spyOn(dataProvider, 'prefetchList').mockImplementation(() => undefined);
    vi.spyOn(dataProvider, 'prefetchGet').mockImplementation(() => undefined);
    const listed = () => prefetch.mock.calls.filter(([p]) => p.resource === 'accounts');

    void preloadPage('/users', true, '');
    expect(listed()).toHaveLength(1);
    void preloadPage('/users', true, '?currentPage=2&filters[0][field]=search&filters[0][value]=bob');
    void preloadPage('/users', true, '?sorters%5B0%5D%5Bfield%5D=login');
    expect(listed()).toHaveLength(1);
    vi.restoreAllMocks();
  });
});
