/** User Search (/user-search, reseller only): the accounts of the reseller's subtree by login, name or MAC. */
import type { Account } from '../../contract';
import { ACCOUNT_SCREEN } from '../../contract';
import { DataTable } from '../../components/DataTable';
import { accountColumns, accountListProps, useAccountActions } from '../../features/accounts';

export function UserSearchPage() {
  const { rowActions, dialogs, preloadDialogs } = useAccountActions();
  return (
    <>
      <DataTable<Account, 'user-search'>
        resource="user-search"
        title={ACCOUNT_SCREEN.userSearch}
        {...accountListProps}
        columns={[...accountColumns.slice(0, 5), { dataIndex: 'owner.username', title: 'Owner' }, ...accountColumns.slice(5)]}
        rowActions={rowActions}
        preload={preloadDialogs}
      />
      {dialogs}
    </>
  );
}
