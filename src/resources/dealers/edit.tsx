/** /dealers/edit/:id: name, username, password (empty keeps it) and status; back to /dealers. */
import { Button, Card, Descriptions, Space } from 'antd';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { HIERARCHY, HIERARCHY_PANEL, USER_STATUSES, dealerUpdateBody } from '../../contract';
import { SchemaForm, useSchemaForm } from '../../components/form';
import { ErrorSummary, UserFields, saveFailedNotification, useEditedUser, userFormSchema, userFormValues } from '../../features/hierarchy';
import { BackButton } from '../../features/transactions';

const schema = userFormSchema(dealerUpdateBody);

export function DealerEditPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { user: dealer, loading } = useEditedUser('dealers', id, { loadFailed: HIERARCHY_PANEL.dealerLoadDataFailed, listPath: '/dealers' });
  const { control, handleSubmit, reset, refineCore } = useSchemaForm(schema, {
    refineCoreProps: {
      resource: 'dealers',
      action: 'edit',
      id,
      // The dealer is loaded by useEditedUser (a failed load goes back to the list).
      queryOptions: { enabled: false },
      redirect: false,
      successNotification: () => ({ type: 'success', message: HIERARCHY.updated('Dealer') }),
      errorNotification: saveFailedNotification(HIERARCHY_PANEL.dealerUpdateFailed),
    },
  });

  useEffect(() => {
    if (dealer) reset(userFormValues(dealer, USER_STATUSES));
  }, [dealer, reset]);

  const submit = async (payload: Record<string, unknown>) => {
    await refineCore.onFinish(payload as never);
    navigate('/dealers');
  };

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
        <ErrorSummary error={refineCore.mutation.error} />
        <SchemaForm name="dealers-edit" handleSubmit={handleSubmit} onSubmit={submit}>
          <UserFields control={control} mode="edit" statuses={USER_STATUSES} />
          <Space>
            <Button type="primary" htmlType="submit" loading={refineCore.mutation.isPending}>
              Save Changes
            </Button>
            <Button onClick={() => navigate('/dealers')}>Cancel</Button>
          </Space>
        </SchemaForm>
      </div>
    </Card>
  );
}
