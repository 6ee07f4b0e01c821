/**
 * The end-user account forms over a fake HTTP layer: Create/Edit User, Auto-renew, Send Message and
 * the MAC Check show the contract's messages under the fields before any request is sent, and a
 * server 422 under the right fields (the rest in the summary box); a paid create carries the
 * opening's Idempotency-Key, kept for a retry; the row actions go through the data provider.
 */
import { waitFor } from './dom';
import { type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNTS, ACCOUNT_SCREEN, type Account, CREDITS, ENTITY_FORM, GENERAL, HIERARCHY, type Role } from '../../src/contract';
import { useAccountActions } from '../../src/features/accounts';
import { AccountFormDialog } from '../../src/features/accounts/AccountFormDialog';
import { AutoRenewDialog } from '../../src/features/accounts/dialogs';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { useCurrentUser } from '../../src/providers/identity';
import { MacSearchPage } from '../../src/resources/macSearch/list';
import { type FakeHttp, fakeHttp } from './fakeHttp';
import { signedInAs } from './fakeAuth';

const INVALID_MONTHS = 'Invalid months: Please enter a value between 1 and 50 months';

const account = (over: Partial<Account> = {}): Account => ({
  id: 7,
  login: 'viewer',
  full_name: 'Vera Viewer',
  pwd_txt: 'box-pass',
  mac_address: '00:1A:79:00:00:01',
  expiry_date: '2020-03-01T10:00:00.000Z',
  validity_months: 1,
  created_at: '2020-01-01T00:00:00.000Z',
  updated_at: '2020-01-01T00:00:00.000Z',
  status: 'active',
  is_active: true,
  is_promo: false,
  bonus_months: 0,
  auto_renew_months: null,
  auto_renew_end_date: null,
  auto_renew_failed_at: null,
  auto_renew_error: null,
  server_id: 1,
  server: { id: 1, name: 'Main' },
  state: 'offline',
  last_active: null,
  ip_address: null,
  connection_status: 'offline',
  is_trial: false,
  owner: { id: 9, name: 'Dan Dealer', username: 'dealer', role: 'dealer' },
  ...over,
});

const quote = (months: number, userCredits: number | null) => ({
  data: {
    server_id: 1,
    months,
    credits: months,
    price_per_month: 1,
    default_credits: 1,
    regular_credits: months,
    savings: 0,
    discount_id: null,
    discount_name: null,
    is_promo: false,
    bonus_months: 0,
    payable_credits: userCredits === null ? 0 : months,
    user_credits: userCredits,
    sufficient: userCredits === null || userCredits >= months,
  },
});
const invalid = (errors: Record<string, string[]>, message = Object.values(errors)[0][0]) => ({ status: 422, body: { message, errors } });

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
let balance: number | null;
beforeEach(() => {
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
  balance = 10;
  fake.on('GET', 'servers/public', {
    status: 200,
    body: {
      data: [
        { id: 1, name: 'Main', status: 'active' },
        { id: 2, name: 'Backup', status: 'active' },
      ],
    },
  });
  fake.on('GET', 'user/manager-server', { status: 200, body: { data: null } });
  fake.on('POST', 'global-discounts/calculate-credits', (r) => ({ status: 200, body: quote((r.body as { months: number }).months, balance) }));
});

/** The toasts as the user reads them (Refine's antd provider shows `description` as the title). */
const toasts = () =>
  notify.mock.calls.map(([n]) => {
    const { type, message, description } = n as { type: string; message: string; description?: string };
    return description ? { type, title: description, body: message } : { type, title: message };
  });

function SignedIn() {
  const { role } = useCurrentUser();
  return <span data-testid="signed-in">{role}</span>;
}

