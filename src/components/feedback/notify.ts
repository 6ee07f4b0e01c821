/**
 * Toasts through Refine's notification provider (antd, one at a time: each new toast takes the shared
 * key and replaces the one on screen). Titles and descriptions come from the contract's messages. A failed request becomes
 * a toast in one way: `errorText` (what it says), `errorToast` (the toast), `errorNotification`
 * (Refine's `errorNotification` callback) and `useNotify().httpError` (a toast now).
 */
import { type HttpError, type OpenNotificationParams, useNotification } from '@refinedev/core';
import { useMemo } from 'react';
import { GENERAL, TOAST_MS } from '../../contract';

/**
 * Refine's antd provider shows `description` as the toast's title and `message` as its body, so a
 * titled toast passes its title as `description`.
 */
export const titled = (title: string, body?: string) => (body ? { message: body, description: title } : { message: title });

export interface ErrorToastOptions {
  /** The toast's title (default 'Error'). */
  title?: string;
  /**
   * A form shows a 422's field messages under its fields: the toast then says the fallback. A
   * function decides by the error (some forms place only some fields).
   */
  fields?: boolean | ((error: HttpError) => boolean);
  /** False: always the fallback, whatever the server said (screens that name their failure). */
  server?: boolean;
}

/** What a failed request says: the server's message when it sent one, else the fallback (docs/domain.md#messages). */
export function errorText(error: unknown, fallback: string, { fields = false, server = true }: ErrorToastOptions = {}): string {
  const e = error as HttpError | undefined;
  if (!server || !e) return fallback;
  if (e.errors && (typeof fields === 'function' ? fields(e) : fields)) return fallback;
  return e.message && e.message !== GENERAL.apiError ? e.message : fallback;
}

export const errorToast = (error: unknown, fallback: string, options: ErrorToastOptions = {}): OpenNotificationParams => ({
  type: 'error',
  ...titled(options.title ?? GENERAL.error, errorText(error, fallback, options)),
});

/** Refine's `errorNotification` for a query or mutation: the error toast with this fallback. */
export const errorNotification =
  (fallback: string, options: ErrorToastOptions = {}) =>
  (error?: HttpError): OpenNotificationParams =>
    errorToast(error, fallback, options);

export function useNotify() {
  const { open } = useNotification();
  return useMemo(
    () => ({
      success: (message: string, description?: string) => open?.({ type: 'success', ...titled(message, description) }),
      error: (message: string, description?: string) => open?.({ type: 'error', ...titled(message, description) }),
      /** The server's message when it sent one, else the fallback. */
      httpError: (error: unknown, fallback: string, title: string = GENERAL.error) => open?.(errorToast(error, fallback, { title })),
    }),
    [open],
  );
}

export const toastSeconds = (ms: number = TOAST_MS.default) => ms / 1000;
