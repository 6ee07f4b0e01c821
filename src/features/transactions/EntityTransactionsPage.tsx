/** /managers/:id/transactions, /resellers/:id/transactions, /dealers/:id/transactions: read-only, with Back. */
import { useOne } from '@refinedev/core';
import { Tag } from 'antd';
import { useParams } from 'react-router';
import type { HierarchyUser } from '../../contract';
import type { CreditEntity } from '../credits/creditCall';
import { BackButton } from '../../components/layout/BackButton';
import { TransactionsTable } from './TransactionsTable';

export function EntityTransactionsPage({ entity, label }: { entity: CreditEntity; label: string }) {
  const { id } = useParams();
  const { result: user } = useOne<HierarchyUser>({ resource: entity, id: id!, queryOptions: { enabled: Boolean(id), retry: false }, errorNotification: false });
  const title = user ? `${label} Transactions: ${user.name} (${user.username})` : `${label} Transactions`;
  return (
    <TransactionsTable
      title={title}
      path={`${entity}/${id}/transactions`}
      extra={
        <>
          {user && <Tag color="blue">Balance: {user.credits} credits</Tag>}
          <BackButton fallback={`/${entity}`} />
        </>
      }
    />
  );
}
