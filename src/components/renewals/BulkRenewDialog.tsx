/**
 * Bulk Renew Accounts (spec 2, 5): months greater than 0 (and at most 50), the total price over the
 * selected accounts, the balance check, one all-or-nothing call.
 */
import { Form, InputNumber, Modal, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { ACCOUNT_SCREEN, CREDITS, RENEWAL } from '../../contract';
import { http } from '../../providers/http';
import { useIdempotencyKey, withIdempotencyKey } from '../../providers/idempotency';
import { useNotify } from '../feedback';
import { applyServerErrors } from '../form/serverErrors';
import { INVALID_MONTHS, PriceSummary, type RenewTarget, useAfterRenewal } from './shared';
import { useRenewalQuote, validMonths } from './useRenewalQuote';

export interface BulkRenewDialogProps {
  /** The accounts to renew; the dialog is open while it is set. */
  accounts: RenewTarget[] | null;
  onClose: () => void;
  onRenewed?: () => void;
}

export function BulkRenewDialog({ accounts, onClose, onRenewed }: BulkRenewDialogProps) {
  const [form] = Form.useForm<{ months: number | null }>();
  const months = Form.useWatch('months', form);
  const notify = useNotify();
  const afterRenewal = useAfterRenewal();
  const [sending, setSending] = useState(false);
  const nonce = useIdempotencyKey(accounts);
  const servers = useMemo(() => (accounts ?? []).map((a) => a.server_id), [accounts]);
  const price = useRenewalQuote(servers, months, Boolean(accounts?.length));

  useEffect(() => {
    if (accounts) form.resetFields();
  }, [accounts, form]);

  const submit = async () => {
    if (!accounts?.length) return;
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
      const ids = accounts.map((a) => a.id);
      const { data } = await http.post<{ message?: string }>(
        'accounts/bulk-renew',
        { account_ids: ids, months: values.months },
        withIdempotencyKey(`${nonce}:${values.months}`),
      );
      notify.success(data?.message ?? `${ids.length} account(s) renewed successfully.`);
      await afterRenewal();
      onRenewed?.();
      onClose();
    } catch (error) {
      applyServerErrors(form, error, ['months'], { credits: 'months', account_ids: 'months' });
      notify.httpError(error, RENEWAL.failed, RENEWAL.failed);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open={Boolean(accounts)}
      title={ACCOUNT_SCREEN.bulkRenewTitle}
      okText={RENEWAL.bulkRenew}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={sending}
      okButtonProps={{ disabled: price.loading }}
      forceRender
    >
      <Typography.Paragraph>
        {accounts?.length ?? 0} account(s) selected: {(accounts ?? []).slice(0, 10).map((a) => a.login).join(', ')}
        {(accounts?.length ?? 0) > 10 ? ', ...' : ''}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ months: 1 }} onFinish={submit}>
        <Form.Item
          name="months"
          label="Months"
          rules={[
            {
              validator: (_, v) =>
                typeof v !== 'number' || v <= 0
                  ? Promise.reject(new Error(ACCOUNT_SCREEN.bulkMonthsPositive))
                  : validMonths(v)
                    ? Promise.resolve()
                    : Promise.reject(new Error(INVALID_MONTHS)),
            },
          ]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} aria-label="Months" />
        </Form.Item>
      </Form>
      <PriceSummary price={price} count={accounts?.length ?? 0} />
    </Modal>
  );
}
