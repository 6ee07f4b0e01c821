/**
 * The one transactions table (docs/domain.md#transactions): the global list, a user's history and the
 * read-only per-manager/reseller/dealer lists. Newest first (sort=-created_at through the provider's
 * 'transactions' convention, also for sub-lists read through meta.path).
 */
import type { CrudFilter } from '@refinedev/core';
import { Tag, Typography } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { DATA_TABLE, HIERARCHY_PANEL, type TransactionEntry } from '../../contract';
import { DataTable, type ListColumn } from '../../components/DataTable';
import { dateTime } from '../../components/display';

const TYPE_COLOR: Record<string, string> = { PURCHASED: 'green', USED: 'orange', RECOVERED: 'blue', TRIAL: 'purple' };

export const TRANSACTION_TYPE_OPTIONS = [
  { label: 'Purchased', value: 'PURCHASED' },
  { label: 'Used', value: 'USED' },
  { label: 'Recovered', value: 'RECOVERED' },
  { label: 'Trial', value: 'TRIAL' },
  { label: 'CRDT (legacy credit)', value: 'CRDT' },
  { label: 'DBIT (legacy debit)', value: 'DBIT' },
  { label: 'RCDT (legacy recovery)', value: 'RCDT' },
];

const NO_FILTERS: CrudFilter[] = [];

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function CreditsCell({ value, bonus }: { value: number; bonus?: number }) {
  return (
    <Typography.Text type={value > 0 ? 'success' : value < 0 ? 'danger' : undefined} strong>
      {signed(value)}
      {bonus ? <Typography.Text type="secondary"> (bonus)</Typography.Text> : null}
    </Typography.Text>
  );
}

/**
 * The columns of a ledger entry in their order. Key (always in the row, and on a phone's card): the number, type,
 * credits, account, date and whose entry it is. Secondary (in the expanded row): the coverage, the
 * balances and the hierarchy names. Remarks stay in the row while they fit.
 */
const numberColumn: ListColumn<TransactionEntry, 'transactions'> = {
  dataIndex: 'transaction_number',
  title: 'Transaction #',
  sortable: true,
  width: 150,
  priority: 'key',
};

const userColumn: ListColumn<TransactionEntry, 'transactions'> = {
  dataIndex: 'user',
  title: 'User',
  width: 150,
  priority: 'key',
  render: (u: TransactionEntry['user']) => (
    <span>
      {u.name} <Typography.Text type="secondary">({u.role})</Typography.Text>
    </span>
  ),
};

const entryColumns: Array<ListColumn<TransactionEntry, 'transactions'>> = [
  { dataIndex: 'type', title: 'Type', sortable: true, width: 110, priority: 'key', render: (t: string) => <Tag color={TYPE_COLOR[t]}>{t}</Tag> },
  { dataIndex: 'credits', title: 'Credits', sortable: true, width: 90, priority: 'key', render: (v: number, r) => <CreditsCell value={v} bonus={r.bonus_credits} /> },
  { dataIndex: 'account', title: 'Account', width: 120, priority: 'key', render: (v: string | null) => v ?? '—' },
  { dataIndex: 'coverage_start', title: 'Coverage Start', width: 150, priority: 'secondary', render: dateTime },
  { dataIndex: 'coverage_end', title: 'Coverage End', width: 150, priority: 'secondary', render: dateTime },
  { dataIndex: 'remarks', title: 'Remarks', width: 200, render: (v: string | null) => v ?? '—' },
  { dataIndex: 'date', title: 'Date', sortKey: 'created_at', sortable: true, width: 140, priority: 'key', render: dateTime },
  { dataIndex: 'balance_before', title: 'Balance Before', width: 130, priority: 'secondary' },
  { dataIndex: 'balance_after', title: 'Balance After', sortable: true, width: 130, priority: 'secondary' },
];

const named = (v: { name: string } | null) => v?.name ?? '—';
const chainColumns: Array<ListColumn<TransactionEntry, 'transactions'>> = [
  { dataIndex: 'manager', title: 'Manager', render: named, priority: 'secondary' },
  { dataIndex: 'reseller', title: 'Reseller', render: named, priority: 'secondary' },
  { dataIndex: 'dealer', title: 'Dealer', render: named, priority: 'secondary' },
];

export interface TransactionsTableProps {
  /** None inside a drawer or dialog that has its own. */
  title?: ReactNode;
  /** Path of a sub-list under /api/v1 ('managers/3/transactions'); the global list when absent. */
  path?: string;
  /** Fixed filters (user_id of a user's history). */
  filters?: CrudFilter[];
  /** Show who each entry belongs to (user, manager, reseller, dealer). */
  showUser?: boolean;
  /** Type and date-range filters. */
  filterable?: boolean;
  /** Buttons beside the title (Back). */
  extra?: ReactNode;
}

export function TransactionsTable({ title, path, filters = NO_FILTERS, showUser = false, filterable = true, extra }: TransactionsTableProps) {
  const columns = useMemo(() => [numberColumn, ...(showUser ? [userColumn] : []), ...entryColumns, ...(showUser ? chainColumns : [])], [showUser]);

  return (
    <DataTable<TransactionEntry, 'transactions'>
      resource="transactions"
      meta={path ? { path } : undefined}
      title={title}
      columns={columns}
      columnChooser={title !== undefined}
      initialSorters={[{ field: 'created_at', order: 'desc' }]}
      permanentFilters={filters}
      searchPlaceholder="Search transactions..."
      selectFilters={filterable ? [{ field: 'type', label: 'Type', options: TRANSACTION_TYPE_OPTIONS }] : []}
      dateRange={filterable ? { from: 'date_from', to: 'date_to', label: 'Date range' } : undefined}
      loadErrorMessage={HIERARCHY_PANEL.transactionsLoadFailed}
      empty={{ hint: DATA_TABLE.noTransactions }}
      extra={extra}
    />
  );
}
