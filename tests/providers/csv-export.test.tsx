/**
 * The panel's CSV export: the provider reads the API's stream through fetch with the bearer token,
 * counting bytes and records (a quoted line break is no record); the DataTable's Export button sends
 * the current view without paging, shows progress and cancels; the statement page shows its figures.
 */
import './dom';
import { Refine } from '@refinedev/core';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { DataTable } from '../../src/components/DataTable';
import { STORAGE_KEYS } from '../../src/contract';
import { StatementPage } from '../../src/features/transactions';
import { createDataProvider } from '../../src/providers/dataProvider';
import { fetchCsv } from '../../src/providers/exportCsv';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(STORAGE_KEYS.token, 'tok');
  fake = fakeHttp();
});
afterEach(() => vi.restoreAllMocks());

const encoder = new TextEncoder();
function streamOf(chunks: string[], { endless = false } = {}) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!endless) controller.close();
    },
  });
}

it('reads the stream with the token, counting bytes and records', async () => {
  const chunks = ['\uFEFFName,Notes\r\n', 'a,"two\r\nlines"\r', '\nb,x\r\n'];
  const fetchMock = vi.fn(
    async () => new Response(streamOf(chunks), { status: 200, headers: { 'content-disposition': 'attachment; filename="managers-2026-01-01.csv"' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  const seen: number[] = [];
  const result = await fetchCsv({ path: 'managers', query: { sort: 'name', order: 'asc' }, onProgress: (p) => seen.push(p.rows) });
  const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
  expect(url).toBe('/api/v1/managers?sort=name&order=asc');
  expect(init.headers).toMatchObject({ Accept: 'text/csv', Authorization: 'Bearer tok' });
  expect(result.rows).toBe(2);
  expect(result.filename).toBe('managers-2026-01-01.csv');
  expect(result.blob.size).toBe(chunks.reduce((n, c) => n + encoder.encode(c).byteLength, 0));
  expect(seen.at(-1)).toBe(2);
});

it('a refused export is the API message', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ message: 'Forbidden here' }), { status: 403 })),
  );
  await expect(fetchCsv({ path: 'dealers' })).rejects.toMatchObject({ statusCode: 403, message: 'Forbidden here' });
});

it('the Export button sends the current view without paging, shows progress and cancels', async () => {
  let signal: AbortSignal | undefined;
  const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
    signal = init.signal ?? undefined;
    const body = streamOf(['\uFEFFName\r\n', 'a\r\n', 'b\r\n'], { endless: true });
    return new Response(body, { status: 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  render(
    <Refine dataProvider={createDataProvider(fake.http)} resources={[{ name: 'managers', list: '/managers' }]} options={{ disableTelemetry: true }}>
      <DataTable
        resource="managers"
        title="Managers"
        syncWithLocation={false}
        initialSorters={[{ field: 'name', order: 'asc' }]}
        columns={[{ dataIndex: 'name', title: 'Name', sortable: true }]}
      />
    </Refine>,
  );
  fireEvent.click(await screen.findByRole('button', { name: /Export/ }, { timeout: 20_000 }));
  await waitFor(() => expect(screen.getByTestId('export-progress').textContent).toMatch(/2 rows/), { timeout: 20_000 });
  const [url] = fetchMock.mock.calls[0] as unknown as [string];
  expect(url).toBe('/api/v1/managers?sort=name&order=asc');
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel export' })));
  expect(signal?.aborted).toBe(true);
  await waitFor(() => expect(screen.queryByTestId('export-progress')).toBeNull());
}, 60_000);

it('the statement page shows the balances and entries of its range', async () => {
  fake.on('GET', 'statements/7', {
    status: 200,
    body: {
      data: {
        user: { id: 7, name: 'Dee', username: 'dealer', role: 'dealer' },
        date_from: '2026-01-01',
        date_to: '2026-01-31',
        opening_balance: 10,
        closing_balance: 25,
        net_change: 15,
        totals: [{ type: 'PURCHASED', count: 1, credits: 15 }],
        entry_count: 1,
        entries: [
          {
            id: 1,
            transaction_number: 'TX-1',
            type: 'PURCHASED',
            credits: 15,
            bonus_credits: 0,
            balance_before: 10,
            balance_after: 25,
            account: null,
            account_id: null,
            counterparty: { id: 3, name: 'Res', username: 'reseller', role: 'reseller' },
            actor: { id: 3, name: 'Res', username: 'reseller', role: 'reseller' },
            remarks: null,
            created_at: '2026-01-05T10:00:00.000Z',
          },
        ],
        entries_truncated: false,
      },
    },
  });
  render(
    <Refine dataProvider={createDataProvider(fake.http)} options={{ disableTelemetry: true }}>
      <MemoryRouter initialEntries={['/statements/7?from=2026-01-01&to=2026-01-31']}>
        <Routes>
          <Route path="/statements/:id" element={<StatementPage />} />
        </Routes>
      </MemoryRouter>
    </Refine>,
  );
  await waitFor(() => expect(screen.getByTestId('statement-closing').textContent).toBe('25 credits'), { timeout: 30_000 });
  expect(screen.getByTestId('statement-opening').textContent).toBe('10 credits');
  expect(screen.getByText('TX-1')).toBeTruthy();
  expect(fake.calls('GET', 'statements/7')[0].url).toContain('date_from=2026-01-01');
  expect(screen.getByRole('button', { name: /Print/ })).toBeTruthy();
  expect(screen.getByRole('button', { name: /Download CSV/ })).toBeTruthy();
}, 60_000);
