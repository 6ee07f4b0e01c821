/** Confirmation dialogs: Confirm Delete and the Activate/Deactivate status change. */
import { App } from 'antd';
import { useCallback } from 'react';
import { DIALOGS, STATUS } from '../../contract';

export function useConfirm() {
  const { modal } = App.useApp();
  const confirmDelete = useCallback(
    (what: string, onOk: () => Promise<unknown> | void) =>
      modal.confirm({
        title: DIALOGS.confirmDelete,
        content: `Are you sure you want to delete ${what}? This cannot be undone.`,
        okText: 'Delete',
        okButtonProps: { danger: true },
        onOk,
      }),
    [modal],
  );
  const confirmStatus = useCallback(
    /** `detail`: what the change does beyond the record itself (a user's branch stops with it). */
    (activate: boolean, what: string, onOk: () => Promise<unknown> | void, detail?: string) =>
      modal.confirm({
        title: activate ? STATUS.activate : STATUS.deactivate,
        content: detail ? (
          <>
            <p>{`${activate ? STATUS.activate : STATUS.deactivate} ${what}?`}</p>
            <p>{detail}</p>
          </>
        ) : (
          `${activate ? STATUS.activate : STATUS.deactivate} ${what}?`
        ),
        okText: activate ? STATUS.activate : STATUS.deactivate,
        okButtonProps: { danger: !activate },
        onOk,
      }),
    [modal],
  );
  const confirm = useCallback(
    (title: string, content: string, onOk: () => Promise<unknown> | void, okText = 'Confirm', detail?: string) =>
      modal.confirm({
        title,
        content: detail ? (
          <>
            <p>{content}</p>
            <p>{detail}</p>
          </>
        ) : (
          content
        ),
        okText,
        onOk,
      }),
    [modal],
  );
  return { confirmDelete, confirmStatus, confirm };
}
