/** What the renewal dialogs share: the target shape, the dialog with its months, price and balance check, the success handling. */
import { useInvalidate, useInvalidateAuthStore } from '@refinedev/core';
import { Alert, Descriptions, Form, InputNumber, Modal, Space, Spin, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { CREDITS, RENEWAL } from '../../contract';
import { useIdempotencyKey } from '../../providers/idempotency';
import { useNotify } from '../feedback';
import { applyServerErrors } from '../form/legacyServerErrors';
import { type RenewalPrice, useRenewalQuote, validMonths } from './useRenewalQuote';

export interface RenewTarget {
  id: number;
  login: string;
  server_id: number | null;
  expiry_date: string | null;
}

export const INVALID_MONTHS = `${RENEWAL.invalidMonths.title}: ${RENEWAL.invalidMonths.description}`;

/** Where a renewal of `months` would put the expiry: from the current expiry, or from now when past or empty. */
export function renewedExpiry(expiry: string | null, months: number, now: Date = new Date()): dayjs.Dayjs {
  const current = expiry ? dayjs(expiry) : null;
  const start = current && current.isValid() && current.isAfter(now) ? current : dayjs(now);
  return start.add(months, 'month');
}

/** After a renewal: the header's credits and every account list are refetched. */
export function useAfterRenewal() {
  const invalidateAuth = useInvalidateAuthStore();
  const invalidate = useInvalidate();
  return useCallback(async () => {
    await Promise.all([
      invalidateAuth(),
      invalidate({ resource: 'accounts', invalidates: ['list', 'detail'] }),
      invalidate({ resource: 'user-search', invalidates: ['list'] }),
    ]);
  }, [invalidateAuth, invalidate]);
}

export function PriceSummary({ price, count = 1 }: { price: RenewalPrice; count?: number }) {
  const discounts = price.quotes.filter((q) => q.discount_id !== null);
  const admin = price.balance === null && price.quotes.length > 0 && price.quotes.every((q) => q.payable_credits === 0);
  return (
    <Spin spinning={price.loading} size="small">
      <Descriptions size="small" column={1} bordered data-testid="renewal-price">
        <Descriptions.Item label="Price">
          <Space wrap>
            <Typography.Text strong data-testid="renewal-total">
              {price.quotes.length ? `${price.total} credit${price.total === 1 ? '' : 's'}` : '—'}
            </Typography.Text>
            {count > 1 && <Typography.Text type="secondary">for {count} accounts</Typography.Text>}
            {price.regular > price.total && !admin && <Typography.Text delete type="secondary">{price.regular}</Typography.Text>}
            {admin && <Typography.Text type="secondary">Administrators renew without spending credits</Typography.Text>}
          </Space>
        </Descriptions.Item>
        {discounts.length > 0 && !admin && (
          <Descriptions.Item label="Discount">
            <Space wrap>
              {discounts.map((q) => (
                <Tag color="green" key={q.discount_id}>
                  {q.discount_name}: save {q.savings} credit{q.savings === 1 ? '' : 's'}
                  {q.bonus_months > 0 ? ` (${q.bonus_months} bonus month${q.bonus_months === 1 ? '' : 's'})` : ''}
                </Tag>
              ))}
            </Space>
          </Descriptions.Item>
        )}
        {price.balance !== null && (
          <Descriptions.Item label="Your balance">
            <span data-testid="renewal-balance">{price.balance} credits</span>
          </Descriptions.Item>
        )}
      </Descriptions>
      {!price.loading && !price.sufficient && price.balance !== null && (
        <Alert style={{ marginTop: 12 }} type="error" showIcon message={CREDITS.insufficientCredits(price.total, price.balance)} />
      )}
      {price.error && <Alert style={{ marginTop: 12 }} type="warning" showIcon message={price.error} />}
    </Spin>
  );
}

export interface RenewalDialogProps {
  /** What the dialog renews; it is open while this is set, and each opening gets its own Idempotency-Key. */
  opening: unknown;
  /** The server id of each account to renew, for the price. */
  servers: Array<number | null>;
  title: string;
  okText: string;
  /** The message under the months for a value that is not a valid number of months. */
  monthsError: (months: unknown) => string;
  /** Sends the renewal and answers the success message. */
  send: (months: number, idempotencyKey: string) => Promise<string>;
  /** Server error fields shown under the months. */
  errorAliases: Record<string, string>;
  /** Above the form (the accounts and their expiry). */
  header: (months: unknown) => ReactNode;
  /** Accounts renewed at once, for the price summary. */
  count?: number;
  onClose: () => void;
  onRenewed?: () => void;
}

/** The renewal dialog: months 1 to 50, the price, the balance checked before sending, 'Renewal Failed' with the server's message. */
export function RenewalDialog({ opening, servers, title, okText, monthsError, send, errorAliases, header, count, onClose, onRenewed }: RenewalDialogProps) {
  const [form] = Form.useForm<{ months: number | null }>();
  const months = Form.useWatch('months', form);
  const notify = useNotify();
  const afterRenewal = useAfterRenewal();
  const [sending, setSending] = useState(false);
  const nonce = useIdempotencyKey(opening);
  const open = Boolean(opening);
  const price = useRenewalQuote(servers, months, open && servers.length > 0);

  useEffect(() => {
    if (opening) form.resetFields();
  }, [opening, form]);

  const submit = async () => {
    if (!open || servers.length === 0) return;
    const values = await form.validateFields().catch(() => null);
    if (!values || !validMonths(values.months)) {
      notify.error(RENEWAL.invalidMonths.title, RENEWAL.invalidMonths.description);
      return;
    }
    if (!price.loading && price.balance !== null && price.total > price.balance) {
      const message = CREDITS.insufficientCredits(price.total, price.balance);
      form.setFields([{ name: 'months', errors: [message] }]);
      notify.error(RENEWAL.failed, message);
      return;
    }
    setSending(true);
    try {
      notify.success(await send(values.months, nonce));
      await afterRenewal();
      onRenewed?.();
      onClose();
    } catch (error) {
      applyServerErrors(form, error, ['months'], errorAliases);
      notify.httpError(error, RENEWAL.failed, RENEWAL.failed);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={sending}
      okButtonProps={{ disabled: price.loading }}
      forceRender
      destroyOnHidden={false}
    >
      {header(months)}
      <Form form={form} layout="vertical" initialValues={{ months: 1 }} onFinish={submit}>
        <Form.Item
          name="months"
          label="Months"
          rules={[
            {
              validator: (_, v) => {
                const message = validMonths(v) ? null : monthsError(v);
                return message ? Promise.reject(new Error(message)) : Promise.resolve();
              },
            },
          ]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} aria-label="Months" />
        </Form.Item>
      </Form>
      <PriceSummary price={price} count={count} />
    </Modal>
  );
}
