/** Status toggles and one-call-per-id bulk operations for the managers, resellers and dealers lists. */
import { useDataProvider, useDelete, useInvalidate, useUpdate } from '@refinedev/core';
import { useCallback } from 'react';
import { HIERARCHY, HIERARCHY_PANEL, type HierarchyUser, LOW_CREDITS_THRESHOLD, STATUS } from '../../contract';
import { useConfirm, useNotify } from '../../components/feedback';

type Entity = 'managers' | 'resellers' | 'dealers';
type Counted = Pick<HierarchyUser, 'id' | 'total_children' | 'total_accounts'>;

/**
 * What stopping a user stops (its whole branch, hierarchy rules): the users below it and its branch's
 * end-user accounts, which keep their service. A manager's dealers are counted by one list call
 * (unknown if it fails); a reseller's are its children.
 */
export function useStopImpact(entity: Entity) {
  const dataProvider = useDataProvider();
  return useCallback(
    async (record: Counted): Promise<string> => {
      if (entity === 'dealers') return HIERARCHY_PANEL.stopImpact({ resellers: 0, dealers: 0, accounts: record.total_accounts });
      if (entity === 'resellers') return HIERARCHY_PANEL.stopImpact({ resellers: 0, dealers: record.total_children, accounts: record.total_accounts });
      const dealers = await dataProvider()
        .getList({ resource: 'dealers', pagination: { currentPage: 1, pageSize: 1 }, filters: [{ field: 'manager', operator: 'eq', value: record.id }] })
        .then(({ total }) => total)
        .catch(() => null);
      return HIERARCHY_PANEL.stopImpact({ resellers: record.total_children, dealers, accounts: record.total_accounts });
    },
    [dataProvider, entity],
  );
}

/**
 * Activate/Deactivate through the confirmation dialog (docs/domain.md#account-status): PATCH {is_active}. Deactivating says
 * what stops with the user.
 */
export function useStatusToggle(entity: Entity, singular: string) {
  const { confirmStatus } = useConfirm();
  const notify = useNotify();
  const { mutateAsync } = useUpdate();
  const impact = useStopImpact(entity);
  return useCallback(
    (record: Counted & { name: string; is_active: boolean }) => {
      const activate = !record.is_active;
      // The modal is a thenable: not returned, so no promise chain waits on the dialog.
      const ask = (detail?: string): void => {
        confirmStatus(
          activate,
          `${singular} "${record.name}"`,
          () =>
            mutateAsync({
              resource: entity,
              id: record.id,
              values: { is_active: activate },
              meta: { method: 'patch' },
              successNotification: false,
              errorNotification: false,
            })
              .then(() => notify.success(HIERARCHY.statusUpdated))
              .catch(() => notify.error(STATUS.updateFailed.title, STATUS.updateFailed.description)),
          detail,
        );
      };
      if (activate) ask();
      else void impact(record).then(ask);
    },
    [confirmStatus, entity, impact, mutateAsync, notify, singular],
  );
}

export interface BulkOutcome {
  done: number;
  failed: number;
  firstError?: unknown;
}

/**
 * Deletes the ids (one call each), then one toast: the failure with the first error, or the deletion
 * of one or `n` users; `clear` (the selection) runs when any was deleted.
 */
export function useDeleteUsers(entity: Entity, texts: { failed: string; deletedOne: string; deletedMany: (n: number) => string }) {
  const notify = useNotify();
  const bulk = useBulkRunner(entity);
  return (ids: Array<string | number>, clear?: () => void) =>
    bulk.remove(ids).then(({ done, failed, firstError }) => {
      if (failed > 0) notify.httpError(firstError, texts.failed);
      else notify.success(ids.length > 1 ? texts.deletedMany(done) : texts.deletedOne);
      if (done > 0) clear?.();
    });
}

/** Runs one call per id (the API has no bulk call for users), then refreshes the list once; never rejects. */
export function useBulkRunner(entity: Entity) {
  const { mutateAsync: deleteOne } = useDelete();
  const { mutateAsync: update } = useUpdate();
  const invalidate = useInvalidate();
  const settle = async (calls: Array<Promise<unknown>>): Promise<BulkOutcome> => {
    const results = await Promise.allSettled(calls);
    await invalidate({ resource: entity, invalidates: ['list', 'many', 'detail'] });
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    return { done: results.length - rejected.length, failed: rejected.length, firstError: rejected[0]?.reason };
  };
  return {
    remove: (ids: Array<string | number>) =>
      settle(ids.map((id) => deleteOne({ resource: entity, id, successNotification: false, errorNotification: false, invalidates: [] }))),
    setActive: (ids: Array<string | number>, isActive: boolean) =>
      settle(
        ids.map((id) =>
          update({
            resource: entity,
            id,
            values: { is_active: isActive },
            meta: { method: 'patch' },
            successNotification: false,
            errorNotification: false,
            invalidates: [],
          }),
        ),
      ),
  };
}

/** The members lists' Credits filter: members below the low-credits threshold (the dashboard's card opens it). */
export const lowCreditsFilter = {
  field: 'low_credits',
  label: HIERARCHY_PANEL.credits,
  options: [{ label: HIERARCHY_PANEL.lowCredits(LOW_CREDITS_THRESHOLD), value: String(LOW_CREDITS_THRESHOLD) }],
};
