import type { CrudFilter } from '@refinedev/core';
import { Alert } from 'antd';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { STATEMENT } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { BackButton, TransactionsTable } from '../../features/transactions';

/** /transactions: every entry of the caller's subtree, its own included. */
export function TransactionsPage() {
  const { user } = useCurrentUser();
  const statement = user && user.role !== 'admin' ? <Link to={`/statements/${user.id}`}>{STATEMENT.mine}</Link> : undefined;
  return <TransactionsTable title="Transactions" showUser extra={statement} />;
}

/** /user/transactions?userId=: one user's history, with Back (and the table's Refresh). */
export function UserTransactionsPage() {
  const [params] = useSearchParams();
  const userId = params.get('userId');
  const valid = userId !== null && /^\d+$/.test(userId);
  const filters = useMemo<CrudFilter[]>(() => (valid ? [{ field: 'user_id', operator: 'eq', value: userId }] : []), [valid, userId]);
  if (!valid)
    return (
      <Alert type="warning" showIcon message="No user selected" description="Open a user's transactions from a list." action={<BackButton fallback="/transactions" />} />
    );
  return <TransactionsTable title="User Transactions" filters={filters} showUser extra={<BackButton fallback="/transactions" />} />;
}
