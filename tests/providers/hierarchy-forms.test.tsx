/**
 * The manager, reseller and dealer forms over a fake HTTP layer: the contract's messages under the
 * fields before any request is sent, a server 422 under the right fields (and in the 'Please fix the
 * following errors:' box), the status select sent as status and is_active, and the Idempotency-Key
 * of the credit-moving calls (initial credits, recovery from history) kept for a retry.
 */
import { waitFor } from './dom';
import { type NotificationProvider, Refine } from '@refinedev/core';
import { act, fireEvent, render } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CREDITS, ENTITY_FORM, HIERARCHY, type Role } from '../../src/contract';
import { UserFormDialog } from '../../src/features/hierarchy';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { useCurrentUser } from '../../src/providers/identity';
import { PromoteDialog } from '../../src/resources/dealers/PromoteDialog';
import { RecoveryHistoryDialog } from '../../src/resources/dealers/RecoveryHistoryDialog';
import { DealerEditPage } from '../../src/resources/dealers/edit';
import { dealerLevel } from '../../src/resources/dealers/list';
import { ManagerFormPage } from '../../src/resources/managers/form';
import { resellerLevel } from '../../src/resources/resellers/list';
import { type FakeHttp, fakeHttp } from './fakeHttp';
import { member } from './members';
import { signedInAs } from './fakeAuth';

const user = member;

const MANAGER = user({ id: 2, name: 'Maria Manager', username: 'manager', role: 'manager', credits: 500 });
const RESELLER = user({ id: 5, name: 'Rita Reseller', username: 'reseller', role: 'reseller', parent_id: 2, parent: { id: 2, name: 'Maria Manager' } });
const DEALER = user({ id: 9, name: 'Dan Dealer', username: 'dealer', role: 'dealer', parent_id: 5, reseller: { id: 5, name: 'Rita Reseller' } });

const list = (rows: unknown[]) => ({ status: 200, body: { data: rows, meta: { total: rows.length, current_page: 1, per_page: 50, last_page: 1 } } });
const invalid = (errors: Record<string, string[]>) => ({ status: 422, body: { message: Object.values(errors)[0][0], errors } });

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
  fake.on('GET', 'managers', list([MANAGER]));
  fake.on('GET', 'credit-options/allocation', {
    status: 200,
    body: {
      data: { options: [{ value: 25, display_text: '25 credits', bonus_credits: 0, total_credits: 25 }], user_credits: null, min_credits: 10, max_credits: 10000 },
    },
  });
});

/** The toasts as the user reads them (Refine's antd provider shows `description` as the title). */
const toasts = () =>
  notify.mock.calls.map(([n]) => {
    const { type, message, description } = n as { type: string; message: string; description?: string };
    return description ? { type, title: description, body: message } : { type, title: message };
  });

/** The signed-in role once the identity is loaded (the panel's frame waits for it too). */
function SignedIn() {
  const { role } = useCurrentUser();
  return <span data-testid="signed-in">{role}</span>;
}

function renderAs(role: Role, ui: ReactNode, path = '/') {
  const authProvider = signedInAs(role === 'admin' ? { id: 1, name: 'Admin', username: 'admin', role, credits: null } : { ...MANAGER, role });
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <Refine
        dataProvider={createDataProvider(fake.http)}
        authProvider={authProvider}
        notificationProvider={notificationProvider}
        resources={[{ name: 'managers' }, { name: 'resellers' }, { name: 'dealers' }]}
        options={{ disableTelemetry: true }}
      >
        <SignedIn />
        {ui}
      </Refine>
    </MemoryRouter>,
  );
  const root = () => view.baseElement;
  /** The form item labelled `label` (the last one: a dialog renders above the page). */
  const item = (label: string) => {
    const items = [...root().querySelectorAll('.ant-form-item')].filter((i) => i.querySelector('.ant-form-item-label label')?.textContent === label);
    if (items.length === 0) throw new Error(`no field labelled ${label}`);
    return items.at(-1)!;
  };
  /** The message shown under the field labelled `label` ('' when none). */
  const errorOf = (label: string) => item(label).querySelector('.ant-form-item-explain-error')?.textContent ?? '';
  const input = (label: string) => item(label).querySelector<HTMLInputElement>('input')!;
  const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
  const choose = async (label: string, option: string) => {
    fireEvent.mouseDown(item(label).querySelector('.ant-select-selector')!);
    const options = () => [...root().querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')];
    await waitFor(() => expect(options().some((o) => o.textContent === option)).toBe(true));
    fireEvent.click(options().find((o) => o.textContent === option)!);
  };
  const button = (text: string) => {
    const found = [...root().querySelectorAll('button')].filter((b) => b.textContent === text);
    if (found.length === 0) throw new Error(`no button ${text}`);
    return found.at(-1)!;
  };
  const click = (text: string) => fireEvent.click(button(text));
  const signedIn = () => waitFor(() => expect(view.getByTestId('signed-in').textContent).toBe(role));
  const summary = () => [...root().querySelectorAll('[data-testid=error-summary] li')].map((li) => li.textContent);
  return { view, root, item, errorOf, input, type, choose, button, click, summary, signedIn };
}