function renderAs(role: Role, ui: ReactNode) {
  const authProvider = signedInAs(
    role === 'admin'
      ? { id: 1, name: 'Admin', username: 'admin', role, credits: null }
      : { id: 9, name: 'Dan Dealer', username: 'dealer', role, credits: balance, bonus_credits: 0 },
  );
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const view = render(
    <MemoryRouter>
      <Refine
        dataProvider={createDataProvider(fake.http)}
        authProvider={authProvider}
        notificationProvider={notificationProvider}
        resources={[{ name: 'accounts' }, { name: 'user-search' }, { name: 'mac-search' }]}
        options={{ disableTelemetry: true }}
      >
        <App>
          <SignedIn />
          {ui}
        </App>
      </Refine>
    </MemoryRouter>,
  );
  const root = () => view.baseElement;
  /** The form item labelled `label`. */
  const item = (label: string) => {
    const items = [...root().querySelectorAll('.ant-form-item')].filter((i) => i.querySelector('.ant-form-item-label label')?.textContent === label);
    if (items.length === 0) throw new Error(`no field labelled ${label}`);
    return items.at(-1)!;
  };
  /** The message shown under the field labelled `label` ('' when none). */
  const errorOf = (label: string) => item(label).querySelector('.ant-form-item-explain-error')?.textContent ?? '';
  /** The input the label names (its `for`), else the field's first input. */
  const input = (label: string) => {
    const field = item(label);
    const target = field.querySelector('label')?.htmlFor;
    return (target ? field.querySelector<HTMLInputElement>(`[id="${target}"]`) : null) ?? field.querySelector<HTMLInputElement>('input, textarea')!;
  };
  const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
  const button = (text: string) => {
    const found = [...root().querySelectorAll('button')].filter((b) => b.textContent === text);
    if (found.length === 0) throw new Error(`no button ${text}`);
    return found.at(-1)!;
  };
  const click = (text: string) => fireEvent.click(button(text));
  const signedIn = () => waitFor(() => expect(view.getByTestId('signed-in').textContent).toBe(role));
  const summary = () => [...root().querySelectorAll('.ant-modal .ant-alert-error li')].map((li) => li.textContent);
  return { view, root, item, errorOf, input, type, button, click, signedIn, summary };
}

