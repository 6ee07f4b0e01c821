/**
 * The second first-load baseline of `npm run bench`: a Refine + antd app as Refine's own templates
 * build one, showing the rows of the panel's /users table (the same call, page size and token):
 * `ThemedLayout` with its sider and header, the react-router bindings, an auth provider (sign-in,
 * session check, identity from `GET /user`), antd's notification provider and a `useTable` list
 * under `List`. Pages are imported statically, as the templates do; built with the panel's Vite
 * config and served by the same server.
 */
import '@ant-design/v5-patch-for-react-19';
import '@refinedev/antd/dist/reset.css';
import { AuthPage, List, RefineThemes, ThemedLayout, useNotificationProvider, useTable } from '@refinedev/antd';
import { Authenticated, type AuthProvider, type DataProvider, Refine } from '@refinedev/core';
import routerProvider, { CatchAllNavigate, NavigateToResource } from '@refinedev/react-router';
import { App as AntdApp, ConfigProvider, Table } from 'antd';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Outlet, Route, Routes } from 'react-router';
import { API_PREFIX, DEFAULT_PAGE_SIZE, STORAGE_KEYS } from '../../src/contract';

const token = () => localStorage.getItem(STORAGE_KEYS.token);

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${API_PREFIX}/${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(token() ? { authorization: `Bearer ${token()}` } : {}), ...init.headers },
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(body.message ?? res.statusText), { statusCode: res.status });
  return body as T;
}

const unsupported = () => Promise.reject(new Error('read-only baseline'));

const dataProvider: DataProvider = {
  getApiUrl: () => API_PREFIX,
  async getList({ resource, pagination }) {
    const query = new URLSearchParams({ page: String(pagination?.currentPage ?? 1), per_page: String(pagination?.pageSize ?? DEFAULT_PAGE_SIZE) });
    const body = await api<{ data: never[]; meta: { total: number } }>(`${resource}?${query}`);
    return { data: body.data, total: body.meta.total };
  },
  getOne: unsupported,
  create: unsupported,
  update: unsupported,
  deleteOne: unsupported,
};

const authProvider: AuthProvider = {
  async login({ username, email, password }) {
    try {
      const body = await api<{ token: string; user: { role: string } }>('login', { method: 'POST', body: JSON.stringify({ username: username ?? email, password }) });
      localStorage.setItem(STORAGE_KEYS.token, body.token);
      localStorage.setItem(STORAGE_KEYS.userRole, body.user.role);
      return { success: true, redirectTo: '/' };
    } catch (error) {
      return { success: false, error: error as Error };
    }
  },
  async logout() {
    localStorage.removeItem(STORAGE_KEYS.token);
    return { success: true, redirectTo: '/login' };
  },
  check: async () => (token() ? { authenticated: true } : { authenticated: false, redirectTo: '/login' }),
  onError: async (error) => ((error as { statusCode?: number }).statusCode === 401 ? { logout: true } : {}),
  getIdentity: async () => (token() ? api<{ id: number; name: string }>('user') : null),
};

function AccountList() {
  const { tableProps } = useTable({ resource: 'accounts', pagination: { pageSize: DEFAULT_PAGE_SIZE }, syncWithLocation: false });
  return (
    <List title="Users">
      <Table {...tableProps} rowKey="id">
        <Table.Column title="Login" dataIndex="login" />
        <Table.Column title="Full Name" dataIndex="full_name" />
        <Table.Column title="MAC Address" dataIndex="mac_address" />
        <Table.Column title="Expiry" dataIndex="expiry_date" />
        <Table.Column title="Status" dataIndex="status" />
      </Table>
    </List>
  );
}

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <ConfigProvider theme={RefineThemes.Blue}>
      <AntdApp>
        <Refine
          dataProvider={dataProvider}
          authProvider={authProvider}
          routerProvider={routerProvider}
          notificationProvider={useNotificationProvider}
          resources={[{ name: 'accounts', list: '/users', meta: { label: 'Users' } }]}
          options={{ disableTelemetry: true }}
        >
          <Routes>
            <Route
              element={
                <Authenticated key="signed-in" fallback={<CatchAllNavigate to="/login" />}>
                  <ThemedLayout>
                    <Outlet />
                  </ThemedLayout>
                </Authenticated>
              }
            >
              <Route index element={<NavigateToResource resource="accounts" />} />
              <Route path="/users" element={<AccountList />} />
            </Route>
            <Route
              element={
                <Authenticated key="signed-out" fallback={<Outlet />}>
                  <NavigateToResource resource="accounts" />
                </Authenticated>
              }
            >
              <Route path="/login" element={<AuthPage type="login" />} />
            </Route>
          </Routes>
        </Refine>
      </AntdApp>
    </ConfigProvider>
  </BrowserRouter>,
);
