/**
 * What Add Credits and Recover Credits share: the lookup of the amounts when the dialog opens, the
 * move sent once per click with the opening's Idempotency-Key, the toasts and field error of a
 * refusal, the user shown at the top, and the amount field with its rules.
 */
import type { HttpError } from '@refinedev/core';
import { Descriptions, Form, type FormInstance, Typography } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { CREDITS, GENERAL, type Role } from '../../contract';
import { useIdempotencyKey } from '../../providers/idempotency';
import { useNotify } from '../feedback';
import { AmountSelect, type AmountSelectProps } from './AmountSelect';
import { type CreditEntity, useAfterCreditMove } from './creditCall';
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

export interface CreditDialogOptions<T> extends CreditDialogProps {
  /** What the amounts come from, read each time the dialog opens for a user. */
  load: (target: CreditTarget) => Promise<T>;
  /** Toasted (as 'Error') when the lookup fails; without it the dialog handles the failure itself. */
  loadFailedMessage?: string;
  /** The title of the failure toast ('Failed to Add Credits', 'Failed to Recover Credits'). */
  failedTitle: string;
  /** The server's error fields shown under the amount, the first present one wins. */
  errorFields: string[];
}

export type CreditMove = (amount: number, idempotencyKey: string, target: CreditTarget) => Promise<{ title: string; description: string }>;

export function useCreditDialog<T>({ entity, target, onClose, load, loadFailedMessage, failedTitle, errorFields }: CreditDialogOptions<T>) {
  const notify = useNotify();
  const afterMove = useAfterCreditMove();
  const [form] = Form.useForm<{ credits?: number }>();
  const [data, setData] = useState<T | null>(null);
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
    setData(null);
    setLoadFailed(false);
    setLoading(true);
    let cancelled = false;
    load(target)
      .then((loaded) => !cancelled && setData(loaded))
      .catch(() => {
        if (cancelled) return;
        setLoadFailed(true);
        if (loadFailedMessage) notify.error(GENERAL.error, loadFailedMessage);
      })
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target?.id, entity]);

  /** Validates the amount, sends it (a second click meanwhile is ignored), then toasts and refreshes, or shows the refusal. */
  const submit = async (move: CreditMove) => {
    if (!target || busy.current) return;
    let credits: number | undefined;
    try {
      ({ credits } = await form.validateFields());
    } catch {
      return; // the messages show under the field
    }
    busy.current = true;
    setSubmitting(true);
    try {
      const done = await move(Number(credits), key, target);
      notify.success(done.title, done.description);
      await afterMove(entity);
      onClose();
    } catch (error) {
      const toast = creditErrorToast(error, failedTitle);
      notify.error(toast.title, toast.description);
      const errors = (error as HttpError).errors;
      const fieldMessage = errorFields.map((field) => firstFieldMessage(errors, field)).find((m) => m !== undefined);
      if (fieldMessage) form.setFields([{ name: 'credits', errors: [fieldMessage] }]);
      busy.current = false;
    } finally {
      setSubmitting(false);
    }
  };

  return {
    form,
    selected,
    data,
    loadFailed,
    loading,
    submit,
    modalProps: { open: target !== null, onCancel: onClose, confirmLoading: submitting, forceRender: true },
  };
}

/** The user at the top of a credit dialog, its balance, and the dialog's own lines (Descriptions items). */
export function CreditTargetSummary({ target, label, balance, children }: { target: CreditTarget | null; label: string; balance: number | undefined; children?: ReactNode }) {
  if (!target) return null;
  return (
    <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
      <Descriptions.Item label={label}>
        {target.name} <Typography.Text type="secondary">({target.username})</Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label="Current balance">{balance} credits</Descriptions.Item>
      {children}
    </Descriptions>
  );
}

export interface AmountFormProps extends Omit<AmountSelectProps, 'value' | 'onChange'> {
  form: FormInstance<{ credits?: number }>;
  /** The form's name (unique on the page: it prefixes the field ids). */
  name: string;
  onFinish: () => void;
  /** A rule of the dialog on a positive amount: the message, or undefined when it passes. */
  check?: (amount: number) => string | undefined;
}

/** The amount field: required, positive, and the dialog's own check. */
export function AmountForm({ form, name, onFinish, check, ...select }: AmountFormProps) {
  return (
    <Form form={form} name={name} layout="vertical" preserve={false} onFinish={onFinish}>
      <Form.Item
        name="credits"
        label="Amount"
        rules={[
          { required: true, message: CREDITS.selectAmount },
          {
            validator: async (_, value) => {
              if (value === undefined || value === null) return;
              if (!(Number(value) > 0)) throw new Error(CREDITS.selectAmount);
              const message = check?.(Number(value));
              if (message) throw new Error(message);
            },
          },
        ]}
      >
        <AmountSelect {...select} />
      </Form.Item>
    </Form>
  );
}
