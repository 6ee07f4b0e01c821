/**
 * MAC Check (/mac-search, every role): a MAC address in any notation and an optional server; the
 * result says which of the caller's accounts uses it, that it is registered outside the caller's
 * accounts (without saying whose), or that nobody uses it. A found account can be deleted.
 */
import { type HttpError, useCan, useCustom, useCustomMutation } from '@refinedev/core';
import { DeleteOutlined, SearchOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Form, Input, Result, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { type Account, ACCOUNTS, ACCOUNT_SCREEN, type MacSearchQuery, type MacSearchResult, RENEWAL, formatMac, macSearchQuery, nameWithUsername } from '../../contract';
import { useAccountServers } from '../../features/accounts';
import { StatusTag } from '../../components/display';
import { ExpiryCell } from '../../features/accounts/ExpiryCell';
import { MountWhenOpened, useConfirm, useNotify } from '../../components/feedback';
import { FormField, SchemaForm, setServerErrors, useSchemaForm } from '../../components/form';
import { QuickRenewDialog } from '../../features/accounts/renewals';

/** The form's values; the contract's query schema (GET /mac-search) checks them and answers the query. */
type MacForm = z.input<typeof macSearchQuery>;
const FIELDS = ['mac', 'server_id'];

function AccountCard({
  account,
  onDelete,
  onRenew,
  canDelete,
  canRenew,
}: {
  account: Account;
  onDelete: () => void;
  onRenew: () => void;
  canDelete: boolean;
  canRenew: boolean;
}) {
  return (
    <Card
      size="small"
      type="inner"
      title={account.login}
      data-testid="mac-account"
      extra={
        <Space>
          {canRenew && (
            <Button size="small" icon={<ThunderboltOutlined />} onClick={onRenew}>
              {RENEWAL.quickRenew}
            </Button>
          )}
          {canDelete && (
            <Button size="small" danger icon={<DeleteOutlined />} onClick={onDelete}>
              Delete
            </Button>
          )}
        </Space>
      }
    >
      <Descriptions size="small" column={{ xs: 1, md: 2 }}>
        <Descriptions.Item label="Login">{account.login}</Descriptions.Item>
        <Descriptions.Item label="Full name">{account.full_name}</Descriptions.Item>
        <Descriptions.Item label="MAC">
          <Typography.Text code>{formatMac(account.mac_address)}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="Owner">{nameWithUsername(account.owner.name, account.owner.username)}</Descriptions.Item>
        <Descriptions.Item label="Server">{account.server?.name ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Expiry">
          <ExpiryCell value={account.expiry_date} />
        </Descriptions.Item>
        <Descriptions.Item label="Status">
          <StatusTag status={account.status} />
        </Descriptions.Item>
        <Descriptions.Item label="State">
          <StatusTag status={account.state} />
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

export function MacSearchPage() {
  const notify = useNotify();
  const { confirmDelete } = useConfirm();
  const { options: servers } = useAccountServers();
  const canDelete = useCan({ resource: 'mac-search', action: 'delete' }).data?.can === true;
  const canRenew = useCan({ resource: 'accounts', action: 'credits' }).data?.can === true;
  const [renewing, setRenewing] = useState<Account | null>(null);
  // A lookup, not a save: the form only checks the query; the check itself is the useCustom below.
  const { control, handleSubmit, setError } = useSchemaForm(macSearchQuery, { defaultValues: { mac: '' } });

  /** The query last checked (the schema's output: the bare MAC and the server, if one was chosen). */
  const [searched, setSearched] = useState<MacSearchQuery | null>(null);
  const { query, result } = useCustom<{ data: MacSearchResult }>({
    url: 'mac-search',
    method: 'get',
    config: { query: searched ?? undefined },
    queryOptions: { enabled: searched !== null, retry: false, placeholderData: (previous) => previous },
    errorNotification: false,
  });
  const found = searched && !query.isError ? result.data?.data : undefined;

  // A refusal: its field messages under the fields, anything else (or no field message) as a toast.
  useEffect(() => {
    if (!query.isError) return;
    const error = query.error as HttpError;
    const rest = setServerErrors(setError, error, FIELDS).filter((item) => !FIELDS.includes(item.field));
    if (rest.length || !error.errors) notify.httpError(error, ACCOUNT_SCREEN.actionFailed);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isError, query.errorUpdatedAt]);

  const search = (values: MacSearchQuery) => {
    const next: MacSearchQuery = { mac: values.mac, ...(values.server_id ? { server_id: values.server_id } : {}) };
    // The same query again is checked again.
    if (searched && searched.mac === next.mac && searched.server_id === next.server_id) void query.refetch();
    else setSearched(next);
  };
  const searchAgain = () => (searched ? query.refetch() : undefined);

  const { mutateAsync: post } = useCustomMutation<{ message?: string }>();
  const remove = (account: Account) =>
    confirmDelete(`account "${account.login}" (${formatMac(account.mac_address)})`, async () => {
      try {
        const { data } = await post({
          url: 'mac-search/delete',
          method: 'post',
          values: { mac: account.mac_address, server_id: account.server_id },
          successNotification: false,
          errorNotification: false,
        });
        notify.success(data?.message ?? ACCOUNTS.deleted);
        await searchAgain();
      } catch (error) {
        notify.httpError(error, ACCOUNT_SCREEN.deleteFailed);
      }
    });

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card title={ACCOUNT_SCREEN.macCheck}>
        <SchemaForm<MacForm> name="mac-check" layout="inline" handleSubmit={handleSubmit} onSubmit={search} style={{ rowGap: 12 }}>
          <FormField<MacForm> control={control} name="mac" label="MAC address" required>
            <Input placeholder={ACCOUNT_SCREEN.macSearchPlaceholder} style={{ width: 260 }} allowClear />
          </FormField>
          <FormField<MacForm> control={control} name="server_id" label="Server">
            <Select options={servers} allowClear placeholder="All servers" style={{ width: 200 }} aria-label="Server" />
          </FormField>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={query.isFetching}>
              Check
            </Button>
          </Form.Item>
        </SchemaForm>
      </Card>

      {found && (
        <Card title={`Result for ${found.mac}`} data-testid="mac-result">
          {found.found ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Alert type="success" showIcon message={found.message} />
              {found.accounts.map((account) => (
                <AccountCard
                  key={account.id}
                  account={account}
                  canDelete={canDelete}
                  canRenew={canRenew}
                  onDelete={() => remove(account)}
                  onRenew={() => setRenewing(account)}
                />
              ))}
            </Space>
          ) : found.registered_elsewhere ? (
            <Result status="warning" title={found.message} subTitle="It cannot be used for a new account on this server." />
          ) : (
            <Result status="info" title={found.message} subTitle="The MAC address is free." />
          )}
        </Card>
      )}
      <MountWhenOpened open={renewing !== null}>
        <QuickRenewDialog account={renewing} onClose={() => setRenewing(null)} onRenewed={() => void searchAgain()} />
      </MountWhenOpened>
    </Space>
  );
}
