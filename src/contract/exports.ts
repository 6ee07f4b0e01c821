/**
 * What each list's CSV export holds: its columns, titled as the panel's table names them, each read
 * from the row the list's JSON answer carries. The API streams these (server/http/list.ts); the panel
 * offers an Export button on every list named here.
 */
import type { CsvColumn } from './csv';
import type { Account, HierarchyUser, NamedRef, TransactionEntry } from './entities';
import type { AuditLog } from './schemas/auditLogs';
import type { StatementEntry } from './schemas/statements';
import type { Ticket } from './schemas/tickets';

export interface CsvExport<T> {
  /** The download's name without extension. */
  filename: string;
  columns: ReadonlyArray<CsvColumn<T>>;
}

const named = (ref: NamedRef | null | undefined) => ref?.name ?? null;

const member = (childrenTitle: string | null, nameTitle: string): ReadonlyArray<CsvColumn<HierarchyUser>> => [
  { title: 'ID', value: (u) => u.id },
  { title: nameTitle, value: (u) => u.name },
  { title: 'Username', value: (u) => u.username },
  { title: 'Phone', value: (u) => u.phone },
  { title: 'Server', value: (u) => named(u.server) },
  { title: 'Manager', value: (u) => named(u.manager) },
  { title: 'Reseller', value: (u) => named(u.reseller) },
  { title: 'Credits', value: (u) => u.credits },
  { title: 'Bonus Credits', value: (u) => u.bonus_credits },
  ...(childrenTitle ? [{ title: childrenTitle, value: (u: HierarchyUser) => u.total_children }] : []),
  { title: 'Total Users', value: (u) => u.total_accounts },
  { title: 'Status', value: (u) => u.status },
  { title: 'Created', value: (u) => u.created_at },
];

export const LIST_EXPORTS = {
  accounts: {
    filename: 'accounts',
    columns: [
      { title: 'ID', value: (a) => a.id },
      { title: 'Login', value: (a) => a.login },
      { title: 'Full Name', value: (a) => a.full_name },
      { title: 'MAC', value: (a) => a.mac_address },
      { title: 'Server', value: (a) => named(a.server) },
      { title: 'Owner', value: (a) => a.owner.username },
      { title: 'Expiry', value: (a) => a.expiry_date },
      { title: 'State', value: (a) => a.state },
      { title: 'Status', value: (a) => a.status },
      { title: 'Trial', value: (a) => (a.is_trial ? 'yes' : 'no') },
      { title: 'Auto-renew Months', value: (a) => a.auto_renew_months },
      { title: 'Last Active', value: (a) => a.last_active },
      { title: 'Created', value: (a) => a.created_at },
    ],
  } satisfies CsvExport<Account>,
  managers: { filename: 'managers', columns: member('Total Resellers', 'Name') } satisfies CsvExport<HierarchyUser>,
  resellers: { filename: 'resellers', columns: member('Total Dealers', 'Reseller Name') } satisfies CsvExport<HierarchyUser>,
  dealers: { filename: 'dealers', columns: member(null, 'Dealer Name') } satisfies CsvExport<HierarchyUser>,
  transactions: {
    filename: 'transactions',
    columns: [
      { title: 'Transaction #', value: (t) => t.transaction_number },
      { title: 'User', value: (t) => t.user.username },
      { title: 'Type', value: (t) => t.type },
      { title: 'Credits', value: (t) => t.credits },
      { title: 'Bonus Credits', value: (t) => t.bonus_credits },
      { title: 'Account', value: (t) => t.account },
      { title: 'Coverage Start', value: (t) => t.coverage_start },
      { title: 'Coverage End', value: (t) => t.coverage_end },
      { title: 'Remarks', value: (t) => t.remarks },
      { title: 'Date', value: (t) => t.date },
      { title: 'Balance Before', value: (t) => t.balance_before },
      { title: 'Balance After', value: (t) => t.balance_after },
      { title: 'Manager', value: (t) => named(t.manager) },
      { title: 'Reseller', value: (t) => named(t.reseller) },
      { title: 'Dealer', value: (t) => named(t.dealer) },
    ],
  } satisfies CsvExport<TransactionEntry>,
  'audit-logs': {
    filename: 'audit-logs',
    columns: [
      { title: 'ID', value: (l) => l.id },
      { title: 'Date', value: (l) => l.created_at },
      { title: 'User', value: (l) => l.username },
      { title: 'Module', value: (l) => l.module },
      { title: 'Action', value: (l) => l.action },
      { title: 'Target', value: (l) => l.target_username },
      { title: 'Entity ID', value: (l) => l.entity_id },
      { title: 'Description', value: (l) => l.description },
      { title: 'IP', value: (l) => l.ip_address },
    ],
  } satisfies CsvExport<AuditLog>,
  tickets: {
    filename: 'tickets',
    columns: [
      { title: 'ID', value: (t) => t.id },
      { title: 'Subject', value: (t) => t.subject },
      { title: 'Status', value: (t) => t.status },
      { title: 'Priority', value: (t) => t.priority },
      { title: 'Category', value: (t) => t.category?.name },
      { title: 'Opened by', value: (t) => t.user.username },
      { title: 'Replies', value: (t) => t.replies_count },
      { title: 'Created', value: (t) => t.created_at },
      { title: 'Last activity', value: (t) => t.updated_at },
    ],
  } satisfies CsvExport<Ticket>,
};

export type ExportableList = keyof typeof LIST_EXPORTS;
export const isExportableList = (name: string): name is ExportableList => Object.hasOwn(LIST_EXPORTS, name);

/** A statement's CSV: the opening line, each entry, the closing line and the totals by type. */
export const STATEMENT_EXPORT: CsvExport<Partial<StatementEntry>> = {
  filename: 'statement',
  columns: [
    { title: 'Date', value: (e) => e.created_at },
    { title: 'Transaction #', value: (e) => e.transaction_number },
    { title: 'Type', value: (e) => e.type },
    { title: 'Credits', value: (e) => e.credits },
    { title: 'Bonus Credits', value: (e) => e.bonus_credits },
    { title: 'Balance Before', value: (e) => e.balance_before },
    { title: 'Balance After', value: (e) => e.balance_after },
    { title: 'Account', value: (e) => e.account },
    { title: 'Member', value: (e) => e.counterparty?.username },
    { title: 'By', value: (e) => e.actor?.username },
    { title: 'Remarks', value: (e) => e.remarks },
  ],
};
