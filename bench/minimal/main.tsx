/**
 * The first-load baseline of `npm run bench`: the least a Refine + antd page needs to show the rows of
 * the panel's /users table (the same call with the same page size and the same token), built with the
 * panel's Vite config and served by the same server.
 */
import '@ant-design/v5-patch-for-react-19';
import { type DataProvider, Refine } from '@refinedev/core';
import { createRoot } from 'react-dom/client';
import { API_PREFIX, DEFAULT_PAGE_SIZE, STORAGE_KEYS } from '../../src/contract';
import { AccountsPage } from './AccountsTable';

const unsupported = () => Promise.reject(new Error('read-only baseline'));

const dataProvider: DataProvider = {
  getApiUrl: () => API_PREFIX,
  async getList({ resource, pagination }) {
    const query = new URLSearchParams({ page: String(pagination?.currentPage ?? 1), per_page: String(pagination?.pageSize ?? DEFAULT_PAGE_SIZE) });
    const res = await fetch(`${API_PREFIX}/${resource}?${query}`, { headers: { authorization: `Bearer ${localStorage.getItem(STORAGE_KEYS.token)}` } });
    const body = await res.json();
    return { data: body.data, total: body.meta.total };
  },
  getOne: unsupported,
  create: unsupported,
  update: unsupported,
  deleteOne: unsupported,
};

createRoot(document.getElementById('root')!).render(
  <Refine dataProvider={dataProvider} resources={[{ name: 'accounts', list: '/' }]} options={{ disableTelemetry: true }}>
    <AccountsPage />
  </Refine>,
);
