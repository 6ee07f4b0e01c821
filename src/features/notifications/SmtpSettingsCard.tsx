/**
 * The admin's SMTP server for the notification digests (GET and PUT /smtp-settings) and the panel's
 * public address the digests link to. The password is never shown: typing one replaces the stored
 * one, an empty field keeps it.
 */
import { type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { Button, Card, Input, InputNumber, Space, Switch } from 'antd';
import { useEffect } from 'react';
import { NOTIFICATIONS, type SmtpSettings, smtpSettingsBody } from '../../contract';
import { useNotify } from '../../components/feedback';
import { FormField, SchemaForm, setServerErrors, useSchemaForm } from '../../components/form';

const FIELDS = ['host', 'port', 'secure', 'user', 'password', 'from', 'digest_hour', 'panel_url'];

export function SmtpSettingsCard() {
  const notify = useNotify();
  const loaded = useCustom<{ data: SmtpSettings | null }>({ url: 'smtp-settings', method: 'get', queryOptions: { retry: false }, errorNotification: false });
  const current = loaded.result?.data?.data;
  const { control, handleSubmit, setError, reset } = useSchemaForm(smtpSettingsBody, { defaultValues: { port: 587, secure: false, digest_hour: 7 } });
  useEffect(() => {
    if (current)
      reset({
        host: current.host,
        port: current.port,
        secure: current.secure,
        user: current.user,
        from: current.from,
        digest_hour: current.digest_hour,
        panel_url: current.panel_url,
        password: undefined,
      });
  }, [current, reset]);
  const { mutateAsync, mutation } = useCustomMutation<{ message: string }, HttpError>();

  const save = async (values: Record<string, unknown>) => {
    // An empty password field keeps the stored one.
    const { password, ...rest } = values;
    try {
      const { data } = await mutateAsync({
        url: 'smtp-settings',
        method: 'put',
        values: password ? { ...rest, password } : rest,
        successNotification: false,
        errorNotification: false,
      });
      notify.success(data.message);
      await loaded.query.refetch();
    } catch (error) {
      setServerErrors(setError, error, FIELDS);
      notify.httpError(error, NOTIFICATIONS.smtpTitle);
    }
  };

  return (
    <Card title={NOTIFICATIONS.smtpTitle} loading={loaded.query.isLoading}>
      <SchemaForm name="smtp-settings" handleSubmit={handleSubmit} onSubmit={save}>
        <Space wrap size="large">
          <FormField control={control} name="host" label="Host" required>
            <Input />
          </FormField>
          <FormField control={control} name="port" label="Port" required>
            <InputNumber min={1} max={65535} precision={0} />
          </FormField>
          <FormField control={control} name="secure" label="TLS from the start (port 465)" valuePropName="checked">
            <Switch />
          </FormField>
        </Space>
        <Space wrap size="large">
          <FormField control={control} name="user" label="User">
            <Input autoComplete="off" />
          </FormField>
          <FormField control={control} name="password" label="Password" extra={current?.password_set ? NOTIFICATIONS.smtpPasswordSet : undefined}>
            <Input.Password autoComplete="new-password" />
          </FormField>
        </Space>
        <Space wrap size="large">
          <FormField control={control} name="from" label="From address" required>
            <Input type="email" />
          </FormField>
          <FormField control={control} name="digest_hour" label="Digest hour (UTC)">
            <InputNumber min={0} max={23} precision={0} />
          </FormField>
        </Space>
        <FormField control={control} name="panel_url" label={NOTIFICATIONS.panelUrlLabel} extra={NOTIFICATIONS.panelUrlHint}>
          <Input inputMode="url" placeholder="https://" autoComplete="url" />
        </FormField>
        <div>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            Save
          </Button>
        </div>
      </SchemaForm>
    </Card>
  );
}
