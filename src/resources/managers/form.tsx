/**
 * /managers/create and /managers/edit/:id: full pages (spec 2). The username is locked on edit;
 * status is active or inactive (no suspended for managers, spec 4); success or a failed load
 * returns to /managers.
 */
import { useCreate, useUpdate } from '@refinedev/core';
import { Button, Card, Form, InputNumber, Select, Space } from 'antd';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  CREDITS,
  ENTITY_FORM,
  GENERAL,
  HIERARCHY,
  HIERARCHY_PANEL,
  MANAGER_ALLOCATION_MAX,
  MANAGERS,
  type UserStatus,
} from '../../contract';
import { useNotify } from '../../components/feedback';
import { ErrorSummary, USER_FORM_FIELDS, UserFields, statusPayload, useEditedUser, useUserFormSave } from '../../components/hierarchy';
import { BackButton } from '../../components/transactions';
import { useServerOptions } from '../serverOptions';

interface ManagerFormValues {
  name: string;
  username: string;
  password?: string;
  credits?: number | null;
  server_id?: number | null;
  status?: UserStatus;
}

const FORM_FIELDS = [...USER_FORM_FIELDS, 'credits', 'server_id'];

export function ManagerFormPage({ mode }: { mode: 'create' | 'edit' }) {
  const { id } = useParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const [form] = Form.useForm<ManagerFormValues>();
  const { summary, saving, save } = useUserFormSave(form, FORM_FIELDS);
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: update } = useUpdate();
  const { user: manager, loading } = useEditedUser('managers', id, { enabled: mode === 'edit', loadFailed: MANAGERS.loadDataFailed, listPath: '/managers' });
  const servers = useServerOptions();

  useEffect(() => {
    if (mode === 'edit' && manager) {
      form.setFieldsValue({ name: manager.name, username: manager.username, server_id: manager.server_id, status: manager.is_active ? 'active' : 'inactive' });
    }
  }, [mode, manager, form]);

  const onFinish = (values: ManagerFormValues) =>
    save(async () => {
      if (mode === 'create') {
        await create({
          resource: 'managers',
          values: {
            name: values.name,
            username: values.username,
            password: values.password,
            credits: values.credits ?? 0,
            server_id: values.server_id ?? null,
            ...statusPayload(values.status),
          },
          successNotification: false,
          errorNotification: false,
        });
        notify.success(HIERARCHY.created('Manager'));
      } else {
        await update({
          resource: 'managers',
          id: id!,
          values: {
            name: values.name,
            server_id: values.server_id ?? null,
            ...statusPayload(values.status),
            ...(values.password ? { password: values.password } : {}),
          },
          successNotification: false,
          errorNotification: false,
        });
        notify.success(HIERARCHY.updated('Manager'));
      }
      navigate('/managers');
    }, mode === 'create' ? HIERARCHY_PANEL.managerCreateFailed : HIERARCHY_PANEL.managerUpdateFailed);

  return (
    <Card title={mode === 'create' ? 'Create Manager' : 'Edit Manager'} extra={<BackButton fallback="/managers" />} loading={mode === 'edit' && loading}>
      <div style={{ maxWidth: 640 }}>
        <ErrorSummary items={summary} />
        <Form form={form} layout="vertical" onFinish={onFinish} initialValues={{ status: 'active', credits: 0 }}>
          <UserFields
            mode={mode}
            nameRequired={ENTITY_FORM.managerNameRequired}
            passwordRequired={ENTITY_FORM.passwordRequiredManagers}
            lockUsername
            statuses={['active', 'inactive']}
          />
          {mode === 'create' && (
            <Form.Item
              name="credits"
              label="Initial credits"
              rules={[
                {
                  validator: async (_, value) => {
                    if (value === undefined || value === null || value === '') return;
                    if (!Number.isInteger(Number(value)) || Number(value) < 0) throw new Error(ENTITY_FORM.creditsPositive);
                    if (Number(value) > MANAGER_ALLOCATION_MAX) throw new Error(CREDITS.adminAllocationCap);
                  },
                },
              ]}
            >
              <InputNumber style={{ width: '100%' }} precision={0} />
            </Form.Item>
          )}
          <Form.Item name="server_id" label="Server">
            <Select allowClear aria-label="Server" placeholder={GENERAL.serverPlaceholder} loading={servers.loading} options={servers.options} />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              {mode === 'create' ? 'Create Manager' : 'Save Changes'}
            </Button>
            <Button onClick={() => navigate('/managers')}>Cancel</Button>
          </Space>
        </Form>
      </div>
    </Card>
  );
}
