/** /managers/:id/transactions, /resellers/:id/transactions, /dealers/:id/transactions: read-only, with Back. */
import { useOne } from '@refinedev/core';
import { Tag } from 'antd';
import { useParams } from 'react-router';
import type { HierarchyUser } from '../../contract';
import type { CreditEntity } from '../credits/creditCall';
import { BackButton } from '../../components/layout/BackButton';
import { TransactionsTable } from './TransactionsTable';
import { nameWithUsername, plural } from '../../contract';

export function EntityTransactionsPage({ entity, label }: { entity: CreditEntity; label: string }) {
  const { id } = useParams();
  const { result: user } = useOne<HierarchyUser>({ resource: entity, id: id!, queryOptions: { enabled: Boolean(id), retry: false }, errorNotification: false });
  const title = user ? `${label} Transactions: ${nameWithUsername(user.name, user.username)}` : `${label} Transactions`;
  return (
    <TransactionsTable
      title={title}
      path={`${entity}/${id}/transactions`}
      extra={
        <>
          {user && <Tag color="blue">Balance: {plural(user.credits, 'credit')}</Tag>}
          <BackButton fallback={`/${entity}`} />
        </>
      }
    />
  );
}
