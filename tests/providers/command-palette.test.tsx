/**
 * The command palette: Ctrl-K opens it over the signed-in frame; it lists the role's menu entries,
 * narrows them as one types, finds accounts and members through the lists' own search, and Enter
 * opens the list filtered to the chosen row.
 */
import { waitFor } from './dom';
import { Refine } from '@refinedev/core';
import { act, fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppLayout } from '../../src/components/layout/AppLayout';
import { PALETTE } from '../../src/contract';
import { declarations, menuFor, paletteSearchesFor } from '../../src/navigation';
import { AppConfigProvider } from '../../src/providers/appConfig';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { identity } from '../../src/providers/identity';
import { signedInAs } from './fakeAuth';
import { type FakeHttp, fakeHttp } from './fakeHttp';

// kbar animates its box with the Web Animations API, which jsdom lacks.
Element.prototype.animate ??= function () {
  return { finished: Promise.resolve(), cancel() {}, onfinish: null } as unknown as Animation;
};

// Its result list is virtual and measures its box, which jsdom lays out at 0×0: give the box (the one with a max height) its room.
const rect = HTMLElement.prototype.getBoundingClientRect;
HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
  return this.style.maxHeight ? ({ x: 0, y: 0, top: 0, left: 0, right: 600, bottom: 400, width: 600, height: 400, toJSON: () => ({}) } as DOMRect) : rect.call(this);
};
for (const [prop, size] of [
  ['offsetHeight', 400],
  ['offsetWidth', 600],
] as const) {
  const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop)!;
  Object.defineProperty(HTMLElement.prototype, prop, {
    configurable: true,
    get(this: HTMLElement) {
      return this.style.maxHeight ? size : own.get!.call(this);
    },
  });
}

const page = (data: unknown[]) => ({ status: 200, body: { data, meta: { total: data.length, current_page: 1, per_page: PALETTE.perList, last_page: 1 } } });

// The palette's module loads on first use; here once before the tests, so they time what it does and not the loading.
beforeAll(async () => {
  await import('../../src/components/layout/CommandPalette');
});

let fake: FakeHttp;
beforeEach(() => {
  localStorage.clear();
  identity.clear();
  fake = fakeHttp(http);
  fake.on('GET', 'config', { status: 200, body: { demo_mode: false, demo_users: [], maintenance_mode: false, enable_trials: true, trial_days: 7, theme: null } });
  fake.on('GET', 'accounts', (req) =>
    page(
      'demo-tv-1 Demo Household 00:1A:79:00:00:07'.includes(req.query['filter[search]'])
        ? [{ id: 7, login: 'demo-tv-1', full_name: 'Demo Household', mac_address: '00:1A:79:00:00:07' }]
        : [],
    ),
  );
  fake.on('GET', 'dealers', (req) =>
    page('demo-dealer Demo Dealer'.includes(req.query['filter[search]']) ? [{ id: 4, username: 'demo-dealer', name: 'Demo Dealer' }] : []),
  );
});
afterEach(() => localStorage.clear());
// kbar leaves its open and close motion's timer running when unmounted: it fires after this file's
// last test, and must not find the document gone. A later timer fires after it.
afterAll(() => new Promise((resolve) => setTimeout(resolve, 1000)));

function Where() {
  const { pathname, search } = useLocation();
  return <div data-testid="where">{decodeURIComponent(pathname + search)}</div>;
}

function renderAs(role: string) {
  localStorage.setItem('token', `token-${role}`);
  return render(
    <AppConfigProvider>
      <App>
        <MemoryRouter initialEntries={['/dashboard']}>
          <Refine
            authProvider={signedInAs({ id: 1, name: 'Test', username: 'test', role, credits: 10 })}
            dataProvider={createDataProvider(fake.http)}
            options={{ disableTelemetry: true }}
          >
            <Routes>
              <Route element={<AppLayout menuFor={menuFor} resources={declarations} searchesFor={paletteSearchesFor} />}>
                <Route path="*" element={<Where />} />
              </Route>
            </Routes>
          </Refine>
        </MemoryRouter>
      </App>
    </AppConfigProvider>,
  );
}

