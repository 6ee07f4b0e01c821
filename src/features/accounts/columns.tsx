/** The accounts table's columns (/users), shared by the accounts screen and user search. */
import { Typography } from 'antd';
import { type Account, formatMac } from '../../contract';
import type { ListColumn } from '../../components/DataTable';
import { StatusTag, dateTime } from '../../components/display';
import { ExpiryCell } from './ExpiryCell';

export const accountColumns: Array<ListColumn<Account, 'accounts'>> = [
  { dataIndex: 'login', title: 'Login', sortable: true, priority: 'key' },
  { dataIndex: 'full_name', title: 'Full Name', sortable: true },
  {
    dataIndex: 'pwd_txt',
    title: 'Password',
    // As the API answers it: plain for reseller and dealer, masked for admin and manager.
    render: (v: string) => <Typography.Text copyable={v !== '********' ? { text: v } : false}>{v}</Typography.Text>,
    responsive: ['md'],
  },
  { dataIndex: 'mac_address', title: 'MAC', sortable: true, render: (v: string) => <Typography.Text code>{formatMac(v)}</Typography.Text>, width: 180, priority: 'key' },
  { dataIndex: 'server.name', title: 'Server', render: (v: string | undefined) => v ?? '—', responsive: ['lg'] },
  {
    dataIndex: 'expiry_date',
    title: 'Expiry',
    sortable: true,
    width: 250,
    ellipsis: false,
    render: (v: string | null) => <ExpiryCell value={v} />,
    priority: 'key',
    inlineAction: 'renew',
  },
  { dataIndex: 'state', title: 'State', render: (v: string) => <StatusTag status={v ?? 'offline'} /> },
  { dataIndex: 'status', title: 'Status', sortable: true, render: (v: string) => <StatusTag status={v} />, priority: 'key' },
  { dataIndex: 'created_at', title: 'Created', sortable: true, render: dateTime, responsive: ['lg'] },
];
