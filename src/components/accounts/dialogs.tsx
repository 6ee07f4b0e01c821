/** The accounts screen's smaller dialogs: STB info, transactions, auto-renew and the bulk message. */
import { useCustom } from '@refinedev/core';
import { Alert, Button, DatePicker, Descriptions, Drawer, Form, Input, InputNumber, Modal, Space, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { type Account, ACCOUNTS, ACCOUNT_SCREEN, GENERAL, formatMac } from '../../contract';
import { StatusTag, dateTime } from '../display';
import { useNotify } from '../feedback';
import { applyServerErrors } from '../form/legacyServerErrors';
import { validMonths } from '../renewals';
import { INVALID_MONTHS, useAfterRenewal } from '../renewals/shared';
import { TransactionsTable } from '../transactions';
import { http } from '../../providers/http';

interface StbInfo {
  account_id: number;
  login: string;
  mac_address: string;
  state: 'online' | 'offline';
  connection_status: string | null;
  last_active: string | null;
  ip_address: string | null;
  stb_type: string | null;
  serial_number: string | null;
  version: string | null;
  image_version: string | null;
  hw_version: string | null;
  device_id: string | null;
  server: { id: number; name: string } | null;
}

const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

export function StbInfoDrawer({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const { query, result } = useCustom<{ data: StbInfo }>({
    url: `accounts/${account?.id}/stb-info`,
    method: 'get',
    errorNotification: false,
    queryOptions: { enabled: Boolean(account), retry: false },
  });
  const info = account ? result.data?.data : undefined;
  return (
    <Drawer open={Boolean(account)} onClose={onClose} title={`${ACCOUNT_SCREEN.stbInfo}${account ? `: ${account.login}` : ''}`} width={480}>
      {query.isError && <Alert type="error" showIcon message={GENERAL.loadFailed} description={query.error?.message} />}
      <Spin spinning={query.isFetching}>
        {info && (
          <Descriptions column={1} size="small" bordered data-testid="stb-info">
            <Descriptions.Item label="Login">{info.login}</Descriptions.Item>
            <Descriptions.Item label="MAC">{formatMac(info.mac_address)}</Descriptions.Item>
            <Descriptions.Item label="Server">{dash(info.server?.name)}</Descriptions.Item>
            <Descriptions.Item label="State">
              <StatusTag status={info.state} />
            </Descriptions.Item>
            <Descriptions.Item label="Connection">{dash(info.connection_status)}</Descriptions.Item>
            <Descriptions.Item label="Last active">{dateTime(info.last_active)}</Descriptions.Item>
            <Descriptions.Item label="IP address">{dash(info.ip_address)}</Descriptions.Item>
            <Descriptions.Item label="STB type">{dash(info.stb_type)}</Descriptions.Item>
            <Descriptions.Item label="Serial number">{dash(info.serial_number)}</Descriptions.Item>
            <Descriptions.Item label="Version">{dash(info.version)}</Descriptions.Item>
            <Descriptions.Item label="Image version">{dash(info.image_version)}</Descriptions.Item>
            <Descriptions.Item label="Hardware version">{dash(info.hw_version)}</Descriptions.Item>
            <Descriptions.Item label="Device ID">{dash(info.device_id)}</Descriptions.Item>
          </Descriptions>
        )}
      </Spin>
    </Drawer>
  );
}

/** The ledger entries of one account (GET /accounts/{id}/transactions) in the shared transactions table, read-only. */
export function TransactionsDrawer({ account, onClose }: { account: Account | null; onClose: () => void }) {
  return (
    <Drawer open={Boolean(account)} onClose={onClose} title={`${ACCOUNT_SCREEN.transactions}${account ? `: ${account.login}` : ''}`} width="min(1100px, 100vw)" destroyOnHidden>
      {account && <TransactionsTable path={`accounts/${account.id}/transactions`} />}
    </Drawer>
  );
}

/** Auto-renew: renew every N months at expiry, optionally until an end date; Disable turns it off. */
export function AutoRenewDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const [form] = Form.useForm<{ months: number | null; auto_renew_end_date: dayjs.Dayjs | null }>();
  const notify = useNotify();
  const refresh = useAfterRenewal();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!account) return;
    form.setFieldsValue({
      months: account.auto_renew_months ?? 1,
      auto_renew_end_date: account.auto_renew_end_date ? dayjs(account.auto_renew_end_date) : null,
    });
  }, [account, form]);

  const send = async (months: number, end: dayjs.Dayjs | null) => {
    if (!account) return;
    setSaving(true);
    try {
      const { data } = await http.post<{ message?: string }>(`accounts/${account.id}/auto-renew`, {
        months,
        auto_renew_end_date: end ? end.endOf('day').toISOString() : null,
      });
      notify.success(data?.message ?? (months ? ACCOUNTS.autoRenewEnabled : ACCOUNTS.autoRenewDisabled));
      await refresh();
      onClose();
    } catch (error) {
      applyServerErrors(form, error, ['months', 'auto_renew_end_date']);
      notify.httpError(error, ACCOUNT_SCREEN.actionFailed);
    } finally {
      setSaving(false);
    }
  };

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values) await send(values.months!, values.auto_renew_end_date);
  };

  const enabled = Boolean(account?.auto_renew_months);
  return (
    <Modal
      open={Boolean(account)}
      title={`${ACCOUNT_SCREEN.autoRenew}${account ? `: ${account.login}` : ''}`}
      onCancel={onClose}
      forceRender
      footer={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          {enabled && (
            <Button danger loading={saving} onClick={() => send(0, null)}>
              Disable
            </Button>
          )}
          <Button type="primary" loading={saving} onClick={save}>
            {enabled ? 'Save' : 'Enable'}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        At expiry the account is renewed for the chosen months and the owner is charged.
        {account?.auto_renew_error ? ` Last attempt failed: ${account.auto_renew_error}` : ''}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="months" label="Months" rules={[{ validator: (_, v) => (validMonths(v) ? Promise.resolve() : Promise.reject(new Error(INVALID_MONTHS))) }]}>
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="auto_renew_end_date"
          label="End date"
          help="Optional: stop renewing after this date."
          rules={[{ validator: (_, v?: dayjs.Dayjs | null) => (!v || !v.endOf('day').isBefore(dayjs()) ? Promise.resolve() : Promise.reject(new Error(ACCOUNTS.autoRenewEndPast))) }]}
        >
          <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs().startOf('day'))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Send Message: a text shown on the selected accounts' devices (POST /accounts/bulk-message). */
export function BulkMessageDialog({ ids, onClose, onSent }: { ids: Array<string | number> | null; onClose: () => void; onSent: () => void }) {
  const [form] = Form.useForm<{ message: string }>();
  const notify = useNotify();
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (ids) form.resetFields();
  }, [ids, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !ids) return;
    setSending(true);
    try {
      const { data } = await http.post<{ message?: string }>('accounts/bulk-message', { account_ids: ids.map(Number), message: values.message.trim() });
      notify.success(data?.message ?? ACCOUNTS.bulkDone(ids.length, 'messaged'));
      onSent();
      onClose();
    } catch (error) {
      applyServerErrors(form, error, ['message'], { account_ids: 'message' });
      notify.httpError(error, ACCOUNT_SCREEN.actionFailed);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal open={Boolean(ids)} title={ACCOUNT_SCREEN.sendMessage} okText="Send" onOk={submit} onCancel={onClose} confirmLoading={sending} forceRender>
      <Typography.Paragraph>{ids?.length ?? 0} account(s) selected.</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="message" label="Message" rules={[{ required: true, whitespace: true, message: ACCOUNTS.messageRequired }, { max: 1000 }]}>
          <Input.TextArea rows={4} maxLength={1000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