describe('Create User', { timeout: 60_000 }, () => {
  it('shows the contract messages under the fields and sends nothing while they stand', async () => {
    const ui = renderAs('dealer', <AccountFormDialog target="create" onClose={vi.fn()} />);
    await ui.signedIn();
    await waitFor(() => expect(ui.item('Server').textContent).toContain('Main'));
    // Create waits for the price of the months chosen.
    expect((ui.button('Create') as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect((ui.button('Create') as HTMLButtonElement).disabled).toBe(false));

    ui.click('Create');
    await waitFor(() => expect(ui.errorOf('Name')).toBe(ENTITY_FORM.nameRequired));
    expect(ui.errorOf('Username')).toBe(ENTITY_FORM.usernameRequired);
    expect(ui.errorOf('Password')).toBe(ENTITY_FORM.passwordRequiredAccounts);
    expect(ui.errorOf('STB MAC address')).toBe(ENTITY_FORM.macRequired);

    ui.type('STB MAC address', '12:34');
    ui.type('Username', 'not valid');
    ui.type('Months', '60');
    await waitFor(() => expect(ui.errorOf('STB MAC address')).toBe(ENTITY_FORM.invalidMac));
    expect(ui.errorOf('Username')).toBe(HIERARCHY.usernameFormat);
    await waitFor(() => expect(ui.errorOf('Months')).toBe(INVALID_MONTHS));
    ui.click('Create');
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.calls('POST', 'accounts')).toHaveLength(0);
  });

  it('checks the balance against the price before sending', async () => {
    balance = 2;
    const ui = renderAs('dealer', <AccountFormDialog target="create" onClose={vi.fn()} />);
    await ui.signedIn();
    ui.type('Name', 'Vera Viewer');
    ui.type('Username', 'viewer');
    ui.type('Password', 'box-pass');
    ui.type('STB MAC address', '001a79000001');
    ui.type('Months', '3');
    await waitFor(() => expect(ui.view.getByTestId('renewal-balance').textContent).toBe('2 credits'));
    await waitFor(() => expect(ui.view.getByTestId('renewal-total').textContent).toBe('3 credits'));
    ui.click('Create');
    await waitFor(() => expect(ui.errorOf('Months')).toBe(CREDITS.insufficientCredits(3, 2)));
    expect(fake.calls('POST', 'accounts')).toHaveLength(0);
  });

  it("puts the API's 422 under the fields, then creates with the opening's Idempotency-Key", async () => {
    let attempt = 0;
    fake.on('POST', 'accounts', () =>
      ++attempt === 1
        ? invalid({ mac_address: [ACCOUNTS.macTaken], credits: [CREDITS.insufficientCredits(1, 0)] })
        : { status: 201, body: { message: ACCOUNTS.created, data: account({ id: 8 }) } },
    );
    const onClose = vi.fn();
    const ui = renderAs('dealer', <AccountFormDialog target="create" onClose={onClose} />);
    await ui.signedIn();
    await waitFor(() => expect(ui.item('Server').textContent).toContain('Main'));
    ui.type('Name', '  Vera Viewer ');
    ui.type('Username', 'viewer');
    ui.type('Password', 'box-pass');
    ui.type('STB MAC address', 'a4-b1-c2-0d-9e-7f');
    expect(ui.input('STB MAC address').value).toBe('A4-B1-C2-0D-9E-7F');
    await waitFor(() => expect(ui.view.getByTestId('renewal-total').textContent).toBe('1 credit'));

    ui.click('Create');
    await waitFor(() => expect(ui.errorOf('STB MAC address')).toBe(ACCOUNTS.macTaken));
    // The purchase's credits refusal shows under the Subscription choice, and nothing is left for the box.
    expect(ui.errorOf('Subscription')).toBe(CREDITS.insufficientCredits(1, 0));
    expect(ui.summary()).toEqual([]);
    expect(toasts().at(-1)).toEqual({ type: 'error', title: GENERAL.error, body: ACCOUNT_SCREEN.createFailed });
    expect(onClose).not.toHaveBeenCalled();

    ui.click('Create');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [first, second] = fake.calls('POST', 'accounts');
    expect(first.body).toEqual({ full_name: 'Vera Viewer', login: 'viewer', password: 'box-pass', mac_address: 'A4B1C20D9E7F', server_id: 1, months: 1 });
    expect(first.headers['Idempotency-Key']).toMatch(/.{8,}:create$/);
    // The retry of the same opening reuses the key: the server replays instead of charging twice.
    expect(second.headers['Idempotency-Key']).toBe(first.headers['Idempotency-Key']);
    expect(toasts().at(-1)).toEqual({ type: 'success', title: ACCOUNTS.created });
  });

  it('creates a trial without months, and shows a refusal of the trial under the Subscription choice', async () => {
    fake.on('POST', 'accounts', invalid({ is_trial: [ACCOUNTS.trialsDisabled], rate_limit: ['Too many credit operations.'] }, 'The given data was invalid.'));
    const ui = renderAs('dealer', <AccountFormDialog target="create" onClose={vi.fn()} />);
    await ui.signedIn();
    await waitFor(() => expect(ui.item('Server').textContent).toContain('Main'));
    ui.type('Name', 'Vera Viewer');
    ui.type('Username', 'viewer');
    ui.type('Password', 'box-pass');
    ui.type('STB MAC address', '001A79000001');
    fireEvent.click(ui.view.getByLabelText('Trial (7 days)'));
    await waitFor(() => expect(() => ui.item('Months')).toThrow());

    ui.click('Create');
    await waitFor(() => expect(ui.errorOf('Subscription')).toBe(ACCOUNTS.trialsDisabled));
    expect(fake.calls('POST', 'accounts')[0].body).toEqual({
      full_name: 'Vera Viewer',
      login: 'viewer',
      password: 'box-pass',
      mac_address: '001A79000001',
      server_id: 1,
      is_trial: true,
    });
    // What belongs to no field is listed in the box, and the toast says the server's message.
    expect(ui.summary()).toEqual(['Too many credit operations.']);
    expect(toasts().at(-1)).toEqual({ type: 'error', title: GENERAL.error, body: 'The given data was invalid.' });
  });
});

