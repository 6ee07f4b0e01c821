/**
 * Move: the selected accounts to another owner in the caller's subtree (POST /accounts/move). The
 * preview for the chosen owner comes first (how many move, which stay, which are refused and why);
 * Move is offered only on a preview of the owner chosen now, with nothing refused.
 */
import { type HttpError, useCustom } from '@refinedev/core';
import { Alert, Modal, Select, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { ACCOUNT_MOVES, type AccountMovePreview, accountMoveBody, nameWithUsername, plural } from '../../contract';
import { errorNotification } from '../../components/feedback';
import { FormField, SchemaForm, setServerErrors, useSchemaForm } from '../../components/form';
import { useHierarchyTree } from '../hierarchy';

export const accountMoveForm = accountMoveBody.pick({ to_owner_id: true });
type MoveValues = z.input<typeof accountMoveForm>;

export function BulkMoveDialog({ ids, onClose, onMoved }: { ids: Array<string | number> | null; onClose: () => void; onMoved: () => void }) {
  const open = Boolean(ids);
  const accountIds = (ids ?? []).map(Number);
  const { tree, loading: ownersLoading } = useHierarchyTree('7', open);
  // Whom the accounts went to, as the preview the move was sent on named them.
  const movedTo = useRef('');
  const form = useSchemaForm(accountMoveForm, {
    refineCoreProps: {
      resource: 'accounts',
      action: 'create',
      meta: { path: 'accounts/move' },
      redirect: false,
      successNotification: (data) => {
        const moved = (data?.data as { moved?: number } | undefined)?.moved ?? 0;
        return { type: 'success', message: ACCOUNT_MOVES.done(moved, movedTo.current) };
      },
      errorNotification: errorNotification(ACCOUNT_MOVES.failed),
      onMutationError: (error) => setServerErrors(form.setError, error, ['to_owner_id'], { account_ids: 'to_owner_id' }),
    },
  });
  const { control, handleSubmit, reset, refineCore } = form;
  const { mutation } = refineCore;
  const owner = useWatch({ control, name: 'to_owner_id' }) as number | undefined;

  const preview = useCustom<{ data: AccountMovePreview }, HttpError>({
    url: 'accounts/move/preview',
    method: 'post',
    config: { payload: { account_ids: accountIds, to_owner_id: owner } },
    errorNotification: false,
    queryOptions: { enabled: open && Boolean(owner), retry: false },
  });
  // The preview of the owner chosen now (not the previous choice's, still on screen while the new one comes).
  const plan = preview.query.isFetching || preview.query.isError ? undefined : preview.result?.data?.data;
  const ready = plan !== undefined && plan.to.id === owner && plan.refused.length === 0 && plan.moving.length > 0;

  useEffect(() => {
    if (!ids) return;
    mutation.reset();
    reset({ to_owner_id: undefined });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ids]);

  const submit = async ({ to_owner_id }: { to_owner_id: number }) => {
    if (!ids || !ready) return;
    movedTo.current = nameWithUsername(plan.to.name, plan.to.username);
    await refineCore.onFinish({ account_ids: accountIds, to_owner_id } as never);
    onMoved();
    onClose();
  };
  const owners = (tree?.nodes ?? []).map((n) => ({ value: n.id, label: `${nameWithUsername(n.name, n.username)}, ${n.role}` }));

  return (
    <Modal
      open={open}
      title={ACCOUNT_MOVES.title}
      okText={ACCOUNT_MOVES.action}
      okButtonProps={{ disabled: !ready }}
      onOk={() => handleSubmit(submit as never)().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
    >
      <Typography.Paragraph>{plural(accountIds.length, 'account')} selected.</Typography.Paragraph>
      <SchemaForm<MoveValues> name="account-move" handleSubmit={handleSubmit} onSubmit={submit}>
        <FormField<MoveValues> control={control} name="to_owner_id" label={ACCOUNT_MOVES.newOwner} required>
          <Select showSearch optionFilterProp="label" loading={ownersLoading} options={owners} />
        </FormField>
      </SchemaForm>
      <div aria-live="polite" style={{ minHeight: 72 }}>
        {owner && preview.query.isFetching && <Spin />}
        {preview.query.isError && <Alert type="error" showIcon message={preview.query.error?.message ?? ACCOUNT_MOVES.failed} />}
        {plan && plan.refused.length > 0 && (
          <Alert
            type="error"
            showIcon
            message={ACCOUNT_MOVES.refusedTitle}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {plan.refused.map((r) => (
                  <li key={r.id}>
                    {r.login}: {r.reason}
                  </li>
                ))}
              </ul>
            }
          />
        )}
        {plan && plan.refused.length === 0 && (
          <Alert
            type="info"
            showIcon
            message={ACCOUNT_MOVES.preview(plan.moving.length, nameWithUsername(plan.to.name, plan.to.username))}
            description={
              <>
                {plan.already_there > 0 && <div>{ACCOUNT_MOVES.alreadyThere(plan.already_there)}</div>}
                <div>{ACCOUNT_MOVES.ledgerUntouched}</div>
              </>
            }
          />
        )}
      </div>
    </Modal>
  );
}
