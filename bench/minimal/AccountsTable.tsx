/**
 * The minimal page's table: the rows of the panel's /users table (the same call, page size and
 * token) in a bare antd table. `npm run bench` also builds the panel with this in place of its
 * accounts page, which measures the panel's frame and providers around the same table.
 */
import { useTable } from '@refinedev/antd';
import { Table } from 'antd';
import { DEFAULT_PAGE_SIZE } from '../../src/contract';

export function AccountsPage() {
  const { tableProps } = useTable({ resource: 'accounts', pagination: { pageSize: DEFAULT_PAGE_SIZE }, syncWithLocation: false });
  return (
    <Table
      {...tableProps}
      rowKey="id"
      columns={[
        { title: 'Login', dataIndex: 'login' },
        { title: 'Full Name', dataIndex: 'full_name' },
        { title: 'MAC Address', dataIndex: 'mac_address' },
        { title: 'Expiry', dataIndex: 'expiry_date' },
        { title: 'Status', dataIndex: 'status' },
      ]}
    />
  );
}