describe('Edit User', { timeout: 60_000 }, () => {
  it("keeps an empty password and an untouched past expiry out of the body, and puts the API's 422 under the fields", async () => {
    let attempt = 0;
    fake.on('PUT', 'accounts/7', () =>
      ++attempt === 1
        ? invalid({ login: [ACCOUNTS.loginTaken], server_id: [HIERARCHY.serverInvalid] })
        : { status: 200, body: { message: ACCOUNTS.updated, data: account() } },
    );
    const onClose = vi.fn();
    const ui = renderAs('admin', <AccountFormDialog target={account()} onClose={onClose} />);
    await ui.signedIn();
    await waitFor(() => expect(ui.input('Username').value).toBe('viewer'));
    expect(ui.input('STB MAC address').value).toBe('00:1A:79:00:00:01');
    expect(ui.item('Password').textContent).toContain(ENTITY_FORM.keepPassword);

    ui.type('Name', '');
    ui.click('Save');
    await waitFor(() => expect(ui.errorOf('Name')).toBe(ENTITY_FORM.nameRequired));
    expect(fake.calls('PUT', 'accounts/7')).toHaveLength(0);

    ui.type('Name', 'Vera V.');
    ui.click('Save');
    await waitFor(() => expect(ui.errorOf('Username')).toBe(ACCOUNTS.loginTaken));
    expect(ui.errorOf('Server')).toBe(HIERARCHY.serverInvalid);
    // The expiry (in the past, untouched) is neither refused nor sent.
    expect(ui.errorOf('Expiry date')).toBe('');
    expect(fake.calls('PUT', 'accounts/7')[0].body).toEqual({ full_name: 'Vera V.', login: 'viewer', mac_address: '001A79000001', server_id: 1, status: 'active' });
    expect(fake.calls('PUT', 'accounts/7')[0].headers['Idempotency-Key']).toBeUndefined();
    expect(toasts().at(-1)).toEqual({ type: 'error', title: GENERAL.error, body: ACCOUNT_SCREEN.updateFailed });

    ui.type('Password', 'new-pass');
    ui.click('Save');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('PUT', 'accounts/7')[1].body).toMatchObject({ password: 'new-pass' });
    expect(toasts().at(-1)).toEqual({ type: 'success', title: ACCOUNTS.updated });
  });
});

describe('Auto-renew dialog', { timeout: 60_000 }, () => {
  it('checks the months and the end date before sending, and shows the API refusal under the field', async () => {
    fake.on('POST', 'accounts/7/auto-renew', invalid({ months: ['Please enter a value between 1 and 50 months'] }));
    const ui = renderAs('dealer', <AutoRenewDialog account={account({ auto_renew_months: 2, auto_renew_end_date: '2020-06-30T23:59:59.999Z' })} onClose={vi.fn()} />);
    await waitFor(() => expect(ui.input('Months').value).toBe('2'));

    ui.click('Save');
    await waitFor(() => expect(ui.errorOf('End date')).toBe(ACCOUNTS.autoRenewEndPast));
    ui.type('Months', '0');
    await waitFor(() => expect(ui.errorOf('Months')).toBe(INVALID_MONTHS));
    ui.type('Months', '');
    ui.click('Save');
    await waitFor(() => expect(ui.errorOf('Months')).toBe(INVALID_MONTHS));
    expect(fake.calls('POST', 'accounts/7/auto-renew')).toHaveLength(0);

    // Disable needs no months: it sends 0 and clears the end date; the API's refusal lands under the months.
    ui.click('Disable');
    await waitFor(() => expect(fake.calls('POST', 'accounts/7/auto-renew')).toHaveLength(1));
    expect(fake.calls('POST', 'accounts/7/auto-renew')[0].body).toEqual({ months: 0, auto_renew_end_date: null });
    await waitFor(() => expect(ui.errorOf('Months')).toBe('Please enter a value between 1 and 50 months'));
    expect(toasts().at(-1)).toEqual({ type: 'error', title: GENERAL.error, body: 'Please enter a value between 1 and 50 months' });
  });

  it('enables auto-renew for the chosen months', async () => {
    fake.on('POST', 'accounts/7/auto-renew', { status: 200, body: { message: ACCOUNTS.autoRenewEnabled, data: account({ auto_renew_months: 3 }) } });
    const onClose = vi.fn();
    const ui = renderAs('dealer', <AutoRenewDialog account={account()} onClose={onClose} />);
    await waitFor(() => expect(ui.input('Months').value).toBe('1'));
    ui.type('Months', '3');
    ui.click('Enable');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls('POST', 'accounts/7/auto-renew')[0].body).toEqual({ months: 3, auto_renew_end_date: null });
    expect(toasts().at(-1)).toEqual({ type: 'success', title: ACCOUNTS.autoRenewEnabled });
  });
});

