/**
 * The user's personal API tokens on the profile: the list (prefix, name, scopes, dates, last use and
 * from where), a create dialog (name, scopes, expiry, allowed addresses), the new token shown once
 * with a copy button, and revoke after a confirmation.
 */
import { type BaseRecord, type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { Alert, Button, Card, Checkbox, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import {
  API_TOKENS,
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_SCOPES,
  type ApiToken,
  type ApiTokenForm,
  type CreatedApiToken,
  addressLines,
  apiTokenForm,
} from '../../contract';
import { Scrollable } from '../../components/DataTable';
import { dateTime } from '../../components/display';
import { useConfirm, useNotify } from '../../components/feedback';
import { FormField, SchemaForm, setServerErrors, useSchemaForm } from '../../components/form';

const FORM_DEFAULTS: ApiTokenForm = { name: '', scopes: ['read'], expires_in_days: API_TOKEN_DEFAULT_DAYS, allowed_addresses: '' };

/** Every token reads: `read` is always ticked and cannot be unticked. */
const scopeOptions = API_TOKEN_SCOPES.map((scope) => ({
  value: scope,
  disabled: scope === 'read',
  label: (
    <span>
      {API_TOKENS.scopeLabels[scope]} <Typography.Text type="secondary">— {API_TOKENS.scopeHelp[scope]}</Typography.Text>
    </span>
  ),
}));

function CreateTokenDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (created: CreatedApiToken) => void }) {
  const notify = useNotify();
  const { control, handleSubmit, setError, reset } = useSchemaForm(apiTokenForm, { defaultValues: FORM_DEFAULTS });
  const { mutateAsync, mutation } = useCustomMutation<CreatedApiToken, HttpError>();

  const create = async (values: ApiTokenForm) => {
    try {
      const { data } = await mutateAsync({
        url: 'api-tokens',
        method: 'post',
        values: { ...values, allowed_addresses: addressLines(values.allowed_addresses) },
        successNotification: false,
        errorNotification: false,
      });
      reset(FORM_DEFAULTS);
      onCreated(data);
    } catch (error) {
      if (setServerErrors(setError, error, ['name', 'scopes', 'expires_in_days', 'allowed_addresses']).length === 0) notify.httpError(error, API_TOKENS.tooMany);
    }
  };

  return (
    <Modal
      open={open}
      title={API_TOKENS.createTitle}
      okText={API_TOKENS.create}
      onCancel={onClose}
      onOk={() => handleSubmit(create)().catch(() => undefined)}
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      <SchemaForm name="api-token" handleSubmit={handleSubmit} onSubmit={create}>
        <FormField control={control} name="name" label={API_TOKENS.nameLabel} required>
          <Input maxLength={100} />
        </FormField>
        <FormField
          control={control}
          name="scopes"
          label={API_TOKENS.scopesLabel}
          toInput={(value) => Array.from(new Set(['read', ...((value as string[] | undefined) ?? [])]))}
        >
          <Checkbox.Group options={scopeOptions} style={{ display: 'flex', flexDirection: 'column', gap: 4 }} />
        </FormField>
        <FormField control={control} name="expires_in_days" label={API_TOKENS.expiryLabel}>
          <Select options={API_TOKEN_EXPIRY_DAYS.map((days) => ({ value: days, label: API_TOKENS.expiryDays(days) }))} />
        </FormField>
        <FormField control={control} name="allowed_addresses" label={API_TOKENS.addressesLabel} extra={API_TOKENS.addressesHelp}>
          <Input.TextArea rows={3} placeholder={'203.0.113.0/24\n2001:db8::/32'} />
        </FormField>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </SchemaForm>
    </Modal>
  );
}

