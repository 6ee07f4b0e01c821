/**
 * MAC Check (/mac-search, every role): a MAC address in any notation and an optional server; the
 * result says which of the caller's accounts uses it, that it is registered outside the caller's
 * accounts (without saying whose), or that nobody uses it. A found account can be deleted.
 */
import { useCan } from '@refinedev/core';
import { DeleteOutlined, SearchOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Form, Input, Result, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { type Account, ACCOUNTS, ACCOUNT_SCREEN, ENTITY_FORM, type MacSearchResult, RENEWAL, formatMac, normalizeMac } from '../../contract';
import { StatusTag } from '../../components/display';
import { ExpiryCell } from '../../components/display/ExpiryCell';
import { useConfirm, useNotify } from '../../components/feedback';
import { macAddressRule } from '../../components/form/rules';
import { applyServerErrors } from '../../components/form/legacyServerErrors';
import { QuickRenewDialog } from '../../components/renewals';
import { http } from '../../providers/http';
import { useAccountServers } from '../../components/accounts';

interface Query {
  mac: string;
  server_id?: number | null;
}

function AccountCard({ account, onDelete, onRenew, canDelete, canRenew }: { account: Account; onDelete: () => void; onRenew: () => void; canDelete: boolean; canRenew: boolean }) {
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
        <Descriptions.Item label="Owner">
          {account.owner.name} ({account.owner.username})
        </Descriptions.Item>
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
  const [form] = Form.useForm<Query>();
  const notify = useNotify();
  const { confirmDelete } = useConfirm();
  const { options: servers } = useAccountServers();
  const canDelete = useCan({ resource: 'mac-search', action: 'delete' }).data?.can === true;
  const canRenew = useCan({ resource: 'accounts', action: 'credits' }).data?.can === true;
  const [result, setResult] = useState<MacSearchResult | null>(null);
  const [last, setLast] = useState<Query | null>(null);
  const [loading, setLoading] = useState(false);
  const [renewing, setRenewing] = useState<Account | null>(null);

  const search = async (query: Query) => {
    const mac = normalizeMac(query.mac) ?? query.mac;
    setLoading(true);
    try {
      const params = { mac, ...(query.server_id ? { server_id: query.server_id } : {}) };
      const { data } = await http.get<{ data: MacSearchResult }>('mac-search', { params });
      setResult(data.data);
      setLast(query);
    } catch (error) {
      setResult(null);
      if (applyServerErrors(form, error, ['mac', 'server_id']).length || !(error as { errors?: unknown }).errors) notify.httpError(error, ACCOUNT_SCREEN.actionFailed);
    } finally {
      setLoading(false);
    }
  };

  const remove = (account: Account) =>
    confirmDelete(`account "${account.login}" (${formatMac(account.mac_address)})`, async () => {
      try {
        const { data } = await http.post<{ message?: string }>('mac-search/delete', { mac: account.mac_address, server_id: account.server_id });
        notify.success(data?.message ?? ACCOUNTS.deleted);
        if (last) await search(last);
      } catch (error) {
        notify.httpError(error, ACCOUNT_SCREEN.deleteFailed);
      }
    });

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card title={ACCOUNT_SCREEN.macCheck}>
        <Form form={form} layout="inline" onFinish={search} style={{ rowGap: 12 }}>
          <Form.Item
            name="mac"
            label="MAC address"
            rules={[
              { required: true, whitespace: true, message: ENTITY_FORM.invalidMac },
              macAddressRule,
            ]}
          >
            <Input placeholder={ACCOUNT_SCREEN.macSearchPlaceholder} style={{ width: 260 }} allowClear />
          </Form.Item>
          <Form.Item name="server_id" label="Server">
            <Select options={servers} allowClear placeholder="All servers" style={{ width: 200 }} aria-label="Server" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={loading}>
              Check
            </Button>
          </Form.Item>
        </Form>
      </Card>

      {result && (
        <Card title={`Result for ${result.mac}`} data-testid="mac-result">
          {result.found ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Alert type="success" showIcon message={result.message} />
              {result.accounts.map((account) => (
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
          ) : result.registered_elsewhere ? (
            <Result status="warning" title={result.message} subTitle="It cannot be used for a new account on this server." />
          ) : (
            <Result status="info" title={result.message} subTitle="The MAC address is free." />
          )}
        </Card>
      )}
      <QuickRenewDialog account={renewing} onClose={() => setRenewing(null)} onRenewed={() => last && search(last)} />
    </Space>
  );
}
