/** /dealers/edit/:id: name, username, password (empty keeps it) and status; back to /dealers. */
import { useUpdate } from '@refinedev/core';
import { Button, Card, Descriptions, Form, Space } from 'antd';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ENTITY_FORM, HIERARCHY, HIERARCHY_PANEL, USER_STATUSES, type UserStatus } from '../../contract';
import { useNotify } from '../../components/feedback';
import { ErrorSummary, USER_FORM_FIELDS, UserFields, statusPayload, useEditedUser, useUserFormSave } from '../../components/hierarchy';
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
  const { summary, saving, save } = useUserFormSave(form, USER_FORM_FIELDS);
  const { mutateAsync: update } = useUpdate();
  const { user: dealer, loading } = useEditedUser('dealers', id, { loadFailed: HIERARCHY_PANEL.dealerLoadDataFailed, listPath: '/dealers' });

  useEffect(() => {
    if (dealer) form.setFieldsValue({ name: dealer.name, username: dealer.username, status: dealer.status });
  }, [dealer, form]);

  const onFinish = (values: Values) =>
    save(async () => {
      await update({
        resource: 'dealers',
        id: id!,
        values: { name: values.name, username: values.username, ...(values.password ? { password: values.password } : {}), ...statusPayload(values.status) },
        successNotification: false,
        errorNotification: false,
      });
      notify.success(HIERARCHY.updated('Dealer'));
      navigate('/dealers');
    }, HIERARCHY_PANEL.dealerUpdateFailed);

  return (
    <Card title="Edit Dealer" extra={<BackButton fallback="/dealers" />} loading={loading}>
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
