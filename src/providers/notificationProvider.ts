/**
 * Refine's notifications as antd toasts, inside antd's <App> so they follow the theme. The same
 * mapping as @refinedev/antd's provider (message as the toast's body, description as its title),
 * written here so the first load does not pull that package (it is one module with every antd form
 * and table helper); the panel has no undoable mutations, so there is no progress toast.
 *
 * One toast at a time: every toast without a key of its own takes the one shared key, so a new one
 * replaces the one on screen in place (maxCount alone lets the old one slide out under the new one).
 */
import type { NotificationProvider } from '@refinedev/core';
import { App } from 'antd';
import { useMemo } from 'react';

export const TOAST_KEY = 'panel-toast';

export function useNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();
  return useMemo(
    () => ({
      open: ({ key, message, description, type }) =>
        notification.open({ key: key ?? TOAST_KEY, description: message, message: description ?? null, type: type === 'progress' ? 'info' : type }),
      close: (key) => notification.destroy(key),
    }),
    [notification],
  );
}
