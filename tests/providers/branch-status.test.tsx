/**
 * A stopped branch in the lists: a user whose branch a user above stops carries
 * a tag naming it in the status column, and the confirmation before deactivating a user says what
 * stops with it (the resellers and dealers below, counted) and that end-user accounts keep service.
 */
import { waitFor } from './dom';
import { Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { DATA_TABLE, HIERARCHY_PANEL, type Role } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { DealersList } from '../../src/resources/dealers/list';
import { ManagersList } from '../../src/resources/managers/list';
import { ResellersList } from '../../src/resources/resellers/list';
import { type FakeHttp, fakeHttp } from './fakeHttp';
import { member } from './members';
import { signedInAs } from './fakeAuth';

const user = member;

const list = (rows: unknown[], total = rows.length) => ({ status: 200, body: { data: rows, meta: { total, current_page: 1, per_page: 10, last_page: 1 } } });

let fake: FakeHttp;
beforeEach(() => {
  fake = fakeHttp(http);
});

function renderAs(role: Role, ui: ReactNode) {
  const authProvider = signedInAs({ id: role === 'admin' ? 1 : 2, name: role, username: role, role, credits: role === 'admin' ? null : 100 });
  const view = render(
    <MemoryRouter>
      <App>
        <Refine
          dataProvider={createDataProvider(fake.http)}
          authProvider={authProvider}
          resources={[{ name: 'managers' }, { name: 'resellers' }, { name: 'dealers' }]}
          options={{ disableTelemetry: true }}
        >
          {ui}
        </Refine>
      </App>
    </MemoryRouter>,
  );
  const text = () => view.baseElement.textContent ?? '';
  const dialog = () => view.baseElement.querySelector('.ant-modal-confirm')?.textContent ?? '';
  return { view, text, dialog };
}

describe('a stopped branch in the lists', { timeout: 60_000 }, () => {
  it('tags the users whose branch a user above stops, naming it', async () => {
    const blocked = user({ id: 9, name: 'Dan Dealer', username: 'dan', blocked_by: { id: 5, username: 'rita', role: 'reseller', status: 'suspended' } });
    const free = user({ id: 10, name: 'Dora Dealer', username: 'dora' });
    fake.on('GET', 'dealers', list([blocked, free]));
    const ui = renderAs('manager', <DealersList />);
    await waitFor(() => expect(ui.text()).toContain('Dora Dealer'));
    const tags = [...ui.view.baseElement.querySelectorAll('.ant-tag')].filter((t) => t.textContent === HIERARCHY_PANEL.blockedBy('reseller', 'rita'));
    expect(tags).toHaveLength(1);
    expect(tags[0].closest('tr')?.textContent).toContain('Dan Dealer');
  });

  it('tags resellers too, beside their status', async () => {
    fake.on(
      'GET',
      'resellers',
      list([user({ id: 5, role: 'reseller', name: 'Rita', username: 'rita', blocked_by: { id: 2, username: 'maria', role: 'manager', status: 'inactive' } })]),
    );
    const ui = renderAs('admin', <ResellersList />);
    await waitFor(() => expect(ui.text()).toContain(HIERARCHY_PANEL.blockedBy('manager', 'maria')));
  });

  it('deactivating a manager says how many resellers, dealers and accounts stop, and that accounts keep service', async () => {
    fake.on('GET', 'managers', list([user({ id: 2, role: 'manager', name: 'Maria Manager', username: 'maria', total_children: 3, total_accounts: 40 })]));
    fake.on('GET', 'dealers', list([user({ id: 9 })], 7));
    fake.on('PATCH', 'managers/2', (r) => ({
      status: 200,
      body: { message: 'ok', data: user({ id: 2, role: 'manager', is_active: false, status: 'inactive', ...(r.body as object) }) },
    }));
    const ui = renderAs('admin', <ManagersList />);
    await waitFor(() => expect(ui.text()).toContain('Maria Manager'));
    // All the text the switch holds is in its name (label in name): its state, not the other side's too.
    const toggle = ui.view.getByLabelText(/^Status of maria:/);
    expect(toggle.textContent).toBe('Active');
    expect(toggle.getAttribute('aria-label')).toBe(HIERARCHY_PANEL.statusOf('maria', 'Active'));
    fireEvent.click(toggle);

    const impact = HIERARCHY_PANEL.stopImpact({ resellers: 3, dealers: 7, accounts: 40 });
    await waitFor(() => expect(ui.dialog()).toContain(impact));
    expect(impact).toContain('3 resellers and 7 dealers');
    expect(impact).toContain('40 end-user accounts of the branch keep their service');
    const counted = fake.requests.filter((r) => r.method === 'GET' && r.path === 'dealers');
    expect(counted.at(-1)?.query).toMatchObject({ 'filter[manager]': '2', per_page: '1' });

    const ok = [...ui.view.baseElement.querySelectorAll('.ant-modal-confirm button')].find((b) => b.textContent === 'Deactivate')!;
    fireEvent.click(ok);
    await waitFor(() => expect(fake.calls('PATCH', 'managers/2')).toHaveLength(1));
    expect(fake.calls('PATCH', 'managers/2')[0].body).toEqual({ is_active: false });
  });

  it('suspending selected resellers says how many dealers and accounts stop with them', async () => {
    fake.on(
      'GET',
      'resellers',
      list([
        user({ id: 5, role: 'reseller', name: 'Rita', username: 'rita', total_children: 2, total_accounts: 11 }),
        user({ id: 6, role: 'reseller', name: 'Rex', username: 'rex', total_children: 3, total_accounts: 4 }),
      ]),
    );
    const ui = renderAs('manager', <ResellersList />);
    await waitFor(() => expect(ui.text()).toContain('Rex'));
    fireEvent.click(ui.view.getByLabelText(DATA_TABLE.selectRow('Rita')));
    fireEvent.click(ui.view.getByLabelText(DATA_TABLE.selectRow('Rex')));
    fireEvent.click([...ui.view.baseElement.querySelectorAll('button')].find((b) => b.textContent === 'Suspend')!);
    await waitFor(() => expect(ui.dialog()).toContain(HIERARCHY_PANEL.suspendAllBody(2)));
    expect(ui.dialog()).toContain(HIERARCHY_PANEL.stopImpact({ resellers: 0, dealers: 5, accounts: 15 }, true));
    expect(ui.dialog()).toContain('They and the 5 dealers below them');
  });

  it('activating asks without counting anything', async () => {
    fake.on('GET', 'dealers', list([user({ id: 9, name: 'Dan', username: 'dan', is_active: false, status: 'inactive', total_accounts: 4 })]));
    const ui = renderAs('reseller', <DealersList />);
    await waitFor(() => expect(ui.text()).toContain('Dan'));
    fireEvent.click(ui.view.getByLabelText(/^Status of dan:/));
    await waitFor(() => expect(ui.dialog()).toContain('Activate dealer "Dan"?'));
    expect(ui.dialog()).not.toContain('keep their service');
  });
});
