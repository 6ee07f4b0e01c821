/**
 * Two-factor sign-in in the profile (and on the enrolment screen a role that requires it is taken to):
 * the status, the setup (QR code, the secret as text, confirmed by a code), the recovery codes shown
 * once, and turning it off with the password or a code.
 */
import { type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { Alert, Button, Card, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import {
  TWO_FACTOR,
  type TwoFactorDisableBody,
  type TwoFactorEnableBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
  twoFactorDisableBody,
  twoFactorEnableBody,
} from '../../contract';
import { useNotify } from '../../components/feedback';
import { FormField, SchemaForm, setServerErrors, useSchemaForm } from '../../components/form';
import { useRefreshIdentity } from '../../providers/identity';

/** Confirms the pending secret with a code: answers the recovery codes. */
function ConfirmSetup({ setup, onEnabled, onCancel }: { setup: TwoFactorSetup; onEnabled: (codes: string[]) => void; onCancel: () => void }) {
  const notify = useNotify();
  const { control, handleSubmit, setError } = useSchemaForm(twoFactorEnableBody, { defaultValues: { code: '' } });
  const { mutateAsync, mutation } = useCustomMutation<{ message: string; recovery_codes: string[] }, HttpError>();

  const enable = async (values: TwoFactorEnableBody) => {
    try {
      const { data } = await mutateAsync({ url: 'profile/two-factor/enable', method: 'post', values, successNotification: false, errorNotification: false });
      notify.success(data.message);
      onEnabled(data.recovery_codes);
    } catch (error) {
      if (setServerErrors(setError, error, ['code']).length === 0) notify.httpError(error, TWO_FACTOR.codeInvalid);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph>{TWO_FACTOR.scanQr}</Typography.Paragraph>
      <img src={setup.qr_code} alt={TWO_FACTOR.qrAlt} width={220} height={220} style={{ display: 'block', background: '#fff' }} />
      <Typography.Text>
        {TWO_FACTOR.secretLabel}:{' '}
        <Typography.Text code copyable data-testid="two-factor-secret">
          {setup.secret}
        </Typography.Text>
      </Typography.Text>
      <SchemaForm name="two-factor-enable" handleSubmit={handleSubmit} onSubmit={enable}>
        <FormField control={control} name="code" label={TWO_FACTOR.codeLabel} required>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </FormField>
        <Space>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {TWO_FACTOR.confirm}
          </Button>
          <Button onClick={onCancel}>{TWO_FACTOR.cancel}</Button>
        </Space>
      </SchemaForm>
    </Space>
  );
}

/** The recovery codes, shown once after the setup. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Alert type="warning" showIcon message={TWO_FACTOR.recoveryTitle} description={TWO_FACTOR.recoveryHelp} />
      <Typography.Paragraph copyable={{ text: codes.join('\n') }} style={{ marginBottom: 0 }}>
        <ul data-testid="recovery-codes" style={{ columns: 2, fontFamily: 'monospace', paddingLeft: 20, marginBottom: 0 }}>
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
      </Typography.Paragraph>
      <Button type="primary" onClick={onDone}>
        {TWO_FACTOR.recoveryDone}
      </Button>
    </Space>
  );
}

/** Turning it off: the current password or a code. */
function TurnOff({ onOff }: { onOff: () => void }) {
  const notify = useNotify();
  const { control, handleSubmit, setError, reset } = useSchemaForm(twoFactorDisableBody, { defaultValues: { password: '', code: '' } });
  const { mutateAsync, mutation } = useCustomMutation<{ message: string }, HttpError>();

  const turnOff = async (values: TwoFactorDisableBody) => {
    try {
      const { data } = await mutateAsync({
        url: 'profile/two-factor/disable',
        method: 'post',
        values: { password: values.password || undefined, code: values.code || undefined },
        successNotification: false,
        errorNotification: false,
      });
      notify.success(data.message);
      reset();
      onOff();
    } catch (error) {
      if (setServerErrors(setError, error, ['password', 'code']).length === 0) notify.httpError(error, TWO_FACTOR.codeInvalid);
    }
  };

  return (
    <SchemaForm name="two-factor-disable" handleSubmit={handleSubmit} onSubmit={turnOff}>
      <Typography.Paragraph type="secondary">{TWO_FACTOR.turnOffPrompt}</Typography.Paragraph>
      <FormField control={control} name="password" label="Current Password">
        <Input.Password autoComplete="current-password" />
      </FormField>
      <FormField control={control} name="code" label={TWO_FACTOR.codeLabel}>
        <Input autoComplete="one-time-code" />
      </FormField>
      <Button danger htmlType="submit" loading={mutation.isPending}>
        {TWO_FACTOR.turnOff}
      </Button>
    </SchemaForm>
  );
}

export function TwoFactorCard({ onEnrolled }: { onEnrolled?: () => void }) {
  const notify = useNotify();
  const refreshIdentity = useRefreshIdentity();
  const { result, query } = useCustom<{ data: TwoFactorStatus }, HttpError>({ url: 'profile/two-factor', method: 'get', errorNotification: false });
  const status = query.isSuccess ? result.data?.data : undefined;
  const { mutateAsync, mutation } = useCustomMutation<{ data: TwoFactorSetup }, HttpError>();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const start = async () => {
    try {
      const { data } = await mutateAsync({ url: 'profile/two-factor/setup', method: 'post', values: {}, successNotification: false, errorNotification: false });
      setSetup(data.data);
    } catch (error) {
      notify.httpError(error, TWO_FACTOR.noSetup);
    }
  };

  const changed = async () => {
    await query.refetch();
    await refreshIdentity();
  };

  const body = codes ? (
    <RecoveryCodes
      codes={codes}
      onDone={() => {
        setCodes(null);
        onEnrolled?.();
      }}
    />
  ) : setup ? (
    <ConfirmSetup
      setup={setup}
      onCancel={() => setSetup(null)}
      onEnabled={(recovery) => {
        setSetup(null);
        setCodes(recovery);
        void changed();
      }}
    />
  ) : status?.enabled ? (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{TWO_FACTOR.recoveryLeft(status.recovery_codes_left)}</Typography.Text>
      {status.required ? <Alert type="info" showIcon message={TWO_FACTOR.requiredCannotTurnOff} /> : <TurnOff onOff={() => void changed()} />}
    </Space>
  ) : (
    <Space direction="vertical" style={{ width: '100%' }}>
      {status?.required && <Alert type="warning" showIcon message={TWO_FACTOR.required} />}
      <Typography.Paragraph>{TWO_FACTOR.intro}</Typography.Paragraph>
      <Button type="primary" onClick={() => void start()} loading={mutation.isPending} disabled={!status}>
        {TWO_FACTOR.start}
      </Button>
    </Space>
  );

  return (
    <Card
      title={TWO_FACTOR.title}
      loading={query.isLoading}
      extra={status && <Tag color={status.enabled ? 'green' : 'default'}>{status.enabled ? TWO_FACTOR.statusOn : TWO_FACTOR.statusOff}</Tag>}
    >
      {body}
    </Card>
  );
}
