/**
 * A throwaway resource added by the README's "Adding a resource" recipe (tests/recipe/tariffs): the
 * form's fields carry the schema's labels, bounds, required marks and defaults; the columns and the
 * show page take their labels from it; the route table, the role matrix and the admin menu pick it up
 * from its contract entry and panel declaration alone.
 */
import { Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fieldsOf } from '../../src/components/form';
import { CRUD_PAGE, DATA_TABLE, ROLES, ROUTES, can } from '../../src/contract';
import { menuFor, panelRoutes } from '../../src/navigation';
import { createDataProvider } from '../../src/providers/dataProvider';
import { http } from '../../src/providers/http';
import { tariffBody } from '../recipe/tariffs/contract';
import { TariffsPage } from '../recipe/tariffs/list';
import { waitFor } from './dom';
import { type FakeHttp, fakeHttp } from './fakeHttp';

// The registries with the recipe's files added, as scripts/registry.mjs and the panel's folder glob add them.
vi.mock('../../src/contract/resources', async (actual) => ({
  RESOURCE_ENTRIES: [...(await actual<typeof import('../../src/contract/resources')>()).RESOURCE_ENTRIES, (await import('../recipe/tariffs/contract')).default],
}));
vi.mock('../../src/resources', async (actual) => {
  const resources = await actual<typeof import('../../src/resources')>();
  return { ...resources, panelResources: [...resources.panelResources, (await import('../recipe/tariffs/index')).tariffsResource] };
});

describe('a resource added by the recipe', { timeout: 30_000 }, () => {
  it('has form fields from its schema: labels, required marks, bounds, defaults', () => {
    expect(fieldsOf(tariffBody)).toEqual([
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'months', label: 'Months', type: 'number', required: true, min: 1, max: 120 },
      { name: 'credits', label: 'Credits', type: 'number', required: true, min: 1, max: 1_000_000 },
      { name: 'server_id', label: 'Server', type: 'number', required: true, min: 1, max: expect.any(Number) },
      { name: 'active', label: 'Active', type: 'switch', initial: true },
    ]);
  });

  it('is in the route table, guarded for admin only, and in the admin menu', () => {
    const route = panelRoutes.find((r) => r.path === '/tariffs');
    expect(route?.access).toEqual(['tariffs', 'list']);
    expect(ROUTES.find((r) => r.path === '/tariffs')?.access).toEqual(route!.access);
    for (const role of ROLES) for (const action of ['list', 'create', 'edit', 'delete']) expect(can(role, 'tariffs', action), `${role} ${action}`).toBe(role === 'admin');
    const settings = menuFor('admin').find((entry) => 'group' in entry && entry.group === 'Settings');
    expect(settings && 'children' in settings && settings.children.at(-1)).toMatchObject({ path: '/tariffs', label: 'Tariffs' });
    for (const role of ['manager', 'reseller', 'dealer']) expect(JSON.stringify(menuFor(role))).not.toContain('/tariffs');
  });

  describe('its page', () => {
    let fake: FakeHttp;
    const row = {
      id: 1,
      name: 'Yearly',
      months: 12,
      credits: 10,
      server_id: 1,
      active: true,
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-01T00:00:00.000Z',
    };
    beforeEach(() => {
      fake = fakeHttp(http);
      fake.on('GET', 'tariffs', { status: 200, body: { data: [row], meta: { total: 1 } } });
    });
    const renderPage = () =>
      render(
        <MemoryRouter>
          <App>
            <Refine dataProvider={createDataProvider(fake.http)} options={{ disableTelemetry: true }}>
              <TariffsPage />
            </Refine>
          </App>
        </MemoryRouter>,
      );

    it('lists with titled columns and creates with the derived form', async () => {
      const view = renderPage();
      const button = (text: string) => [...view.baseElement.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);
      await waitFor(() => expect(view.baseElement.textContent).toContain('Yearly'));
      const headers = [...view.baseElement.querySelectorAll('th')].map((th) => th.textContent);
      for (const title of ['Name', 'Months', 'Credits', 'Active']) expect(headers).toContain(title);

      await waitFor(() => expect(button('Add Tariff')).toBeDefined());
      fireEvent.click(button('Add Tariff')!);
      const input = (field: string) => view.baseElement.querySelector<HTMLElement>(`#tariffs-create_${field}`);
      await waitFor(() => expect(input('months')).not.toBeNull());
      expect(input('months')!.getAttribute('aria-valuemin')).toBe('1');
      // A required field is named by its label alone; its mark is only seen.
      expect(view.getByRole('textbox', { name: 'Name' }).id).toBe('tariffs-create_name');
      // The mark is antd's CSS content on a required label (its alt text, set in index.html, is empty).
      expect(view.baseElement.querySelector('label[for="tariffs-create_name"]')!.className.split(' ')).toContain('ant-form-item-required');
      expect(view.baseElement.querySelector('label[for="tariffs-create_active"]')!.className).not.toContain('ant-form-item-required');
      expect(input('months')!.getAttribute('aria-valuemax')).toBe('120');
      expect(input('active')!.getAttribute('aria-checked')).toBe('true');
    });

    it('shows a record with the schema labels from the View row action', async () => {
      fake.on('GET', 'tariffs/1', { status: 200, body: { data: row } });
      const view = renderPage();
      await waitFor(() => expect(view.baseElement.textContent).toContain('Yearly'));
      fireEvent.click(view.getByRole('button', { name: DATA_TABLE.rowActions('Yearly') }));
      await waitFor(() => expect([...view.baseElement.querySelectorAll('[role="menuitem"]')].some((m) => m.textContent === CRUD_PAGE.view)).toBe(true));
      fireEvent.click([...view.baseElement.querySelectorAll('[role="menuitem"]')].find((m) => m.textContent === CRUD_PAGE.view)!);
      await waitFor(() => expect(view.baseElement.querySelector('.ant-descriptions')).not.toBeNull());
      const labels = [...view.baseElement.querySelectorAll('.ant-descriptions-item-label')].map((l) => l.textContent);
      expect(labels).toEqual(['Id', 'Name', 'Months', 'Credits', 'Server', 'Active', 'Created at', 'Updated at']);
      expect(view.baseElement.querySelector('.ant-descriptions')!.textContent).toContain('Yearly');
    });
  });
});