const dialog = () => document.querySelector<HTMLElement>(`[role="dialog"][aria-label="${PALETTE.title}"]`);
/** The entries shown (not the section headings between them). */
const options = () => [...document.querySelectorAll('[role="option"]:has([data-palette-item])')].map((o) => o.textContent ?? '');
const input = () => dialog()!.querySelector('input')!;
const type = (text: string) => act(() => void fireEvent.change(input(), { target: { value: text } }));
const key = (k: string) => act(() => void fireEvent.keyDown(input(), { key: k }));

describe('command palette', { timeout: 30_000 }, () => {
  it('opens with Ctrl-K on the menu of the role, narrows it, finds accounts and dealers, and Enter opens the filtered list', async () => {
    const view = renderAs('reseller');
    await waitFor(() => expect(view.getByTestId('where').textContent).toBe('/dashboard'));
    expect(dialog()).toBeNull();

    act(() => void fireEvent.keyDown(window, { key: 'k', ctrlKey: true }));
    await waitFor(() => expect(dialog()).not.toBeNull());
    expect(input().getAttribute('aria-label')).toBe(PALETTE.placeholder);
    // The reseller's own menu: Dealers and Transactions, not Managers or Settings.
    type('deal');
    await waitFor(() => expect(options()).toEqual(['Dealers']));
    type('manag');
    await waitFor(() => expect(options()).toEqual([]));
    type('settin');
    await waitFor(() => expect(options()).toEqual([]));
    type('trans');
    await waitFor(() => expect(options()).toEqual(['Transactions']));
    expect(fake.calls('GET', 'accounts')).toHaveLength(0);

    // Members: the dealers a reseller reads, through that list's search once the typing pauses; not managers or resellers.
    type('demo-d');
    await waitFor(() => expect(options()).toEqual(['demo-dealerDemo Dealer']));
    expect(fake.calls('GET', 'dealers').at(-1)!.query).toMatchObject({ 'filter[search]': 'demo-d', per_page: String(PALETTE.perList) });
    expect(fake.calls('GET', 'managers')).toHaveLength(0);
    expect(fake.calls('GET', 'resellers')).toHaveLength(0);

    // An account by its MAC, then by its login; Enter opens the accounts list filtered to it and closes the palette.
    type('00:1A:79:00:00:07');
    await waitFor(() => expect(options()).toEqual(['demo-tv-1Demo Household · 00:1A:79:00:00:07']));
    type('demo-tv');
    await waitFor(() => expect(fake.calls('GET', 'accounts').at(-1)!.query['filter[search]']).toBe('demo-tv'));
    await waitFor(() => expect(options()).toEqual(['demo-tv-1Demo Household · 00:1A:79:00:00:07']));
    key('ArrowDown');
    expect(document.querySelector('[role="option"][aria-selected="true"]')?.textContent).toContain('demo-tv-1');
    key('Enter');
    await waitFor(() => expect(view.getByTestId('where').textContent).toBe('/users?filters[0][field]=search&filters[0][operator]=eq&filters[0][value]=demo-tv-1'));
    await waitFor(() => expect(dialog()).toBeNull());
  });

  it('opens from the header button, jumps to a screen with Enter, and Escape closes it', async () => {
    const view = renderAs('dealer');
    await waitFor(() => expect(view.getByTestId('where').textContent).toBe('/dashboard'));
    act(() => void fireEvent.click(view.getByTestId('palette-button')));
    await waitFor(() => expect(dialog()).not.toBeNull());
    key('Escape');
    await waitFor(() => expect(dialog()).toBeNull());

    act(() => void fireEvent.click(view.getByTestId('palette-button')));
    await waitFor(() => expect(dialog()).not.toBeNull());
    type('transact');
    await waitFor(() => expect(options()).toEqual(['Transactions']));
    key('Enter');
    await waitFor(() => expect(view.getByTestId('where').textContent).toBe('/transactions'));
    // Dealers read no member list: only accounts are searched.
    expect(paletteSearchesFor('dealer').map((s) => s.resource)).toEqual(['accounts']);
  });
});
