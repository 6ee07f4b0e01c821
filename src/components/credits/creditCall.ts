/**
 * What every credit move of the panel shares: the Idempotency-Key of one dialog opening, the call,
 * and the refresh afterwards (the header's credits figure, the lists, the transaction lists).
 */
import { useInvalidate, useInvalidateAuthStore } from '@refinedev/core';
import { useCallback } from 'react';
import type { CreditMoveResult } from '../../contract';
import { http } from '../../providers/http';

export type CreditEntity = 'managers' | 'resellers' | 'dealers';

/** A fresh key per dialog opening: a double click or a retried request then moves credits once. */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** POST {entity}/{id}/{path} with the key; resolves to the API's { message, data }. */
export async function postCreditCall(
  entity: CreditEntity,
  id: number | string,
  path: 'credits' | 'credits/recover-from-history',
  body: Record<string, unknown>,
  idempotencyKey: string,
): Promise<{ message: string; data: CreditMoveResult }> {
  const { data } = await http.post(`${entity}/${id}/${path}`, body, { headers: { 'Idempotency-Key': idempotencyKey } });
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
