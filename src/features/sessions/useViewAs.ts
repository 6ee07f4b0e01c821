/** Starting and ending a view-as session: the panel reloads into the other session, so no cached page of one shows in the other. */
import { type HttpError, useCustomMutation } from '@refinedev/core';
import { useCallback } from 'react';
import { type CurrentUser, VIEW_AS } from '../../contract';
import { useConfirm, useNotify } from '../../components/feedback';
import { identity } from '../../providers/identity';
import { session } from '../../providers/session';

const reloadHome = () => window.location.assign('/');

/** Asks, then opens a view of the panel as the member (the API decides whether the view may act). */
export function useStartViewAs() {
  const { confirm } = useConfirm();
  const notify = useNotify();
  const { mutateAsync } = useCustomMutation<{ message: string; token: string; user: CurrentUser }, HttpError>();
  return useCallback(
    (record: { id: number; username: string }) =>
      confirm(
        VIEW_AS.confirmTitle(record.username),
        VIEW_AS.confirmReadOnly,
        async () => {
          try {
            const { data } = await mutateAsync({ url: `view-as/${record.id}`, method: 'post', values: {}, successNotification: false, errorNotification: false });
            session.startViewAs(data.token, data.user.role);
            identity.clear();
            reloadHome();
          } catch (error) {
            notify.httpError(error, VIEW_AS.action);
          }
        },
        VIEW_AS.action,
      ),
    [confirm, mutateAsync, notify],
  );
}

/** Ends the view and returns to the parent's own session. */
export function useEndViewAs() {
  const { mutateAsync } = useCustomMutation<{ message: string }, HttpError>();
  return useCallback(async () => {
    // Expired already or not: the parent's own session is what comes back.
    await mutateAsync({ url: 'view-as/end', method: 'post', values: {}, successNotification: false, errorNotification: false }).catch(() => undefined);
    session.leaveViewAs();
    identity.clear();
    reloadHome();
  }, [mutateAsync]);
}
