/**
 * Idempotency keys for every call that moves credits (Add/Recover Credits, recovery from history,
 * Quick/Bulk Renew, a paid account creation): one key per dialog opening, so a double click or a
 * retried request is answered once by the API and never charges twice.
 */
import { useState } from 'react';

export function newIdempotencyKey(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The request options that send `key` as the Idempotency-Key header. */
export const withIdempotencyKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });

/**
 * The key of the current dialog opening: a new one whenever `opening` (what the dialog was opened
 * for) changes, the same one for every retry meanwhile.
 */
export function useIdempotencyKey(opening: unknown): string {
  const [current, setCurrent] = useState(() => ({ opening, key: newIdempotencyKey() }));
  if (Object.is(current.opening, opening)) return current.key;
  const next = { opening, key: newIdempotencyKey() };
  setCurrent(next);
  return next.key;
}