/** The token in clear, this once. */
function ShownOnce({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  return (
    <Modal
      open
      title={API_TOKENS.created}
      onCancel={onDone}
      footer={
        <Button type="primary" onClick={onDone}>
          {API_TOKENS.done}
        </Button>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert type="warning" showIcon message={API_TOKENS.shownOnce} />
        <Typography.Paragraph
          code
          copyable={{ text: created.token, tooltips: [API_TOKENS.copy, API_TOKENS.copied] }}
          data-testid="api-token-value"
          style={{ wordBreak: 'break-all' }}
        >
          {created.token}
        </Typography.Paragraph>
      </Space>
    </Modal>
  );
}

export function ApiTokensCard() {
  const notify = useNotify();
  const { confirm } = useConfirm();
  const { result, query } = useCustom<{ data: ApiToken[] }, HttpError>({ url: 'api-tokens', method: 'get', errorNotification: false });
  const tokens = query.isSuccess ? (result.data?.data ?? []) : [];
  const { mutateAsync } = useCustomMutation<BaseRecord, HttpError>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  const revoke = (token: ApiToken) =>
    confirm(
      API_TOKENS.revoke,
      API_TOKENS.revokeConfirm(token.name),
      async () => {
        try {
          await mutateAsync({ url: `api-tokens/${token.id}`, method: 'delete', values: {}, successNotification: false, errorNotification: false });
          notify.success(API_TOKENS.revoked);
        } catch (error) {
          notify.httpError(error, API_TOKENS.revoke);
        }
        await query.refetch();
      },
      API_TOKENS.revoke,
    );

  const now = Date.now();
  return (
    <Card
      title={API_TOKENS.title}
      loading={query.isLoading}
      extra={
        <Button type="primary" onClick={() => setCreating(true)}>
          {API_TOKENS.create}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{API_TOKENS.intro}</Typography.Paragraph>
      <Scrollable label={API_TOKENS.title}>
        <Table<ApiToken>
          rowKey="id"
          size="small"
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={tokens}
          locale={{ emptyText: <Typography.Text type="secondary">{API_TOKENS.empty}</Typography.Text> }}
          columns={[
            { key: 'prefix', title: API_TOKENS.columns.prefix, dataIndex: 'prefix', render: (prefix: string) => <Typography.Text code>{prefix}</Typography.Text> },
            { key: 'name', title: API_TOKENS.columns.name, dataIndex: 'name' },
            {
              key: 'scopes',
              title: API_TOKENS.columns.scopes,
              dataIndex: 'scopes',
              render: (scopes: ApiToken['scopes']) => scopes.map((scope) => <Tag key={scope}>{API_TOKENS.scopeLabels[scope]}</Tag>),
            },
            {
              key: 'addresses',
              title: API_TOKENS.addressesLabel,
              dataIndex: 'allowed_addresses',
              render: (ranges: string[]) => (ranges.length > 0 ? ranges.join(', ') : API_TOKENS.columns.anyAddress),
            },
            { key: 'created', title: API_TOKENS.columns.created, dataIndex: 'created_at', render: dateTime },
            {
              key: 'expires',
              title: API_TOKENS.columns.expires,
              dataIndex: 'expires_at',
              render: (value: string) => (Date.parse(value) <= now ? <Tag color="red">{API_TOKENS.expired}</Tag> : dateTime(value)),
            },
            {
              key: 'last-used',
              title: API_TOKENS.columns.lastUsed,
              dataIndex: 'last_used_at',
              render: (value: string | null) => (value ? dateTime(value) : API_TOKENS.never),
            },
            { key: 'from', title: API_TOKENS.columns.lastAddress, dataIndex: 'last_used_ip', render: (value: string | null) => value ?? '—' },
            {
              key: 'actions',
              title: API_TOKENS.columns.actions,
              render: (_: unknown, token: ApiToken) => (
                <Button danger size="small" onClick={() => revoke(token)} aria-label={`${API_TOKENS.revoke} ${token.name}`}>
                  {API_TOKENS.revoke}
                </Button>
              ),
            },
          ]}
        />
      </Scrollable>
      <CreateTokenDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
          void query.refetch();
        }}
      />
      {created && <ShownOnce created={created} onDone={() => setCreated(null)} />}
    </Card>
  );
}
