/**
 * Add Credits, for managers, resellers and dealers alike. The amounts come from the credit-option
 * endpoint (admin to a manager: the credit levels with their bonus; everyone else: the options capped
 * by the giver's balance), with the spec's fallback list when the lookup fails.
 */
import { type HttpError } from '@refinedev/core';
import { Alert, Descriptions, Form, Modal, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  CREDITS,
  type CreditOption,
  type CreditOptionsResponse,
  DIALOGS,
  FALLBACK_CREDIT_OPTIONS,
  HIERARCHY,
  MANAGER_ALLOCATION_MAX,
  type Role,
  fallbackCreditOptions,
} from '../../contract';
import { useCurrentUser } from '../../hooks/useRole';
import { http } from '../../providers/http';
import { useIdempotencyKey } from '../../providers/idempotency';
import { useNotify } from '../feedback';
import { AmountSelect } from './AmountSelect';
import { type CreditEntity, postCreditCall, useAfterCreditMove } from './creditCall';
import { creditErrorToast, firstFieldMessage } from './creditErrors';

/** The user credits are added to or recovered from. */
export interface CreditTarget {
  id: number;
  name: string;
  username: string;
  role: Role;
  credits: number;
  bonus_credits?: number;
}

export interface CreditDialogProps {
  entity: CreditEntity;
  /** The user; null keeps the dialog closed. */
  target: CreditTarget | null;
  onClose: () => void;
}

const plain = (v: number): CreditOption => ({ value: v, display_text: `${v} credits`, bonus_credits: 0, total_credits: v });

export function AddCreditsDialog({ entity, target, onClose }: CreditDialogProps) {
  const { user, role } = useCurrentUser();
  const admin = role === 'admin';
  const notify = useNotify();
  const afterMove = useAfterCreditMove();
  const [form] = Form.useForm<{ credits?: number }>();
  const [loaded, setLoaded] = useState<CreditOption[]>([]);
  /** The lookup failed: the spec's fallback list, whose bonus is unknown (then none is sent). */
  const [fallback, setFallback] = useState(false);
  const [loading, setLoading] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const key = useIdempotencyKey(target ? `${entity}/${target.id}` : null);
  const busy = useRef(false);
  const selected = Form.useWatch('credits', form);

  const ownPaid = user && user.credits !== null ? user.credits - (user.bonus_credits ?? 0) : 0;
  const managerCap = admin && target?.role === 'manager';
  const options = useMemo(
    () => (fallback ? fallbackCreditOptions(admin ? FALLBACK_CREDIT_OPTIONS.adminMax : ownPaid).map(plain) : loaded),
    [fallback, admin, ownPaid, loaded],
  );

  useEffect(() => {
    if (!target) return;
    busy.current = false;
    form.resetFields();
    setLoaded([]);
    setFallback(false);
    setLoading(true);
    let cancelled = false;
    http
      .get<{ data: CreditOptionsResponse }>('credit-options/allocation', { params: { user_id: target.id } })
      .then(({ data }) => !cancelled && setLoaded(data.data.options))
      .catch(() => !cancelled && setFallback(true))
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target?.id, entity]);

  const chosen = options.find((o) => o.value === selected);

  const submit = async () => {
    if (!target || busy.current) return;
    let credits: number | undefined;
    try {
      ({ credits } = await form.validateFields());
    } catch {
      return; // the messages show under the field
    }
    const amount = Number(credits);
    const option = options.find((o) => o.value === amount);
    busy.current = true;
    setSubmitting(true);
    try {
      const body: Record<string, unknown> = { action: 'renew', credits: amount };
      if (!fallback && option) body.bonus_credits = option.bonus_credits;
      const result = await postCreditCall(entity, target.id, 'credits', body, key);
      const bonus = result.data?.bonus_credits ?? 0;
      notify.success(HIERARCHY.creditsAdded, `${amount} credits${bonus ? ` + ${bonus} bonus` : ''} added to ${target.name}.`);
      await afterMove(entity);
      onClose();
    } catch (error) {
      const toast = creditErrorToast(error, CREDITS.addFailed);
      notify.error(toast.title, toast.description);
      const fieldMessage = firstFieldMessage((error as HttpError).errors, 'credits');
      if (fieldMessage) form.setFields([{ name: 'credits', errors: [fieldMessage] }]);
      busy.current = false;
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={DIALOGS.addCredits}
      okText={DIALOGS.addCredits}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={submitting}
      okButtonProps={{ disabled: loading }}
      forceRender
    >
      {target && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label="Recipient">
            {target.name} <Typography.Text type="secondary">({target.username})</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="Current balance">{target.credits} credits</Descriptions.Item>
          {!admin && <Descriptions.Item label="Your available credits">{ownPaid} credits</Descriptions.Item>}
        </Descriptions>
      )}
      <Form form={form} name="add-credits" layout="vertical" preserve={false} onFinish={submit}>
        <Form.Item
          name="credits"
          label="Amount"
          rules={[
            { required: true, message: CREDITS.selectAmount },
            {
              validator: async (_, value) => {
                if (value === undefined || value === null) return;
                if (!(Number(value) > 0)) throw new Error(CREDITS.selectAmount);
                if (managerCap && Number(value) > MANAGER_ALLOCATION_MAX) throw new Error(CREDITS.adminAllocationCap);
              },
            },
          ]}
        >
          <AmountSelect options={options} allowCustom={admin} loading={loading} />
        </Form.Item>
      </Form>
      {chosen && chosen.bonus_credits > 0 && (
        <Alert
          type="success"
          showIcon
          message={`Includes ${chosen.bonus_credits} bonus credits: ${target?.name} receives ${chosen.total_credits} credits.`}
        />
      )}
      {!loading && options.length === 0 && <Alert type="warning" showIcon message="No amounts are available for your balance." />}
    </Modal>
  );
}
