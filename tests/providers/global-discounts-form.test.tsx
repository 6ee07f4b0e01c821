/**
 * The global discount dialog over a fake HTTP layer: the contract's zod messages before any request
 * (name and server also as a toast), the payload with calendar days and 'empty means
 * unlimited', and a server 422 under the fields through Refine's form mutation.
 */
import { waitFor } from './dom';
import { type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ENTITY_FORM, GLOBAL_DISCOUNTS } from '../../src/contract';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { GlobalDiscountsPage } from '../../src/resources/globalDiscounts/list';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;
let notify: ReturnType<typeof vi.fn<(params: unknown) => void>>;
beforeEach(() => {
  fake = fakeHttp(http);
  notify = vi.fn<(params: unknown) => void>();
  fake.on('GET', 'servers/public', { status: 200, body: { data: [{ id: 1, name: 'Main Server', status: 'active' }] } });
  fake.on('GET', 'global-discounts', { status: 200, body: { data: [DISCOUNT], meta: { total: 1 } } });
  fake.on('GET', 'global-discounts/4', { status: 200, body: { data: DISCOUNT } });
});

const DISCOUNT = {
  id: 4,
  name: 'Spring deal',
  description: null,
  server_id: 1,
  server: { id: 1, name: 'Main Server' },
  validity_months: 6,
  credits_required: 5,
  discount_percentage: 0,
  is_active: true,
  valid_from: '2030-03-01T00:00:00.000Z',
  valid_until: '2030-05-31T23:59:59.999Z',
  max_uses: null,
  current_uses: 0,
};

function renderPage() {
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const view = render(
    <App>
      <Refine dataProvider={createDataProvider(fake.http)} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
        <GlobalDiscountsPage />
      </Refine>
    </App>,
  );
  const dialog = () =>
    [...view.baseElement.querySelectorAll<HTMLElement>('.ant-modal')].find((m) => getComputedStyle(m.closest('.ant-modal-wrap') ?? m).display !== 'none')!;
  const input = (mode: 'create' | 'edit', field: string) => view.baseElement.querySelector<HTMLInputElement>(`#global-discounts-${mode}_${field}`)!;
  const item = (mode: 'create' | 'edit', field: string) => input(mode, field).closest('.ant-form-item')?.textContent ?? '';
  const type = (mode: 'create' | 'edit', field: string, value: string) => fireEvent.change(input(mode, field), { target: { value } });
  const button = (scope: ParentNode, text: string) => [...scope.querySelectorAll('button')].find((b) => b.textContent?.trim() === text)!;
  const save = () => fireEvent.click(button(dialog(), 'Save'));
  const chooseServer = async (mode: 'create' | 'edit', label: string) => {
    fireEvent.mouseDown(input(mode, 'server_id').closest('.ant-select-selector') ?? input(mode, 'server_id'));
    await waitFor(() => expect([...view.baseElement.querySelectorAll('.ant-select-item-option')].some((o) => o.textContent === label)).toBe(true));
    fireEvent.click([...view.baseElement.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === label)!);
  };
  return { view, input, item, type, button, save, chooseServer };
}

const toasts = () =>
  notify.mock.calls.map(([n]) => {
    const { type, message, description } = n as { type: string; message: string; description?: string };
    return description ? { type, title: description, body: message } : { type, title: message };
  });

describe('Global discount dialog', { timeout: 30_000 }, () => {
  it('shows the zod messages before any request, the name one also as a toast', async () => {
    const { view, input, item, button, save } = renderPage();
    await waitFor(() => expect(view.baseElement.textContent).toContain('Spring deal'));
    fireEvent.click(button(view.baseElement, 'Add Global Discount'));
    await waitFor(() => expect(input('create', 'validity_months').value).toBe('12'));
    expect(input('create', 'credits_required').value).toBe('9');

    save();
    await waitFor(() => expect(item('create', 'server_id')).toContain(GLOBAL_DISCOUNTS.selectServer));
    expect(item('create', 'name')).toContain(ENTITY_FORM.nameRequired);
    expect(toasts()).toContainEqual({ type: 'error', title: 'Error', body: ENTITY_FORM.nameRequired });
    expect(fake.calls('POST', 'global-discounts')).toHaveLength(0);
  });

  it("sends the contract's payload and puts a 422's messages under the fields", async () => {
    fake.on('POST', 'global-discounts', {
      status: 422,
      body: { message: 'The given data was invalid.', errors: { name: ['The name has already been taken.'], credits_required: ['Too many credits'] } },
    });
    const { view, input, item, type, button, save, chooseServer } = renderPage();
    await waitFor(() => expect(view.baseElement.textContent).toContain('Spring deal'));
    fireEvent.click(button(view.baseElement, 'Add Global Discount'));
    await waitFor(() => expect(input('create', 'validity_months').value).toBe('12'));

    type('create', 'name', '  Yearly deal ');
    await chooseServer('create', 'Main Server');
    type('create', 'credits_required', '10');
    save();
    await waitFor(() => expect(item('create', 'name')).toContain('The name has already been taken.'));
    expect(item('create', 'credits_required')).toContain('Too many credits');
    expect(fake.calls('POST', 'global-discounts')).toHaveLength(1);
    expect(fake.calls('POST', 'global-discounts')[0].body).toEqual({
      name: 'Yearly deal',
      description: null,
      server_id: 1,
      validity_months: 12,
      credits_required: 10,
      discount_percentage: 0,
      is_active: true,
      valid_from: null,
      valid_until: null,
      max_uses: null,
    });
    // Only the save failure is toasted: the server's field messages are under the fields.
    expect(toasts()).toEqual([{ type: 'error', title: GLOBAL_DISCOUNTS.saveFailed, body: 'Error' }]);
  });

  it('edits a discount keeping its calendar days', async () => {
    fake.on('PUT', 'global-discounts/4', (r) => ({ status: 200, body: { data: { ...DISCOUNT, ...(r.body as object) } } }));
    const { view, input, type, button, save } = renderPage();
    await waitFor(() => expect(view.baseElement.textContent).toContain('Spring deal'));
    fireEvent.click(button(view.baseElement, 'Edit'));
    await waitFor(() => expect(input('edit', 'name').value).toBe('Spring deal'));
    await waitFor(() => expect(input('edit', 'valid_from').value).toBe('2030-03-01'));
    expect(input('edit', 'valid_until').value).toBe('2030-05-31');
    type('edit', 'max_uses', '50');
    save();
    await waitFor(() => expect(fake.calls('PUT', 'global-discounts/4')).toHaveLength(1));
    expect(fake.calls('PUT', 'global-discounts/4')[0].body).toMatchObject({
      name: 'Spring deal',
      valid_from: '2030-03-01T00:00:00.000Z',
      valid_until: '2030-05-31T23:59:59.999Z',
      max_uses: 50,
    });
    await waitFor(() => expect(toasts()).toContainEqual({ type: 'success', title: 'Global discount updated successfully.' }));
  });
});
