/**
 * /managers/create and /managers/edit/:id: full pages. The username is locked on edit;
 * status is active or inactive (no suspended for managers); success or a failed load
 * returns to /managers. Initial credits make the create a credit move: it carries the page's
 * Idempotency-Key, kept for every retry.
 */
import { Button, Card, InputNumber, Select, Space } from 'antd';
import { useEffect, useMemo } from 'react';
import { useNavigate, useParams } from 'react-router';
import { GENERAL, HIERARCHY, HIERARCHY_PANEL, MANAGERS, type UserStatus, managerCreateBody, managerUpdateBody } from '../../contract';
import { FormField, SchemaForm, useSchemaForm } from '../../components/form';
import { ErrorSummary, type UserFormValues, UserFields, saveFailedNotification, useEditedUser, userFormSchema, userFormValues } from '../../features/hierarchy';
import { BackButton } from '../../features/transactions';
import { useIdempotencyKey, withIdempotencyKey } from '../../providers/idempotency';
import { useServerOptions } from '../../features/servers';

const STATUSES: readonly UserStatus[] = ['active', 'inactive'];

/** A cleared select or number is null (the API clears the server; no initial credits). */
const emptyIsNull = { fromInput: (v: unknown) => v ?? null };

export function ManagerFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const { id } = useParams();
  const navigate = useNavigate();
  const idempotencyKey = useIdempotencyKey(mode);
  const { user: manager, loading } = useEditedUser('managers', id, { enabled: mode === 'edit', loadFailed: MANAGERS.loadDataFailed, listPath: '/managers' });
  const servers = useServerOptions();
  // The username is locked on edit: the update does not send it.
  const schema = useMemo(() => (mode === 'create' ? userFormSchema(managerCreateBody) : userFormSchema(managerUpdateBody, { omit: ['username'] })), [mode]);
  const { control, handleSubmit, reset, refineCore } = useSchemaForm(schema, {
    defaultValues: { status: 'active', credits: 0, server_id: null },
    refineCoreProps: {
      resource: 'managers',
      action: mode,
      id: mode === 'edit' ? id : undefined,
      // The edited manager is loaded by useEditedUser (a failed load goes back to the list).
      queryOptions: { enabled: false },
      redirect: false,
      meta: mode === 'create' ? withIdempotencyKey(idempotencyKey) : undefined,
      successNotification: () => ({ type: 'success', message: mode === 'create' ? HIERARCHY.created('Manager') : HIERARCHY.updated('Manager') }),
      errorNotification: saveFailedNotification(mode === 'create' ? HIERARCHY_PANEL.managerCreateFailed : HIERARCHY_PANEL.managerUpdateFailed),
    },
  });

  useEffect(() => {
    if (mode === 'edit' && manager) reset({ ...userFormValues(manager, STATUSES), server_id: manager.server_id });
  }, [mode, manager, reset]);

  const submit = async (payload: Record<string, unknown>) => {
    await refineCore.onFinish(payload as never);
    navigate('/managers');
  };

  return (
    <Card title={mode === 'create' ? 'Create Manager' : 'Edit Manager'} extra={<BackButton fallback="/managers" />} loading={mode === 'edit' && loading}>
      <div style={{ maxWidth: 640 }}>
        <ErrorSummary error={refineCore.mutation.error} />
        <SchemaForm name={`managers-${mode}`} handleSubmit={handleSubmit} onSubmit={submit}>
          <UserFields control={control} mode={mode} lockUsername statuses={STATUSES} />
          {mode === 'create' && (
            <FormField<UserFormValues> control={control} name="credits" label="Initial credits" {...emptyIsNull}>
              {/* No precision: it would round a typed 7.5 to 8 on Enter; the schema refuses it instead. */}
              <InputNumber style={{ width: '100%' }} />
            </FormField>
          )}
          <FormField<UserFormValues> control={control} name="server_id" label="Server" {...emptyIsNull}>
            <Select allowClear aria-label="Server" placeholder={GENERAL.serverPlaceholder} loading={servers.loading} options={servers.options} />
          </FormField>
          <Space>
            <Button type="primary" htmlType="submit" loading={refineCore.mutation.isPending}>
              {mode === 'create' ? 'Create Manager' : 'Save Changes'}
            </Button>
            <Button onClick={() => navigate('/managers')}>Cancel</Button>
          </Space>
        </SchemaForm>
      </div>
    </Card>
  );
}