describe('reseller and dealer dialog', { timeout: 60_000 }, () => {
  it('shows the contract messages under the fields and sends nothing while they stand', async () => {
    const ui = renderAs('admin', <UserFormDialog config={resellerLevel} mode="create" open onClose={vi.fn()} />);
    await waitFor(() => ui.item('Manager'));

    ui.click('Create Reseller');
    await waitFor(() => expect(ui.errorOf('Name')).toBe(ENTITY_FORM.nameRequired));
    expect(ui.errorOf('Username')).toBe(ENTITY_FORM.usernameRequired);
    expect(ui.errorOf('Password')).toBe(ENTITY_FORM.passwordRequiredResellers);
    expect(ui.errorOf('Manager')).toBe(HIERARCHY.managerRequired);
    expect(ui.errorOf('Initial credits')).toBe(CREDITS.selectAmount);

    ui.type('Username', 'not valid');
    ui.type('Password', 'short');
    ui.click('Create Reseller');
    await waitFor(() => expect(ui.errorOf('Username')).toBe(HIERARCHY.usernameFormat));
    expect(ui.errorOf('Password')).toBe(HIERARCHY.passwordTooShort);
    expect(fake.calls('POST', 'resellers')).toHaveLength(0);
  });

  it("puts a 422's messages under the fields and in the summary box, and retries with the opening's Idempotency-Key", async () => {
    let attempt = 0;
    fake.on('POST', 'resellers', () =>
      ++attempt === 1
        ? invalid({ username: [ENTITY_FORM.usernameTaken], manager: [HIERARCHY.managerInvalid] })
        : { status: 201, body: { message: 'Reseller created successfully.', data: RESELLER } },
    );
    const onClose = vi.fn();
    const ui = renderAs('admin', <UserFormDialog config={resellerLevel} mode="create" open onClose={onClose} />);
    await waitFor(() => ui.item('Manager'));
    ui.type('Name', 'Rita Reseller');
    ui.type('Username', 'rita');
    ui.type('Password', 'long enough');
    await ui.choose('Manager', 'Maria Manager (manager)');
    await ui.choose('Initial credits', '25 credits');
    await ui.choose('Status', 'Suspended');

    ui.click('Create Reseller');
    await waitFor(() => expect(ui.errorOf('Username')).toBe(ENTITY_FORM.usernameTaken));
    expect(ui.errorOf('Manager')).toBe(HIERARCHY.managerInvalid);
    expect(ui.errorOf('Name')).toBe('');
    expect(ui.summary()).toEqual([ENTITY_FORM.usernameTaken, HIERARCHY.managerInvalid]);
    expect(toasts().filter((t) => t.type === 'error')).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();

    ui.click('Create Reseller');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [first, second] = fake.calls('POST', 'resellers');
    expect(first.body).toEqual({ name: 'Rita Reseller', username: 'rita', password: 'long enough', credits: 25, status: 'suspended', is_active: false, manager: 2 });
    expect(first.headers['Idempotency-Key']).toMatch(/.{16,}/);
    // The retry of the same opening reuses the key: the server replays instead of moving credits twice.
    expect(second.headers['Idempotency-Key']).toBe(first.headers['Idempotency-Key']);
    expect(toasts().at(-1)).toEqual({ type: 'success', title: 'Reseller created successfully.' });
  });

  it('toasts a refusal that names no field, and takes a new key for the next opening', async () => {
    fake.on('POST', 'dealers', { status: 500, body: { message: 'Server Error' } });
    function Reopenable() {
      const [open, setOpen] = useState(true);
      return (
        <>
          <button onClick={() => setOpen((o) => !o)}>Toggle</button>
          <UserFormDialog config={dealerLevel} mode="create" open={open} onClose={() => setOpen(false)} />
        </>
      );
    }
    const ui = renderAs('reseller', <Reopenable />);
    await waitFor(() => expect(fake.calls('GET', 'credit-options/allocation')).toHaveLength(1));
    // A reseller creates its dealers under itself: no picker, no parent sent.
    expect(() => ui.item('Reseller')).toThrow();
    ui.type('Name', 'Dan');
    ui.type('Username', 'dan');
    ui.type('Password', 'long enough');
    await ui.choose('Initial credits', 'No initial credits');
    ui.click('Create Dealer');
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'error', title: 'Error', body: 'Server Error' }));
    expect(ui.summary()).toEqual([]);
    const first = fake.calls('POST', 'dealers')[0];
    expect(first.body).toEqual({ name: 'Dan', username: 'dan', password: 'long enough', credits: 0, status: 'active', is_active: true });

    ui.click('Toggle');
    ui.click('Toggle');
    await waitFor(() => expect(ui.input('Name').value).toBe(''));
    ui.type('Name', 'Dan');
    ui.type('Username', 'dan');
    ui.type('Password', 'long enough');
    await ui.choose('Initial credits', 'No initial credits');
    ui.click('Create Dealer');
    await waitFor(() => expect(fake.calls('POST', 'dealers')).toHaveLength(2));
    expect(fake.calls('POST', 'dealers')[1].headers['Idempotency-Key']).not.toBe(first.headers['Idempotency-Key']);
  });

  it('edits the row: status as status and is_active, an empty password kept, the manager moved by admin', async () => {
    fake.on('PUT', 'resellers/5', invalid({ username: [ENTITY_FORM.usernameTaken] }));
    const onClose = vi.fn();
    const ui = renderAs('admin', <UserFormDialog config={resellerLevel} mode="edit" record={RESELLER} open onClose={onClose} />);
    await waitFor(() => expect(ui.input('Name').value).toBe('Rita Reseller'));
    await waitFor(() => ui.item('Manager'));

    ui.type('Name', ' ');
    ui.click('Save Changes');
    await waitFor(() => expect(ui.errorOf('Name')).toBe(ENTITY_FORM.nameRequired));
    expect(fake.calls('PUT', 'resellers/5')).toHaveLength(0);

    ui.type('Name', 'Rita R.');
    await ui.choose('Status', 'Inactive');
    ui.click('Save Changes');
    await waitFor(() => expect(ui.errorOf('Username')).toBe(ENTITY_FORM.usernameTaken));
    expect(fake.calls('PUT', 'resellers/5')[0].body).toEqual({ name: 'Rita R.', username: 'reseller', status: 'inactive', is_active: false, manager: 2 });
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('manager page', { timeout: 60_000 }, () => {
  const pages = (
    <Routes>
      <Route path="/managers" element={<p>Managers list</p>} />
      <Route path="/managers/create" element={<ManagerFormPage mode="create" />} />
      <Route path="/managers/edit/:id" element={<ManagerFormPage mode="edit" />} />
    </Routes>
  );

  it('checks the manager rules before sending, shows the 422 under the fields, and creates with a key', async () => {
    let attempt = 0;
    fake.on('POST', 'managers', () =>
      ++attempt === 1 ? invalid({ username: [ENTITY_FORM.usernameTaken] }) : { status: 201, body: { message: 'Manager created successfully.', data: MANAGER } },
    );
    const ui = renderAs('admin', pages, '/managers/create');
    await waitFor(() => ui.item('Initial credits'));

    ui.type('Name', '');
    ui.type('Initial credits', '20000');
    ui.click('Create Manager');
    await waitFor(() => expect(ui.errorOf('Name')).toBe(ENTITY_FORM.managerNameRequired));
    expect(ui.errorOf('Username')).toBe(ENTITY_FORM.usernameRequired);
    expect(ui.errorOf('Password')).toBe(ENTITY_FORM.passwordRequiredManagers);
    expect(ui.errorOf('Initial credits')).toBe(CREDITS.adminAllocationCap);
    expect(fake.calls('POST', 'managers')).toHaveLength(0);

    ui.type('Name', 'Mo Manager');
    ui.type('Username', 'mo');
    ui.type('Password', 'long enough');
    ui.type('Initial credits', '100');
    ui.click('Create Manager');
    await waitFor(() => expect(ui.errorOf('Username')).toBe(ENTITY_FORM.usernameTaken));
    expect(ui.summary()).toEqual([ENTITY_FORM.usernameTaken]);
    expect(ui.errorOf('Initial credits')).toBe('');

    ui.click('Create Manager');
    await waitFor(() => expect(ui.root().textContent).toContain('Managers list'));
    const [first, second] = fake.calls('POST', 'managers');
    expect(first.body).toEqual({ name: 'Mo Manager', username: 'mo', password: 'long enough', credits: 100, status: 'active', is_active: true, server_id: null });
    expect(first.headers['Idempotency-Key']).toMatch(/.{16,}/);
    expect(second.headers['Idempotency-Key']).toBe(first.headers['Idempotency-Key']);
    expect(toasts().at(-1)).toEqual({ type: 'success', title: 'Manager created successfully.' });
  });

  it('edits without sending the locked username', async () => {
    fake.on('GET', 'managers/2', { status: 200, body: { data: { ...MANAGER, server_id: 3 } } });
    fake.on('PUT', 'managers/2', { status: 200, body: { message: 'Manager updated successfully.', data: MANAGER } });
    const ui = renderAs('admin', pages, '/managers/edit/2');
    await waitFor(() => expect(ui.input('Name').value).toBe('Maria Manager'));
    expect(ui.input('Username').disabled).toBe(true);
    expect(() => ui.item('Initial credits')).toThrow();
    ui.type('Password', 'short');
    ui.click('Save Changes');
    await waitFor(() => expect(ui.errorOf('Password')).toBe(HIERARCHY.passwordTooShort));
    expect(fake.calls('PUT', 'managers/2')).toHaveLength(0);

    ui.type('Password', '');
    await ui.choose('Status', 'Inactive');
    ui.click('Save Changes');
    await waitFor(() => expect(ui.root().textContent).toContain('Managers list'));
    expect(fake.calls('PUT', 'managers/2')[0].body).toEqual({ name: 'Maria Manager', status: 'inactive', is_active: false, server_id: 3 });
    expect(toasts().at(-1)).toEqual({ type: 'success', title: 'Manager updated successfully.' });
  });

  it("says 'Failed to load manager data' and returns to /managers", async () => {
    fake.on('GET', 'managers/404', { status: 404, body: { message: 'Entity Not Found' } });
    const ui = renderAs('admin', pages, '/managers/edit/404');
    await waitFor(() => expect(ui.root().textContent).toContain('Managers list'));
    expect(toasts()).toEqual([{ type: 'error', title: 'Error', body: 'Failed to load manager data' }]);
  });
});

describe('dealer edit page', { timeout: 60_000 }, () => {
  it('checks the dealer rules before sending and shows the 422 under the field', async () => {
    fake.on('GET', 'dealers/9', { status: 200, body: { data: DEALER } });
    fake.on('PUT', 'dealers/9', invalid({ username: [ENTITY_FORM.usernameTaken] }));
    const ui = renderAs(
      'reseller',
      <Routes>
        <Route path="/dealers/edit/:id" element={<DealerEditPage />} />
      </Routes>,
      '/dealers/edit/9',
    );
    await waitFor(() => expect(ui.input('Username').value).toBe('dealer'));
    ui.type('Username', '');
    ui.click('Save Changes');
    await waitFor(() => expect(ui.errorOf('Username')).toBe(ENTITY_FORM.usernameRequired));
    expect(fake.calls('PUT', 'dealers/9')).toHaveLength(0);

    ui.type('Username', 'dan');
    ui.type('Password', 'a new password');
    ui.click('Save Changes');
    await waitFor(() => expect(ui.errorOf('Username')).toBe(ENTITY_FORM.usernameTaken));
    expect(ui.summary()).toEqual([ENTITY_FORM.usernameTaken]);
    expect(fake.calls('PUT', 'dealers/9')[0].body).toEqual({ name: 'Dan Dealer', username: 'dan', password: 'a new password', status: 'active', is_active: true });
    expect(toasts()).toEqual([]);
  });
});

describe('promote dialog', { timeout: 60_000 }, () => {
  it('admin must pick a manager; a refused manager shows under the picker', async () => {
    fake.on('POST', 'dealers/9/promote', invalid({ manager_id: [HIERARCHY.managerInvalid] }));
    const ui = renderAs('admin', <PromoteDialog dealer={DEALER} onClose={vi.fn()} />);
    await waitFor(() => ui.item('Manager'));
    ui.click('Promote');
    await waitFor(() => expect(ui.errorOf('Manager')).toBe(HIERARCHY.managerRequired));
    expect(fake.calls('POST', 'dealers/9/promote')).toHaveLength(0);

    await ui.choose('Manager', 'Maria Manager (manager)');
    ui.click('Promote');
    await waitFor(() => expect(ui.errorOf('Manager')).toBe(HIERARCHY.managerInvalid));
    expect(fake.calls('POST', 'dealers/9/promote')[0].body).toEqual({ manager_id: 2 });
    expect(toasts()).toEqual([]);
  });

  it('a manager promotes under itself; a refusal it has no field for is a toast', async () => {
    let attempt = 0;
    fake.on('POST', 'dealers/9/promote', () =>
      ++attempt === 1 ? invalid({ manager_id: [HIERARCHY.managerInvalid] }) : { status: 200, body: { message: HIERARCHY.promoted, data: DEALER } },
    );
    const onClose = vi.fn();
    const ui = renderAs('manager', <PromoteDialog dealer={DEALER} onClose={onClose} />);
    await ui.signedIn();
    expect(ui.root().textContent).toContain('becomes a reseller under you');
    expect(() => ui.item('Manager')).toThrow();
    ui.click('Promote');
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'error', title: 'Error', body: HIERARCHY.managerInvalid }));
    expect(onClose).not.toHaveBeenCalled();
    ui.click('Promote');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'dealers/9/promote').map((c) => c.body)).toEqual([{ manager_id: 2 }, { manager_id: 2 }]);
    expect(toasts().at(-1)).toEqual({ type: 'success', title: HIERARCHY.promoted });
  });
});

