/**
 * API tokens on the profile over a fake HTTP layer: the create dialog (name, scopes, expiry, allowed
 * addresses checked before any request), the token shown once with its copy button and gone once
 * closed, the list with prefix and last use, and revoke after a confirmation.
 */
import { fireEvent } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API_TOKENS, type ApiToken, type CurrentUser, STORAGE_KEYS } from '../../src/contract';
import { ProfilePage } from '../../src/pages/Profile';
import { http } from '../../src/providers/http';
import { waitFor } from './dom';
import { type FakeHttp, fakeHttp } from './fakeHttp';
import { signedInAs } from './fakeAuth';
import { renderFormPage } from './formPage';

const USER: CurrentUser = {
  id: 9,
  name: 'Dan Dealer',
  username: 'dealer',
  phone: null,
  role: 'dealer',
  credits: 10,
  bonus_credits: 0,
  server_id: 1,
  is_active: true,
  created_at: '2025-01-01T00:00:00.000Z',
  two_factor: false,
  two_factor_enrol: false,
};

const signedIn = signedInAs(USER);

const TOKEN = 'cpt_0a1b2c3d4e5f_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const ENTRY: ApiToken = {
  id: 4,
  name: 'billing sync',
  prefix: 'cpt_0a1b2c3d4e5f',
  scopes: ['read', 'accounts'],
  allowed_addresses: ['203.0.113.0/24'],
  created_at: '2026-11-01T10:00:00.000Z',
  expires_at: '2099-12-01T10:00:00.000Z',
  last_used_at: null,
  last_used_ip: null,
};
const USED: ApiToken = { ...ENTRY, id: 3, name: 'old script', prefix: 'cpt_ffffffffffff', last_used_at: '2026-11-20T08:00:00.000Z', last_used_ip: '198.51.100.7' };

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(STORAGE_KEYS.token, 'tok');
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
  fake.on('GET', 'profile/two-factor', { status: 200, body: { data: { enabled: false, required: false, recovery_codes_left: 0 } } });
});

describe('API tokens on the profile', { timeout: 30_000 }, () => {
  it('creates a token, shows it once with a copy button, lists it by prefix, and revokes after confirming', async () => {
    let tokens: ApiToken[] = [USED];
    fake.on('GET', 'api-tokens', () => ({ status: 200, body: { data: tokens } }));
    fake.on('POST', 'api-tokens', () => {
      tokens = [ENTRY, ...tokens];
      return { status: 201, body: { message: API_TOKENS.created, token: TOKEN, data: ENTRY } };
    });
    fake.on('DELETE', /^api-tokens\/\d+$/, () => {
      tokens = tokens.filter((t) => t.id !== ENTRY.id);
      return { status: 204 };
    });
    const { view, input, item, type, click } = renderFormPage(<ProfilePage />, { authProvider: signedIn, fake, notify });
    const text = () => view.baseElement.textContent ?? '';

    // The list: prefix, name, last use and from where.
    await waitFor(() => expect(text()).toContain(USED.prefix));
    expect(text()).toContain('198.51.100.7');

    click(API_TOKENS.create);
    await waitFor(() => expect(input('api-token_name')).toBeTruthy());
    // Checked in the panel first: a name, and addresses that are addresses.
    type('api-token_allowed_addresses', '203.0.113.0/24\nnot-an-address');
    fireEvent.click([...view.baseElement.querySelectorAll('.ant-modal button')].find((b) => b.textContent?.trim() === API_TOKENS.create)!);
    await waitFor(() => expect(item('api-token_allowed_addresses')).toContain(API_TOKENS.addressInvalid('not-an-address')));
    expect(item('api-token_name')).toContain(API_TOKENS.nameRequired);
    expect(fake.calls('POST', 'api-tokens')).toHaveLength(0);

    type('api-token_name', 'billing sync');
    type('api-token_allowed_addresses', '203.0.113.0/24');
    fireEvent.click(view.baseElement.querySelector<HTMLInputElement>('.ant-modal input[value="accounts"]')!);
    fireEvent.click([...view.baseElement.querySelectorAll('.ant-modal button')].find((b) => b.textContent?.trim() === API_TOKENS.create)!);
    await waitFor(() => expect(view.baseElement.querySelector('[data-testid=api-token-value]')?.textContent).toContain(TOKEN));
    expect(fake.calls('POST', 'api-tokens')[0].body).toEqual({
      name: 'billing sync',
      scopes: ['read', 'accounts'],
      expires_in_days: 30,
      allowed_addresses: ['203.0.113.0/24'],
    });
    expect(view.baseElement.querySelector(`[aria-label="${API_TOKENS.copy}"], .ant-typography-copy`)).toBeTruthy();
    expect(text()).toContain(API_TOKENS.shownOnce);

    // Closed: the token is gone from the screen for good; the list shows its prefix only.
    click(API_TOKENS.done);
    await waitFor(() => expect(view.baseElement.querySelector('[data-testid=api-token-value]')).toBeNull());
    await waitFor(() => expect(text()).toContain(ENTRY.prefix));
    expect(text()).not.toContain(TOKEN);

    // Revoke asks first, then deletes and reloads the list.
    fireEvent.click(view.baseElement.querySelector<HTMLButtonElement>(`button[aria-label="${API_TOKENS.revoke} ${ENTRY.name}"]`)!);
    await waitFor(() => expect(text()).toContain(API_TOKENS.revokeConfirm(ENTRY.name)));
    expect(fake.calls('DELETE', `api-tokens/${ENTRY.id}`)).toHaveLength(0);
    fireEvent.click([...view.baseElement.querySelectorAll('.ant-modal-confirm button')].find((b) => b.textContent?.trim() === API_TOKENS.revoke)!);
    await waitFor(() => expect(fake.calls('DELETE', `api-tokens/${ENTRY.id}`)).toHaveLength(1));
    await waitFor(() => expect(notify.mock.calls.map(([n]) => (n as { message: string }).message)).toContain(API_TOKENS.revoked));
    await waitFor(() => expect(text()).not.toContain(ENTRY.prefix));
  });
});
