/**
 * Quick Renew Account (spec 2, 5): months 1 to 50, the price from the discount lookup, the balance
 * checked before sending, 'Renewal Failed' with the server's message; the header's credits and the
 * lists refresh afterwards.
 */
import { Descriptions, Form, InputNumber, Modal } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { ACCOUNTS, ACCOUNT_SCREEN, CREDITS, DATETIME_FORMAT, RENEWAL } from '../../contract';
import { http } from '../../providers/http';
import { useIdempotencyKey, withIdempotencyKey } from '../../providers/idempotency';
import { ExpiryCell } from '../display/ExpiryCell';
import { useNotify } from '../feedback';
import { applyServerErrors } from '../form/serverErrors';
import { INVALID_MONTHS, PriceSummary, type RenewTarget, renewedExpiry, useAfterRenewal } from './shared';
import { useRenewalQuote, validMonths } from './useRenewalQuote';

export interface QuickRenewDialogProps {
  /** The account to renew; the dialog is open while it is set. */
  account: RenewTarget | null;
  onClose: () => void;
  onRenewed?: () => void;
}

export function QuickRenewDialog({ account, onClose, onRenewed }: QuickRenewDialogProps) {
  const [form] = Form.useForm<{ months: number | null }>();
  const months = Form.useWatch('months', form);
  const notify = useNotify();
  const afterRenewal = useAfterRenewal();
  const [sending, setSending] = useState(false);
  const nonce = useIdempotencyKey(account);
  const servers = useMemo(() => (account ? [account.server_id] : []), [account]);
  const price = useRenewalQuote(servers, months, Boolean(account));

  useEffect(() => {
    if (account) form.resetFields();
  }, [account, form]);

  const submit = async () => {
    if (!account) return;
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
      await http.post(`accounts/${account.id}/credits`, { action: 'renew', months: values.months }, withIdempotencyKey(`${nonce}:${values.months}`));
      notify.success(ACCOUNTS.renewed);
      await afterRenewal();
      onRenewed?.();
      onClose();
    } catch (error) {
      applyServerErrors(form, error, ['months'], { credits: 'months' });
      notify.httpError(error, RENEWAL.failed, RENEWAL.failed);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open={Boolean(account)}
      title={ACCOUNT_SCREEN.quickRenewTitle}
      okText={RENEWAL.quickRenew}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={sending}
      okButtonProps={{ disabled: price.loading }}
      forceRender
      destroyOnHidden={false}
    >
      {account && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label="Account">{account.login}</Descriptions.Item>
          <Descriptions.Item label="Current expiry">
            <ExpiryCell value={account.expiry_date} />
          </Descriptions.Item>
          {validMonths(months) && (
            <Descriptions.Item label="New expiry">
              <span data-testid="renewal-new-expiry">{renewedExpiry(account.expiry_date, months).format(DATETIME_FORMAT)}</span>
            </Descriptions.Item>
          )}
        </Descriptions>
      )}
      <Form form={form} layout="vertical" initialValues={{ months: 1 }} onFinish={submit}>
        <Form.Item
          name="months"
          label="Months"
          rules={[{ validator: (_, v) => (validMonths(v) ? Promise.resolve() : Promise.reject(new Error(INVALID_MONTHS))) }]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} aria-label="Months" />
        </Form.Item>
      </Form>
      <PriceSummary price={price} />
    </Modal>
  );
}
