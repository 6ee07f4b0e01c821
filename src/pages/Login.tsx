/** Sign-in (docs/domain.md#session). */
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useLogin } from '@refinedev/core';
import { Alert, Button, Input, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ACCESS, AUTH, type LoginBody, loginBody } from '../contract';
import { FormField, SchemaForm, useSchemaForm } from '../components/form';
import { useAppConfig } from '../providers/appConfig';
import { session } from '../providers/session';
import { SignInFrame } from './SignInFrame';

export function LoginPage() {
  const { mutate: login, isPending } = useLogin<LoginBody>();
  const { config } = useAppConfig();
  const [error, setError] = useState<string | null>(null);
  // Checked by the API's own sign-in schema before any request: an empty field reads 'Please fill in
  // all fields' under it. What the auth provider answers shows above the form.
  const { control, handleSubmit, reset } = useSchemaForm(loginBody, { mode: 'onSubmit', defaultValues: { username: '', password: '' } });

  const signIn = (values: LoginBody) => {
    setError(null);
    login(values, { onSuccess: (result) => setError(result.success ? null : (result.error?.message ?? AUTH.invalidCredentials)) });
  };

  return (
    <SignInFrame>
      <Typography.Title level={2} style={{ textAlign: 'center' }}>
        {AUTH.welcome}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        Sign in to your account
      </Typography.Paragraph>
      {session.ended() && !error && <Alert type="info" showIcon data-testid="session-ended" message={AUTH.sessionEnded} style={{ marginBottom: 16 }} role="status" />}
      {/* Maintenance (from /config, or the API's answer to this sign-in) is said once, as a notice, not as an error. */}
      {(config.maintenance_mode || error === ACCESS.maintenance) && (
        <Alert
          type="warning"
          showIcon
          data-testid="maintenance-notice"
          message={ACCESS.maintenance}
          description={AUTH.maintenanceSignIn}
          style={{ marginBottom: 16 }}
          role="status"
        />
      )}
      {error && error !== ACCESS.maintenance && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <SchemaForm name="login" handleSubmit={handleSubmit} onSubmit={signIn}>
        <FormField control={control} name="username" label="Username">
          <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
        </FormField>
        <FormField control={control} name="password" label="Password">
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </FormField>
        <Button type="primary" htmlType="submit" block loading={isPending}>
          {isPending ? AUTH.signingIn : 'Sign In'}
        </Button>
      </SchemaForm>
      {config.demo_mode && (
        <Alert
          style={{ marginTop: 24 }}
          type="info"
          message="Demo accounts"
          description={
            <>
              {config.demo_users.map((u) => (
                <Tag key={u} style={{ cursor: 'pointer' }} onClick={() => reset({ username: u, password: 'demo' })}>
                  {u}
                </Tag>
              ))}
              <div style={{ marginTop: 8 }}>Any password works.</div>
            </>
          }
        />
      )}
    </SignInFrame>
  );
}
