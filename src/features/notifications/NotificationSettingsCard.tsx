/**
 * The profile's notification settings (GET and PUT /profile/notifications): the e-mail address, the
 * event types of each channel, the low balance threshold, the expiry reminder window and the webhook.
 * The webhook secret is never shown: typing one replaces the stored one.
 */
import { type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { Button, Card, Checkbox, Input, InputNumber, Select, Space } from 'antd';
import { useEffect } from 'react';
import { NOTIFICATIONS, NOTIFICATION_CHANNELS, NOTIFICATION_TYPES, type NotificationSettings, REMINDER_DAYS, notificationSettingsBody } from '../../contract';
import { useNotify } from '../../components/feedback';
import { FormField, SchemaForm, setServerErrors, useSchemaForm } from '../../components/form';

const FIELDS = ['email', 'channels', 'low_balance_threshold', 'expiry_reminder_days', 'webhook_url', 'webhook_secret'];

export function NotificationSettingsCard() {
  const notify = useNotify();
  const loaded = useCustom<{ data: NotificationSettings }>({ url: 'profile/notifications', method: 'get', queryOptions: { retry: false }, errorNotification: false });
  const current = loaded.result?.data?.data;
  const { control, handleSubmit, setError, reset } = useSchemaForm(notificationSettingsBody);
  useEffect(() => {
    if (current) {
      reset({
        email: current.email,
        channels: current.channels,
        low_balance_threshold: current.low_balance_threshold,
        expiry_reminder_days: current.expiry_reminder_days,
        webhook_url: current.webhook_url,
        webhook_secret: undefined,
      });
    }
  }, [current, reset]);
  const { mutateAsync, mutation } = useCustomMutation<{ message: string; data: NotificationSettings }, HttpError>();

  const save = async (values: Record<string, unknown>) => {
    try {
      const { data } = await mutateAsync({ url: 'profile/notifications', method: 'put', values, successNotification: false, errorNotification: false });
      notify.success(data.message);
      await loaded.query.refetch();
    } catch (error) {
      setServerErrors(setError, error, FIELDS);
      notify.httpError(error, NOTIFICATIONS.settingsTitle);
    }
  };

  return (
    <Card title={NOTIFICATIONS.settingsTitle} loading={loaded.query.isLoading}>
      <SchemaForm name="notification-settings" handleSubmit={handleSubmit} onSubmit={save}>
        <FormField control={control} name="email" label={NOTIFICATIONS.emailLabel}>
          <Input type="email" autoComplete="email" />
        </FormField>
        {NOTIFICATION_CHANNELS.map((channel) => (
          <FormField key={channel} control={control} name={`channels.${channel}`} label={NOTIFICATIONS.channels[channel]}>
            <Checkbox.Group options={NOTIFICATION_TYPES.map((type) => ({ value: type, label: NOTIFICATIONS.types[type] }))} />
          </FormField>
        ))}
        <Space wrap size="large">
          <FormField control={control} name="low_balance_threshold" label={NOTIFICATIONS.thresholdLabel}>
            <InputNumber min={0} precision={0} />
          </FormField>
          <FormField control={control} name="expiry_reminder_days" label={NOTIFICATIONS.reminderLabel}>
            <Select style={{ minWidth: 100 }} options={REMINDER_DAYS.map((d) => ({ value: d, label: String(d) }))} />
          </FormField>
        </Space>
        <FormField control={control} name="webhook_url" label={NOTIFICATIONS.webhookUrlLabel}>
          <Input placeholder="https://" />
        </FormField>
        <FormField
          control={control}
          name="webhook_secret"
          label={NOTIFICATIONS.webhookSecretLabel}
          extra={current?.webhook_secret_set ? NOTIFICATIONS.webhookSecretSet : undefined}
        >
          <Input.Password autoComplete="new-password" />
        </FormField>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          Save
        </Button>
      </SchemaForm>
    </Card>
  );
}
