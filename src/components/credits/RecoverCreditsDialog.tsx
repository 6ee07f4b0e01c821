/**
 * Recover Credits, for managers, resellers and dealers alike: the amounts from the entity's
 * recovery options (paid credits only; taking them all also removes the bonus), never more than
 * what is available.
 */
import { type HttpError } from '@refinedev/core';
import { Alert, Descriptions, Form, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { CREDITS, DIALOGS, GENERAL, HIERARCHY, HIERARCHY_PANEL, type RecoveryOptionsResponse } from '../../contract';
import { useCurrentUser } from '../../hooks/useRole';
import { http } from '../../providers/http';
import { useIdempotencyKey } from '../../providers/idempotency';
import { useNotify } from '../feedback';
import type { CreditDialogProps } from './AddCreditsDialog';
import { AmountSelect } from './AmountSelect';
import { postCreditCall, useAfterCreditMove } from './creditCall';
import { creditErrorToast, firstFieldMessage } from './creditErrors';

export function RecoverCreditsDialog({ entity, target, onClose }: CreditDialogProps) {
  const { role } = useCurrentUser();
  const notify = useNotify();
  const afterMove = useAfterCreditMove();
  const [form] = Form.useForm<{ credits?: number }>();
  const [recovery, setRecovery] = useState<RecoveryOptionsResponse | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [loading, setLoading] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const key = useIdempotencyKey(target ? `${entity}/${target.id}` : null);
  const busy = useRef(false);
  const selected = Form.useWatch('credits', form);

  useEffect(() => {
    if (!target) return;
    busy.current = false;
    form.resetFields();
    setRecovery(null);
    setLoadFailed(false);
    setLoading(true);
    let cancelled = false;
    http
      .get<{ data: RecoveryOptionsResponse }>(`${entity}/${target.id}/credits/recovery-options`)
      .then(({ data }) => !cancelled && setRecovery(data.data))
      .catch(() => {
        if (cancelled) return;
        setLoadFailed(true);
        notify.error(GENERAL.error, CREDITS.recoveryOptionsFailed);
      })
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target?.id, entity]);

  const available = recovery?.available_paid_credits ?? 0;
  const removesBonus = recovery && selected === available && recovery.bonus_credits_to_zero > 0;

  const submit = async () => {
    if (!target || busy.current || !recovery) return;
    let credits: number | undefined;
    try {
      ({ credits } = await form.validateFields());
    } catch {
      return; // the messages show under the field
    }
    const amount = Number(credits);
    busy.current = true;
    setSubmitting(true);
    try {
      await postCreditCall(entity, target.id, 'credits', { action: 'recover', credits: amount }, key);
      notify.success(HIERARCHY.creditsRecovered, `${amount} credits recovered from ${target.name}.`);
      await afterMove(entity);
      onClose();
    } catch (error) {
      const toast = creditErrorToast(error, HIERARCHY_PANEL.recoverFailed);
      notify.error(toast.title, toast.description);
      const fieldMessage = firstFieldMessage((error as HttpError).errors, 'credits') ?? firstFieldMessage((error as HttpError).errors, 'paid_credits');
      if (fieldMessage) form.setFields([{ name: 'credits', errors: [fieldMessage] }]);
      busy.current = false;
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={DIALOGS.recoverCredits}
      okText={DIALOGS.recoverCredits}
      okButtonProps={{ danger: true, disabled: loading || loadFailed || available <= 0 }}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={submitting}
      forceRender
    >
      {target && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label="From">
            {target.name} <Typography.Text type="secondary">({target.username})</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="Current balance">{recovery?.user_credits ?? target.credits} credits</Descriptions.Item>
          {recovery && <Descriptions.Item label="Available paid credits">{available} credits</Descriptions.Item>}
          {recovery && recovery.bonus_credits > 0 && <Descriptions.Item label="Bonus credits">{recovery.bonus_credits} credits</Descriptions.Item>}
        </Descriptions>
      )}
      {loadFailed && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={CREDITS.recoveryOptionsFailed} />}
      {recovery?.message && <Alert type={available > 0 ? 'info' : 'warning'} showIcon style={{ marginBottom: 16 }} message={recovery.message} />}
      <Form form={form} name="recover-credits" layout="vertical" preserve={false} onFinish={submit}>
        <Form.Item
          name="credits"
          label="Amount"
          rules={[
            { required: true, message: CREDITS.selectAmount },
            {
              validator: async (_, value) => {
                if (value === undefined || value === null) return;
                if (!(Number(value) > 0)) throw new Error(CREDITS.selectAmount);
                if (Number(value) > available) throw new Error(CREDITS.cannotRecover(available));
              },
            },
          ]}
        >
          <AmountSelect options={recovery?.options ?? []} allowCustom={role === 'admin'} loading={loading} disabled={loadFailed} />
        </Form.Item>
      </Form>
      {removesBonus && <Alert type="warning" showIcon message={HIERARCHY.recoveryBonusWarning(recovery.bonus_credits_to_zero)} />}
    </Modal>
  );
}
