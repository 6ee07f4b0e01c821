/**
 * What every credit move of the panel shares: the refresh afterwards (the header's credits figure, the
 * lists, the transaction lists). The moves themselves go through Refine (the credit dialogs' form
 * mutation, useCustomMutation) with the Idempotency-Key of one dialog opening in `meta.headers`.
 */
import { useInvalidate } from '@refinedev/core';
import { useCallback } from 'react';
import { useRefreshIdentity } from '../../providers/identity';

export type CreditEntity = 'managers' | 'resellers' | 'dealers';

/** Refreshes what a credit move changed: the signed-in user (header credits), the lists, the ledgers. */
export function useAfterCreditMove() {
  const refreshIdentity = useRefreshIdentity();
  const invalidate = useInvalidate();
  return useCallback(
    async (entity: CreditEntity) => {
      await Promise.all([
        refreshIdentity(),
        invalidate({ resource: entity, invalidates: ['list', 'many', 'detail'] }),
        invalidate({ resource: 'transactions', invalidates: ['list'] }),
      ]);
    },
    [refreshIdentity, invalidate],
  );
}