describe('recovery history dialog', { timeout: 60_000 }, () => {
  it('recovers an allocation with a key per opening and allocation, reused on retry', async () => {
    const row = {
      id: 41,
      transaction_number: 'TX-41',
      credits: 30,
      recoverable_credits: 30,
      recovered: false,
      recovered_at: null,
      from: { id: 5, name: 'Rita Reseller' },
      date: '2026-01-02T00:00:00.000Z',
    };
    fake.on('GET', 'dealers/9/credits/recovery-history', { status: 200, body: { data: [row] } });
    let attempt = 0;
    fake.on('POST', 'dealers/9/credits/recover-from-history', () =>
      ++attempt === 1
        ? { status: 422, body: { message: HIERARCHY.historyAlreadyRecovered, errors: { transaction_id: [HIERARCHY.historyAlreadyRecovered] } } }
        : { status: 200, body: { message: HIERARCHY.creditsRecovered, data: {} } },
    );
    const ui = renderAs('reseller', <RecoveryHistoryDialog dealer={DEALER} onClose={vi.fn()} />);
    await waitFor(() => expect(ui.root().textContent).toContain('TX-41'));
    const recover = async () => {
      ui.click('Recover');
      await waitFor(() => ui.button('OK'));
      await act(async () => ui.click('OK'));
    };
    await recover();
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'error', title: 'Validation Failed', body: 'Please check your input and try again.' }));
    await recover();
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'success', title: HIERARCHY.creditsRecovered, body: '30 credits recovered from Dan Dealer.' }));
    const [first, second] = fake.calls('POST', 'dealers/9/credits/recover-from-history');
    expect(first.body).toEqual({ transaction_id: 41 });
    expect(first.headers['Idempotency-Key']).toMatch(/.{16,}-41$/);
    expect(second.headers['Idempotency-Key']).toBe(first.headers['Idempotency-Key']);
    // The history is read again after the move.
    await waitFor(() => expect(fake.calls('GET', 'dealers/9/credits/recovery-history').length).toBeGreaterThanOrEqual(2));
  });
});

