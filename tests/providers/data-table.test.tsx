/**
 * The shared DataTable inside Refine with the real data provider over a fake HTTP layer: the empty
 * state, the 500 ms debounced search, and the error banner of a failed load (docs/domain.md#lists).
 */
import './dom';
import { Refine } from '@refinedev/core';
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DataColumn, DataTable, type ListColumn } from '../../src/components/DataTable';
import { DEFAULT_PAGE_SIZE } from '../../src/contract';
import { PREFETCHED_MS, createDataProvider } from '../../src/providers/dataProvider';
import { createQueryClient } from '../../src/providers/queryClient';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;

beforeEach(() => {
  localStorage.clear();
  fake = fakeHttp();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function renderTable(resource: 'ticket-categories' | 'managers' | 'servers' = 'ticket-categories', props: { loadErrorMessage?: string } = {}) {
  return render(
    <Refine dataProvider={createDataProvider(fake.http)} resources={[{ name: resource, list: `/${resource}` }]} options={{ disableTelemetry: true }}>
      <DataTable resource={resource} columns={[{ dataIndex: 'name', title: 'Name', sortable: true }]} {...props} />
    </Refine>,
  );
}

/**
 * Waits for an assertion inside act(): testing-library's waitFor with real timers; with fake timers,
 * by advancing them in small steps (its own waitFor cannot see vitest's fake timers).
 */
async function settle(assertion: () => void, timeout = 5000): Promise<void> {
  if (!vi.isFakeTimers()) return waitFor(assertion, { timeout });
  for (let waited = 0; ; waited += 20) {
    try {
      return assertion();
    } catch (error) {
      if (waited >= timeout) throw error;
      await act(() => vi.advanceTimersByTimeAsync(20));
    }
  }
}

const listCalls = (path: string) => fake.requests.filter((r) => r.method === 'GET' && r.path === path);

// Rendering antd's table in jsdom takes seconds on a busy machine.
it('types columns on their list: a sortable column sorts only by a sort key its list declares', () => {
  type Row = { id: number };
  const columns: Array<ListColumn<Row, 'themes'>> = [
    { dataIndex: 'name', title: 'Name', sortable: true },
    { dataIndex: 'label', title: 'Label', sortKey: 'slug', sortable: true },
    { dataIndex: 'anything', title: 'Not sortable' },
  ];
  // @ts-expect-error 'password' is no sort key of the themes list
  const byDataIndex: ListColumn<Row, 'themes'> = { dataIndex: 'password', title: 'Password', sortable: true };
  // @ts-expect-error nor as an explicit sort key
  const bySortKey: ListColumn<Row, 'themes'> = { dataIndex: 'name', sortKey: 'password', title: 'Name', sortable: true };
  // @ts-expect-error a column of no list does not sort
  const unlisted: DataColumn<Row> = { dataIndex: 'name', title: 'Name', sortable: true };
  expect([...columns, byDataIndex, bySortKey, unlisted]).toHaveLength(6);
});

describe('DataTable', { timeout: 30_000 }, () => {
  it("shows 'No data found' for an empty list", async () => {
    fake.on('GET', 'managers', { status: 200, body: { data: [], meta: { total: 0, current_page: 1, per_page: 10, last_page: 1 } } });
    const view = renderTable('managers');
    // The table shows its empty text under the spinner while loading: wait for the answer first.
    await settle(() => {
      expect(listCalls('managers').length).toBeGreaterThan(0);
      expect(view.container.querySelector('.ant-spin-spinning')).toBeNull();
    });
    expect(view.container.textContent).toContain('No data found');
    expect(listCalls('managers')[0].query).toEqual({ page: '1', per_page: '10' });
    expect(view.container.textContent).toContain('Page 1 of 1');
  });

  it('shows the rows and the total of a loaded page', async () => {
    fake.on('GET', 'managers', {
      status: 200,
      body: {
        data: [
          { id: 1, name: 'Alice' },
          { id: 2, name: 'Bob' },
        ],
        meta: { total: 32 },
      },
    });
    const view = renderTable('managers');
    await settle(() => expect(view.container.textContent).toContain('Alice'));
    expect(view.container.textContent).toContain('Bob');
    expect(view.container.textContent).toContain('Page 1 of 4');
    expect(view.container.textContent).not.toContain('No data found');
  });

  it('shows a prefetched first page that has arrived on its first render, without asking again; fresh while a prefetched answer may wait', async () => {
    fake.on('GET', 'managers', { status: 200, body: { data: [{ id: 1, name: 'Alice' }], meta: { total: 1 } } });
    const provider = createDataProvider(fake.http);
    // What the entry module asks for the page a reload lands on (src/navigation.ts).
    provider.prefetchList({ resource: 'managers', pagination: { currentPage: 1, pageSize: DEFAULT_PAGE_SIZE, mode: 'server' }, filters: [], sorters: [] });
    await waitFor(() => expect(listCalls('managers')).toHaveLength(1));
    // The fake answers at once: a moment later the answer has arrived.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const client = createQueryClient(provider);
    const table = () => (
      <Refine dataProvider={provider} resources={[{ name: 'managers', list: '/managers' }]} options={{ disableTelemetry: true, reactQuery: { clientConfig: client } }}>
        <DataTable resource="managers" columns={[{ dataIndex: 'name', title: 'Name' }]} />
      </Refine>
    );
    const view = render(table());
    expect(view.container.textContent).toContain('Alice');
    expect(view.container.querySelector('.ant-spin-spinning')).toBeNull();
    view.unmount();
    // Mounted again at once, the answer is still fresh; the page's next load asks the API.
    render(table()).unmount();
    expect(listCalls('managers')).toHaveLength(1);
    const later = Date.now() + PREFETCHED_MS;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    const again = render(table());
    await settle(() => expect(listCalls('managers')).toHaveLength(2));
    expect(again.container.textContent).toContain('Alice');
  });

  it('waits 500 ms after the last keystroke before searching, then asks for page 1 with the search', async () => {
    vi.useFakeTimers();
    fake.on('GET', 'managers', { status: 200, body: { data: [{ id: 1, name: 'Alice' }], meta: { total: 1 } } });
    const view = renderTable('managers');
    await settle(() => expect(view.container.textContent).toContain('Alice'));
    const searched = () => listCalls('managers').filter((r) => 'filter[search]' in r.query);

    const input = view.container.querySelector('input[aria-label="Search"]')!;
    fireEvent.change(input, { target: { value: 'al' } });
    await act(() => vi.advanceTimersByTimeAsync(300));
    fireEvent.change(input, { target: { value: 'ali' } });
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(searched()).toHaveLength(0);

    await act(() => vi.advanceTimersByTimeAsync(1));
    await settle(() => expect(searched()).toHaveLength(1));
    expect(searched()[0].query).toEqual({ 'filter[search]': 'ali', page: '1', per_page: '10' });

    // Clearing the box searches again for everything, without the parameter.
    const before = listCalls('managers').length;
    fireEvent.change(input, { target: { value: '' } });
    await act(() => vi.advanceTimersByTimeAsync(500));
    await settle(() => expect(listCalls('managers').length).toBeGreaterThan(before));
    expect(listCalls('managers').at(-1)!.query).toEqual({ page: '1', per_page: '10' });
  });

  it('sends a plain search for the resources whose API takes one', async () => {
    vi.useFakeTimers();
    const view = renderTable('ticket-categories');
    await settle(() => expect(listCalls('ticket-categories').length).toBeGreaterThan(0));
    fireEvent.change(view.container.querySelector('input[aria-label="Search"]')!, { target: { value: 'billing' } });
    await act(() => vi.advanceTimersByTimeAsync(500));
    await settle(() => expect(listCalls('ticket-categories').some((r) => r.query.search === 'billing')).toBe(true));
  });

  it('shows an error banner and an empty table when the load fails', async () => {
    fake.on('GET', 'servers', { status: 500, body: { message: 'Database unreachable' } });
    const view = renderTable('servers', { loadErrorMessage: 'Failed to load servers' });
    await settle(() => expect(view.container.querySelector('.ant-alert-error')).not.toBeNull());
    const banner = view.container.querySelector('.ant-alert-error')!;
    expect(banner.textContent).toContain('Failed to load servers');
    expect(banner.textContent).toContain('Database unreachable');
    expect(view.container.textContent).toContain('No data found');
  });

  it("titles the banner 'Load Failed' when the list names no message", async () => {
    fake.on('GET', 'managers', { status: 403, body: { message: "You don't have permission to perform this action." } });
    const view = renderTable('managers');
    await settle(() => expect(view.container.querySelector('.ant-alert-error')).not.toBeNull());
    expect(view.container.querySelector('.ant-alert-error')!.textContent).toContain('Load Failed');
  });
});
