/** Promote a dealer to reseller (POST /dealers/{id}/promote {manager_id}): admin picks the manager. */
import { useInvalidate } from '@refinedev/core';
import { Alert, Modal } from 'antd';
import { useEffect } from 'react';
import { HIERARCHY, HIERARCHY_PANEL, type HierarchyUser, promoteDealerBody, nameWithUsername } from '../../contract';
import { errorToast } from '../../components/feedback';
import { FormField, SchemaForm, useSchemaForm } from '../../components/form';
import { UserPicker } from '../../features/hierarchy';
import { useCurrentUser } from '../../providers/identity';

export function PromoteDialog({ dealer, onClose }: { dealer: HierarchyUser | null; onClose: () => void }) {
  const { user, role } = useCurrentUser();
  const admin = role === 'admin';
  const invalidate = useInvalidate();
  const { control, handleSubmit, reset, refineCore } = useSchemaForm(promoteDealerBody, {
    refineCoreProps: {
      resource: 'dealers',
      action: 'create',
      meta: { path: `dealers/${dealer?.id}/promote` },
      redirect: false,
      successNotification: () => ({ type: 'success', message: HIERARCHY.promoted }),
      // Admin reads a refusal of the chosen manager under the picker; anything else is a toast.
      errorNotification: (error) => (admin && error?.errors?.manager_id ? false : errorToast(error, HIERARCHY_PANEL.promoteFailed)),
    },
  });
  const { mutation } = refineCore;

  useEffect(() => {
    if (!dealer) return;
    mutation.reset();
    // A manager promotes under itself; admin chooses.
    reset({ manager_id: admin ? undefined : user?.id });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dealer, admin, user?.id]);

  const submit = async (payload: Record<string, unknown>) => {
    await refineCore.onFinish(payload as never);
    await invalidate({ resource: 'resellers', invalidates: ['list'] });
    onClose();
  };

  return (
    <Modal
      open={dealer !== null}
      title={HIERARCHY_PANEL.promoteToReseller}
      okText="Promote"
      onOk={() => handleSubmit(submit as never)().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
    >
      {dealer && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={`${nameWithUsername(dealer.name, dealer.username)} becomes a reseller${admin ? ' under the manager you choose' : ' under you'}. Its accounts and credits stay with it.`}
        />
      )}
      <SchemaForm name="promote-dealer" handleSubmit={handleSubmit} onSubmit={submit}>
        {admin && (
          <FormField control={control} name="manager_id" label="Manager" required>
            <UserPicker resource="managers" placeholder="Select a manager" />
          </FormField>
        )}
      </SchemaForm>
    </Modal>
  );
}
