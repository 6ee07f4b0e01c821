/** The accounts screen's smaller dialogs: STB info, transactions and auto-renew. */
import { useCustom } from '@refinedev/core';
import { Alert, Button, DatePicker, Descriptions, Drawer, InputNumber, Modal, Space, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { z } from 'zod';
import { type Account, ACCOUNTS, ACCOUNT_SCREEN, GENERAL, MONTHS_MESSAGE, type StbInfo, autoRenewBody, formatMac } from '../../contract';
import { StatusTag, dateTime } from '../../components/display';
import { errorNotification } from '../../components/feedback';
import { FormField, SchemaForm, useSchemaForm } from '../../components/form';
import { titledMonths, useAfterRenewal } from './renewals/shared';
import { TransactionsTable } from '../transactions';
import { requiredField } from '../../components/form/requiredField';

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
    <Drawer
      open={Boolean(account)}
      onClose={onClose}
      title={`${ACCOUNT_SCREEN.transactions}${account ? `: ${account.login}` : ''}`}
      width="min(1100px, 100vw)"
      destroyOnHidden
    >
      {account && <TransactionsTable path={`accounts/${account.id}/transactions`} />}
    </Drawer>
  );
}

/**
 * The auto-renew form: POST /accounts/{id}/auto-renew by the contract's body; the months field
 * enables (1 to 50, titled as the renewal dialogs show it), Disable sends 0 without it.
 */
type AutoRenewValues = { months?: number | null; auto_renew_end_date?: string | null };
export const autoRenewForm = autoRenewBody.extend({
  months: titledMonths(requiredField(MONTHS_MESSAGE, autoRenewBody.shape.months).refine((months) => months !== 0, MONTHS_MESSAGE)),
}) as unknown as z.ZodType<Record<string, unknown>, AutoRenewValues>;

/** A picked day means the end of that day (ISO text in the form, a dayjs in the DatePicker). */
const endOfDayInput = {
  toInput: (v: unknown) => (v ? dayjs(v as string) : null),
  fromInput: (v: unknown) => (v ? (v as dayjs.Dayjs).endOf('day').toISOString() : null),
};

/** Auto-renew: renew every N months at expiry, optionally until an end date; Disable turns it off. */
export function AutoRenewDialog({ account, onClose }: { account: Account | null; onClose: () => void }) {
  const refresh = useAfterRenewal();
  const { control, handleSubmit, reset, refineCore } = useSchemaForm(autoRenewForm, {
    refineCoreProps: {
      resource: 'accounts',
      action: 'create',
      meta: { path: `accounts/${account?.id}/auto-renew` },
      redirect: false,
      successNotification: (_data, values) => ({
        type: 'success',
        message: (values as unknown as { months?: number }).months ? ACCOUNTS.autoRenewEnabled : ACCOUNTS.autoRenewDisabled,
      }),
      errorNotification: errorNotification(ACCOUNT_SCREEN.actionFailed),
    },
  });
  const { mutation } = refineCore;

  useEffect(() => {
    if (!account) return;
    mutation.reset();
    reset({ months: account.auto_renew_months ?? 1, auto_renew_end_date: account.auto_renew_end_date ?? null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [account]);

  /** `body` is the schema's output (or the disabling body): the request body. */
  const send = async (body: Record<string, unknown>) => {
    if (!account) return;
    await refineCore.onFinish(body as never);
    await refresh();
    onClose();
  };
  const save = () => handleSubmit(send as never)().catch(() => undefined);
  const disable = () => send({ months: 0, auto_renew_end_date: null }).catch(() => undefined);

  const enabled = Boolean(account?.auto_renew_months);
  return (
    <Modal
      open={Boolean(account)}
      title={`${ACCOUNT_SCREEN.autoRenew}${account ? `: ${account.login}` : ''}`}
      onCancel={onClose}
      footer={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          {enabled && (
            <Button danger loading={mutation.isPending} onClick={disable}>
              Disable
            </Button>
          )}
          <Button type="primary" loading={mutation.isPending} onClick={save}>
            {enabled ? 'Save' : 'Enable'}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        At expiry the account is renewed for the chosen months and the owner is charged.
        {account?.auto_renew_error ? ` Last attempt failed: ${account.auto_renew_error}` : ''}
      </Typography.Paragraph>
      <SchemaForm<AutoRenewValues> name="auto-renew" handleSubmit={handleSubmit} onSubmit={send}>
        <FormField<AutoRenewValues> control={control} name="months" label="Months">
          <InputNumber precision={0} style={{ width: '100%' }} />
        </FormField>
        <FormField<AutoRenewValues> control={control} name="auto_renew_end_date" label="End date" help="Optional: stop renewing after this date." {...endOfDayInput}>
          <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs().startOf('day'))} />
        </FormField>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </SchemaForm>
    </Modal>
  );
}
