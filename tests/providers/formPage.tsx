/** A page rendered as the panel mounts it (antd App, a router, Refine over a fake HTTP layer), with helpers to fill and read its form. */
import { type AuthProvider, type NotificationProvider, Refine } from '@refinedev/core';
import { fireEvent, render } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { createDataProvider } from '../../src/providers/dataProvider';
import type { FakeHttp } from './fakeHttp';

export function renderFormPage(page: ReactNode, { authProvider, fake, notify }: { authProvider: AuthProvider; fake: FakeHttp; notify: (params: unknown) => void }) {
  const notificationProvider: NotificationProvider = { open: notify, close: () => undefined };
  const view = render(
    <App>
      <MemoryRouter>
        <Refine dataProvider={createDataProvider(fake.http)} authProvider={authProvider} notificationProvider={notificationProvider} options={{ disableTelemetry: true }}>
          {page}
        </Refine>
      </MemoryRouter>
    </App>,
  );
  const input = (id: string) => view.baseElement.querySelector<HTMLInputElement>(`#${id}`)!;
  /** The text of the form item around a field: its label and the message under it. */
  const item = (id: string) => input(id).closest('.ant-form-item')?.textContent ?? '';
  const type = (id: string, value: string) => fireEvent.change(input(id), { target: { value } });
  const button = (text: string) => [...view.baseElement.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);
  const click = (text: string) => fireEvent.click(button(text)!);
  return { view, input, item, type, click, button };
}
