/**
 * Toasts through Refine's notification provider (antd, one at a time: the App is configured with
 * maxCount 1). Titles and descriptions come from the contract's messages.
 */
import { type HttpError, useNotification } from '@refinedev/core';
import { useMemo } from 'react';
import { GENERAL, TOAST_MS } from '../../contract';

/**
 * Refine's antd provider shows `description` as the toast's title and `message` as its body, so a
 * titled toast passes its title as `description`.
 */
export const titled = (title: string, body?: string) => (body ? { message: body, description: title } : { message: title });

export function useNotify() {
  const { open } = useNotification();
  return useMemo(
    () => ({
      success: (message: string, description?: string) => open?.({ type: 'success', ...titled(message, description) }),
      error: (message: string, description?: string) => open?.({ type: 'error', ...titled(message, description) }),
      /** The server's message when it sent one, else the fallback (docs/domain.md#messages). */
      httpError: (error: unknown, fallback: string, title: string = GENERAL.error) => {
        const e = error as HttpError | undefined;
        open?.({ type: 'error', ...titled(title, e?.message && e.message !== GENERAL.apiError ? e.message : fallback) });
      },
    }),
    [open],
  );
}

export const toastSeconds = (ms: number = TOAST_MS.default) => ms / 1000;
