/**
 * What every credit move of the panel shares: the refresh afterwards (the header's credits figure, the
 * lists, the transaction lists). The moves themselves go through Refine (the credit dialogs' form
 * mutation, useCustomMutation) with the Idempotency-Key of one dialog opening in `meta.headers`.
 */
import { useInvalidate, useInvalidateAuthStore } from '@refinedev/core';
import { useCallback } from 'react';
import type { CreditMoveResult } from '../../contract';
import { http } from '../../providers/http';
import { withIdempotencyKey } from '../../providers/idempotency';

export type CreditEntity = 'managers' | 'resellers' | 'dealers';

/**
 * POST {entity}/{id}/{path} with the key; resolves to the API's { message, data }.
 * @deprecated A raw call, kept only while the dealers' recovery-history dialog (another part of the
 * panel, moving to useCustomMutation) still imports it; nothing here uses it. Remove it with that import.
 */
export async function postCreditCall(
  entity: CreditEntity,
  id: number | string,
  path: 'credits' | 'credits/recover-from-history',
  body: Record<string, unknown>,
  idempotencyKey: string,
): Promise<{ message: string; data: CreditMoveResult }> {
  const { data } = await http.post(`${entity}/${id}/${path}`, body, withIdempotencyKey(idempotencyKey));
  return data;
}

/** Refreshes what a credit move changed: the signed-in user (header credits), the lists, the ledgers. */
export function useAfterCreditMove() {
  const invalidateAuthStore = useInvalidateAuthStore();
  const invalidate = useInvalidate();
  return useCallback(
    async (entity: CreditEntity) => {
      await Promise.all([
        invalidateAuthStore(),
        invalidate({ resource: entity, invalidates: ['list', 'many', 'detail'] }),
        invalidate({ resource: 'transactions', invalidates: ['list'] }),
      ]);
    },
    [invalidateAuthStore, invalidate],
  );
}