describe('MAC Check', { timeout: 60_000 }, () => {
  it("checks the MAC with the API's rule before asking, shows a 422 under the fields, then the result", async () => {
    let attempt = 0;
    fake.on('GET', 'mac-search', () =>
      ++attempt === 1
        ? invalid({ server_id: [HIERARCHY.serverInvalid] })
        : {
            status: 200,
            body: { data: { mac: 'A4:B1:C2:0D:9E:7F', found: true, registered_elsewhere: false, account: account(), accounts: [account()], message: ACCOUNTS.macFound } },
          },
    );
    const ui = renderAs('dealer', <MacSearchPage />);
    await waitFor(() => ui.item('MAC address'));

    ui.click('Check');
    await waitFor(() => expect(ui.errorOf('MAC address')).toBe(ENTITY_FORM.invalidMac));
    ui.type('MAC address', 'a4b1.c20d');
    await waitFor(() => expect(ui.errorOf('MAC address')).toBe(ENTITY_FORM.invalidMac));
    expect(fake.calls('GET', 'mac-search')).toHaveLength(0);

    ui.type('MAC address', 'a4b1.c20d.9e7f');
    ui.click('Check');
    await waitFor(() => expect(ui.errorOf('Server')).toBe(HIERARCHY.serverInvalid));
    expect(fake.calls('GET', 'mac-search')[0].query).toEqual({ mac: 'A4B1C20D9E7F' });
    expect(toasts()).toEqual([]);

    ui.click('Check');
    await waitFor(() => expect(ui.view.getByTestId('mac-result').textContent).toContain(ACCOUNTS.macFound));
    expect(ui.view.getByTestId('mac-account').textContent).toContain('Dan Dealer');
    expect(fake.calls('GET', 'mac-search')).toHaveLength(2);
  });

  it('says a refusal without field messages in a toast', async () => {
    fake.on('GET', 'mac-search', { status: 500, body: { message: 'Server Error' } });
    const ui = renderAs('dealer', <MacSearchPage />);
    await waitFor(() => ui.item('MAC address'));
    ui.type('MAC address', '00:1a:79:00:00:01');
    ui.click('Check');
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'error', title: GENERAL.error, body: 'Server Error' }));
    expect(ui.view.queryByTestId('mac-result')).toBeNull();
  });
});

function RowActions({ record }: { record: Account }) {
  const { rowActions, dialogs } = useAccountActions();
  return (
    <>
      {rowActions(record)
        .filter((a) => !a.hidden)
        .map((a) => (
          <button key={a.key} type="button" onClick={() => a.onClick(record)}>
            {a.label}
          </button>
        ))}
      {dialogs}
    </>
  );
}

describe('account row actions', { timeout: 60_000 }, () => {
  it('change the status, reset the device and delete through the data provider, with their toasts', async () => {
    fake.on('PATCH', 'accounts/7', { status: 200, body: { message: HIERARCHY.statusUpdated, data: account({ status: 'inactive' }) } });
    fake.on('POST', 'accounts/7/reset-device', { status: 200, body: { message: ACCOUNTS.deviceReset, data: account() } });
    fake.on('DELETE', 'accounts/7', { status: 403, body: { message: 'This action is unauthorized.' } });
    const ui = renderAs('dealer', <RowActions record={account()} />);
    await ui.signedIn();
    const confirmWith = async (ok: string) => {
      await waitFor(() => expect(ui.root().querySelector('.ant-modal-confirm')).not.toBeNull());
      fireEvent.click([...ui.root().querySelectorAll('.ant-modal-confirm button')].find((b) => b.textContent === ok)!);
    };

    await waitFor(() => ui.button('Deactivate'));
    ui.click('Deactivate');
    await confirmWith('Deactivate');
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'success', title: HIERARCHY.statusUpdated }));
    expect(fake.calls('PATCH', 'accounts/7')[0].body).toEqual({ is_active: false });

    ui.click(ACCOUNT_SCREEN.resetDevice);
    await confirmWith('Confirm');
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'success', title: ACCOUNTS.deviceReset }));
    expect(fake.calls('POST', 'accounts/7/reset-device')).toHaveLength(1);

    ui.click('Delete');
    await confirmWith('Delete');
    await waitFor(() => expect(toasts().at(-1)).toEqual({ type: 'error', title: GENERAL.error, body: 'This action is unauthorized.' }));
    expect(fake.calls('DELETE', 'accounts/7')).toHaveLength(1);
  });
});
