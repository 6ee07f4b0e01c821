/** /dealers/edit/:id: name, username, password (empty keeps it) and status; back to /dealers. */
import { useOne, useUpdate } from '@refinedev/core';
import { Button, Card, Descriptions, Form, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ENTITY_FORM, GENERAL, HIERARCHY, HIERARCHY_PANEL, type HierarchyUser, USER_STATUSES, type UserStatus } from '../../contract';
import { useNotify } from '../../components/feedback';
import { ErrorSummary, type FieldErrorItem, USER_FORM_FIELDS, UserFields, applyServerErrors, statusPayload } from '../../components/hierarchy';
import { BackButton } from '../../components/transactions';

interface Values {
  name: string;
  username: string;
  password?: string;
  status?: UserStatus;
}

export function DealerEditPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const [form] = Form.useForm<Values>();
  const [summary, setSummary] = useState<FieldErrorItem[]>([]);
  const [saving, setSaving] = useState(false);
  const { mutateAsync: update } = useUpdate();
  const { result: dealer, query } = useOne<HierarchyUser>({ resource: 'dealers', id: id ?? '', queryOptions: { enabled: Boolean(id), retry: false }, errorNotification: false });

  useEffect(() => {
    if (query.isError) {
      notify.error(GENERAL.error, HIERARCHY_PANEL.dealerLoadDataFailed);
      navigate('/dealers');
    }
  }, [query.isError, notify, navigate]);

  useEffect(() => {
    if (dealer) form.setFieldsValue({ name: dealer.name, username: dealer.username, status: dealer.status });
  }, [dealer, form]);

  const onFinish = async (values: Values) => {
    setSummary([]);
    setSaving(true);
    try {
      await update({
        resource: 'dealers',
        id: id!,
        values: { name: values.name, username: values.username, ...(values.password ? { password: values.password } : {}), ...statusPayload(values.status) },
        successNotification: false,
        errorNotification: false,
      });
      notify.success(HIERARCHY.updated('Dealer'));
      navigate('/dealers');
    } catch (error) {
      const items = applyServerErrors(form, error, USER_FORM_FIELDS);
      setSummary(items);
      if (items.length === 0) notify.httpError(error, HIERARCHY_PANEL.dealerUpdateFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="Edit Dealer" extra={<BackButton fallback="/dealers" />} loading={query.isLoading}>
      <div style={{ maxWidth: 640 }}>
        {dealer && (
          <Descriptions size="small" column={{ xs: 1, sm: 3 }} style={{ marginBottom: 16 }}>
            <Descriptions.Item label="Reseller">{dealer.reseller?.name ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Credits">{dealer.credits}</Descriptions.Item>
            <Descriptions.Item label="Total Users">{dealer.total_accounts}</Descriptions.Item>
          </Descriptions>
        )}
        <ErrorSummary items={summary} />
        <Form form={form} layout="vertical" onFinish={onFinish}>
          <UserFields mode="edit" nameRequired={ENTITY_FORM.nameRequired} passwordRequired={ENTITY_FORM.passwordRequiredAccounts} statuses={USER_STATUSES} />
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              Save Changes
            </Button>
            <Button onClick={() => navigate('/dealers')}>Cancel</Button>
          </Space>
        </Form>
      </div>
    </Card>
  );
}