/**
 * The initial credits of a new user are the amount typed or picked, or nothing.
 * A typed number that was no option became the first option whose text contained it (0 became
 * '10 credits') and moved silently; the manager page rounded a typed 7.5 to 8.
 */
describe('initial credits typed in a create form are sent as typed, or refused under the field', { timeout: 180_000 }, () => {
  const share = (value: number, what: string) => ({ value, display_text: `${value} credits`, bonus_credits: 0, total_credits: value, share: what });
  const plain = (value: number) => ({ value, display_text: `${value} credits`, bonus_credits: 0, total_credits: value });
  /** What a giver holding 500 paid credits is offered (the options' minimum is 10). */
  const allocation = {
    status: 200,
    body: {
      data: {
        options: [
          plain(10),
          plain(25),
          plain(50),
          plain(100),
          plain(200),
          share(125, '25% of your balance'),
          share(250, '50% of your balance'),
          share(500, 'All your credits'),
        ],
        user_credits: 500,
        min_credits: 10,
        max_credits: 500,
        step: 1,
      },
    },
  };

  async function create(role: 'manager' | 'reseller', typed: string, expected: { sent: number } | { refused: string }) {
    fake = fakeHttp(http);
    fake.on('GET', 'managers', list([MANAGER]));
    fake.on('GET', 'credit-options/allocation', allocation);
    const entity = role === 'manager' ? 'resellers' : 'dealers';
    fake.on('POST', entity, { status: 201, body: { message: 'Created.', data: role === 'manager' ? RESELLER : DEALER } });
    const onClose = vi.fn();
    const config = role === 'manager' ? resellerLevel : dealerLevel;
    const ui = renderAs(role, <UserFormDialog config={config} mode="create" open onClose={onClose} />);
    await ui.signedIn();
    await waitFor(() => expect(fake.calls('GET', 'credit-options/allocation')).toHaveLength(1));
    ui.type('Name', 'New User');
    ui.type('Username', 'newuser');
    ui.type('Password', 'long enough');
    // Typed into the picker's search, then Enter, as a user does.
    const field = ui.item('Initial credits');
    const input = field.querySelector<HTMLInputElement>('.ant-select-selection-search-input')!;
    fireEvent.mouseDown(field.querySelector('.ant-select-selector')!);
    fireEvent.change(input, { target: { value: typed } });
    await waitFor(() => expect(ui.root().querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item')).not.toBeNull());
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
    fireEvent.keyUp(input, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
    ui.click(`Create ${config.label}`);
    if ('sent' in expected) {
      await waitFor(() => expect(onClose).toHaveBeenCalled());
      expect(fake.calls('POST', entity).map((c) => (c.body as { credits: number }).credits)).toEqual([expected.sent]);
    } else {
      await waitFor(() => expect(ui.errorOf('Initial credits')).toBe(expected.refused));
      await new Promise((r) => setTimeout(r, 200));
      expect(fake.calls('POST', entity)).toHaveLength(0);
    }
    ui.view.unmount();
  }

  it('a manager creating a reseller: 0 is none, 5, 7 and 9 are below the minimum, more than its balance names the balance', async () => {
    await create('manager', '0', { sent: 0 });
    for (const typed of ['5', '7', '9']) await create('manager', typed, { refused: HIERARCHY.minimumCreditLimit(10) });
    await create('manager', '501', { refused: CREDITS.insufficientCredits(501, 500) });
    await create('manager', '12', { sent: 12 });
    await create('manager', '125', { sent: 125 });
  });

  it('a reseller creating a dealer: the same rules', async () => {
    await create('reseller', '0', { sent: 0 });
    await create('reseller', '7', { refused: HIERARCHY.minimumCreditLimit(10) });
    await create('reseller', '501', { refused: CREDITS.insufficientCredits(501, 500) });
    await create('reseller', '13', { sent: 13 });
  });

  it('admin creating a manager: 0, 5, 7 and 9 as typed; 7.5 and more than the cap are refused', async () => {
    const pages = (
      <Routes>
        <Route path="/managers" element={<p>Managers list</p>} />
        <Route path="/managers/create" element={<ManagerFormPage mode="create" />} />
      </Routes>
    );
    const attempt = async (typed: string, expected: { sent: number } | { refused: string }) => {
      fake = fakeHttp(http);
      fake.on('POST', 'managers', { status: 201, body: { message: 'Manager created successfully.', data: MANAGER } });
      const ui = renderAs('admin', pages, '/managers/create');
      await waitFor(() => ui.item('Initial credits'));
      ui.type('Name', 'Mo Manager');
      ui.type('Username', 'mo');
      ui.type('Password', 'long enough');
      ui.type('Initial credits', typed);
      fireEvent.keyDown(ui.input('Initial credits'), { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
      ui.click('Create Manager');
      if ('sent' in expected) {
        await waitFor(() => expect(ui.root().textContent).toContain('Managers list'));
        expect(fake.calls('POST', 'managers').map((c) => (c.body as { credits: number }).credits)).toEqual([expected.sent]);
      } else {
        await waitFor(() => expect(ui.errorOf('Initial credits')).toBe(expected.refused));
        await new Promise((r) => setTimeout(r, 200));
        expect(fake.calls('POST', 'managers')).toHaveLength(0);
      }
      ui.view.unmount();
    };
    for (const typed of [0, 5, 7, 9]) await attempt(String(typed), { sent: typed });
    await attempt('7.5', { refused: ENTITY_FORM.creditsPositive });
    await attempt('10001', { refused: CREDITS.adminAllocationCap });
  });
});
