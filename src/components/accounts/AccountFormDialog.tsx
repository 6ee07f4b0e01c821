/**
 * Create/Edit User (spec 5, entity form): name, username (login), password (required on create,
 * empty keeps it on edit), STB MAC address in any notation, server, and on create the purchase:
 * months (with their price) or a trial (when trials are enabled). Admin may set the expiry directly.
 */
import { Alert, DatePicker, Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import {
  type Account,
  ACCOUNTS,
  ACCOUNT_SCREEN,
  CREDITS,
  DATETIME_FORMAT,
  ENTITY_FORM,
  GENERAL,
  TIME_FORMAT,
  USER_STATUSES,
  formatMac,
  normalizeMac,
} from '../../contract';
import { useNotify } from '../feedback';
import { macAddressRule } from '../form/rules';
import { applyServerErrors } from '../form/legacyServerErrors';
import { useRenewalQuote, validMonths } from '../renewals';
import { INVALID_MONTHS, PriceSummary, useAfterRenewal } from '../renewals/shared';
import { useCurrentUser } from '../../providers/identity';
import { http } from '../../providers/http';
import { useIdempotencyKey, withIdempotencyKey } from '../../providers/idempotency';
import { useAccountServers } from './useServers';
import { useTrialSettings } from './useTrialSettings';

type Purchase = 'months' | 'trial' | 'none';

interface Values {
  full_name: string;
  login: string;
  password?: string;
  mac_address: string;
  server_id?: number | null;
  purchase?: Purchase;
  months?: number | null;
  expiry_date?: dayjs.Dayjs | null;
  status?: Account['status'];
}

const FIELDS = ['full_name', 'login', 'password', 'mac_address', 'server_id', 'purchase', 'months', 'expiry_date', 'status'];
const ALIASES = { credits: 'purchase', is_trial: 'purchase', is_active: 'status' };

export interface AccountFormDialogProps {
  /** 'create', an account to edit, or null when closed. */
  target: 'create' | Account | null;
  onClose: () => void;
}

export function AccountFormDialog({ target, onClose }: AccountFormDialogProps) {
  const [form] = Form.useForm<Values>();
  const notify = useNotify();
  const afterSave = useAfterRenewal();
  const { role } = useCurrentUser();
  const admin = role === 'admin';
  const { options, branchServer } = useAccountServers();
  const trials = useTrialSettings();
  const [saving, setSaving] = useState(false);
  const nonce = useIdempotencyKey(target);
  const [summary, setSummary] = useState<string[]>([]);
  const editing = target !== null && target !== 'create' ? target : null;
  const mode = editing ? 'edit' : 'create';

  const purchase = Form.useWatch('purchase', form) as Purchase | undefined;
  const months = Form.useWatch('months', form);
  const serverId = Form.useWatch('server_id', form) as number | null | undefined;
  const servers = useMemo(() => [serverId ?? null], [serverId]);
  const price = useRenewalQuote(servers, months, target === 'create' && purchase === 'months');

  // A non-admin's accounts live on its branch's server: offer only that one when it is known.
  const serverOptions = !admin && branchServer ? options.filter((o) => o.value === branchServer.id) : options;

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    setSummary([]);
    if (editing) {
      form.setFieldsValue({
        full_name: editing.full_name,
        login: editing.login,
        password: '',
        mac_address: formatMac(editing.mac_address),
        server_id: editing.server_id,
        status: editing.status,
        expiry_date: editing.expiry_date ? dayjs(editing.expiry_date) : null,
      });
    } else {
      form.setFieldsValue({ purchase: 'months', months: 1, server_id: branchServer?.id ?? options[0]?.value ?? null });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);

  // The server list may arrive after the dialog opened.
  useEffect(() => {
    if (target === 'create' && !form.getFieldValue('server_id')) form.setFieldValue('server_id', branchServer?.id ?? options[0]?.value ?? null);
  }, [target, branchServer, options, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSummary([]);
    const body: Record<string, unknown> = {
      full_name: values.full_name.trim(),
      login: values.login.trim(),
      mac_address: normalizeMac(values.mac_address) ?? values.mac_address,
      ...(values.server_id ? { server_id: values.server_id } : {}),
    };
    if (values.password) body.password = values.password;
    if (admin && values.expiry_date !== undefined) {
      const before = editing?.expiry_date ? dayjs(editing.expiry_date) : null;
      const changed = editing ? !(values.expiry_date && before ? values.expiry_date.isSame(before) : values.expiry_date === before) : Boolean(values.expiry_date);
      if (changed) body.expiry_date = values.expiry_date ? values.expiry_date.toISOString() : null;
    }
    let idempotencyKey: string | undefined;
    if (editing) {
      body.status = values.status;
    } else if (values.purchase === 'months') {
      body.months = values.months;
      if (!price.loading && price.balance !== null && price.total > price.balance) {
        form.setFields([{ name: 'months', errors: [CREDITS.insufficientCredits(price.total, price.balance)] }]);
        return;
      }
      idempotencyKey = `${nonce}:create`;
    } else if (values.purchase === 'trial') {
      body.is_trial = true;
    }
    setSaving(true);
    try {
      if (editing) await http.put(`accounts/${editing.id}`, body);
      else await http.post('accounts', body, idempotencyKey ? withIdempotencyKey(idempotencyKey) : undefined);
      notify.success(editing ? ACCOUNTS.updated : ACCOUNTS.created);
      await afterSave();
      onClose();
    } catch (error) {
      const rest = applyServerErrors(form, error, FIELDS, ALIASES);
      setSummary(rest);
      const e = error as { errors?: unknown; message?: string };
      const fallback = editing ? ACCOUNT_SCREEN.updateFailed : ACCOUNT_SCREEN.createFailed;
      notify.error(GENERAL.error, e.errors && rest.length === 0 ? fallback : (e.message ?? fallback));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={mode === 'create' ? ACCOUNT_SCREEN.createTitle : ACCOUNT_SCREEN.editTitle}
      okText={mode === 'create' ? 'Create' : 'Save'}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      width={560}
      forceRender
    >
      {summary.length > 0 && (
        <Alert style={{ marginBottom: 16 }} type="error" showIcon message={ENTITY_FORM.fixErrors} description={<ul style={{ margin: 0, paddingLeft: 18 }}>{summary.map((m) => <li key={m}>{m}</li>)}</ul>} />
      )}
      <Form form={form} layout="vertical" onFinish={submit} autoComplete="off">
        <Form.Item name="full_name" label="Name" rules={[{ required: true, whitespace: true, message: ENTITY_FORM.nameRequired }]}>
          <Input />
        </Form.Item>
        <Form.Item name="login" label="Username" rules={[{ required: true, whitespace: true, message: ENTITY_FORM.usernameRequired }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label="Password"
          rules={mode === 'create' ? [{ required: true, message: ENTITY_FORM.passwordRequiredAccounts }] : []}
          help={mode === 'edit' ? ENTITY_FORM.keepPassword : undefined}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="mac_address"
          label="STB MAC address"
          rules={[
            { required: true, whitespace: true, message: ENTITY_FORM.macRequired },
            macAddressRule,
          ]}
          normalize={(v?: string) => v?.toUpperCase()}
        >
          <Input placeholder={ACCOUNT_SCREEN.macSearchPlaceholder} />
        </Form.Item>
        <Form.Item name="server_id" label="Server" rules={[{ required: true, message: ACCOUNTS.serverRequired }]}>
          <Select options={serverOptions} placeholder={GENERAL.serverPlaceholder} />
        </Form.Item>
        {mode === 'create' && (
          <>
            <Form.Item name="purchase" label="Subscription">
              <Radio.Group
                options={[
                  { label: 'Months', value: 'months' },
                  ...(trials.enabled ? [{ label: trials.days ? `Trial (${trials.days} days)` : 'Trial', value: 'trial' }] : []),
                  { label: 'None', value: 'none' },
                ]}
              />
            </Form.Item>
            {purchase === 'months' && (
              <>
                <Form.Item
                  name="months"
                  label="Months"
                  rules={[{ validator: (_, v) => (validMonths(v) ? Promise.resolve() : Promise.reject(new Error(INVALID_MONTHS))) }]}
                >
                  <InputNumber precision={0} style={{ width: '100%' }} />
                </Form.Item>
                <div style={{ marginBottom: 16 }}>
                  <PriceSummary price={price} />
                </div>
              </>
            )}
          </>
        )}
        {admin && (
          <Form.Item
            name="expiry_date"
            label="Expiry date"
            rules={[
              {
                validator: (_, v?: dayjs.Dayjs | null) =>
                  !v || v.isAfter(dayjs().subtract(1, 'minute')) || (editing?.expiry_date && v.isSame(dayjs(editing.expiry_date)))
                    ? Promise.resolve()
                    : Promise.reject(new Error(ENTITY_FORM.expiryInPast)),
              },
            ]}
          >
            <DatePicker showTime={{ format: TIME_FORMAT }} format={DATETIME_FORMAT} style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs().startOf('day'))} />
          </Form.Item>
        )}
        {mode === 'edit' && (
          <Form.Item name="status" label="Status">
            <Select options={USER_STATUSES.map((s) => ({ label: s.charAt(0).toUpperCase() + s.slice(1), value: s }))} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
