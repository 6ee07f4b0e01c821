/** Sign-in (docs/domain.md#session). */
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useLogin } from '@refinedev/core';
import { Alert, Button, Input, Tag, Typography } from 'antd';
import { useState } from 'react';
import { z } from 'zod';
import { ACCESS, AUTH, type LoginBody, TWO_FACTOR, type TwoFactorChallenge, loginBody, twoFactorLoginBody } from '../contract';
import { FormField, SchemaForm, useSchemaForm } from '../components/form';
import { useAppConfig } from '../providers/appConfig';
import { session } from '../providers/session';
import { SignInFrame } from './SignInFrame';

/** The code step: the challenge travels beside the form. */
const codeForm = twoFactorLoginBody.pick({ code: true });
type Challenge = TwoFactorChallenge['two_factor'];

/** The second step of a sign-in: the authenticator's code or a recovery code. */
function CodeStep({ challenge, onBack }: { challenge: Challenge; onBack: (message?: string) => void }) {
  const { mutate: login, isPending } = useLogin<{ challenge: string; code: string }>();
  const [error, setError] = useState<string | null>(null);
  const { control, handleSubmit } = useSchemaForm(codeForm, { mode: 'onSubmit', defaultValues: { code: '' } });

  const verify = ({ code }: z.infer<typeof codeForm>) => {
    setError(null);
    login(
      { challenge: challenge.challenge, code },
      {
        onSuccess: (result) => {
          if (result.success) return;
          const message = result.error?.message ?? TWO_FACTOR.codeInvalid;
          // An expired or used challenge: the sign-in starts again from the password.
          if (message === TWO_FACTOR.challengeExpired) onBack(message);
          else setError(message);
        },
      },
    );
  };

  return (
    <>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
        {TWO_FACTOR.codePrompt}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <SchemaForm name="login-code" handleSubmit={handleSubmit} onSubmit={verify}>
        <FormField control={control} name="code" label={TWO_FACTOR.codeLabel}>
          <Input prefix={<SafetyOutlined />} autoComplete="one-time-code" autoFocus />
        </FormField>
        <Button type="primary" htmlType="submit" block loading={isPending}>
          {TWO_FACTOR.verify}
        </Button>
        <Button type="link" block onClick={() => onBack()} style={{ marginTop: 8 }}>
          {TWO_FACTOR.backToSignIn}
        </Button>
      </SchemaForm>
    </>
  );
}

export function LoginPage() {
  const { mutate: login, isPending } = useLogin<LoginBody>();
  // Kept by the session module: Refine re-mounts this page while it re-checks the session after the password.
  const [challenge, setChallengeState] = useState<Challenge | null>(session.challenge);
  const setChallenge = (next: Challenge | null) => {
    session.setChallenge(next);
    setChallengeState(next);
  };
  const { config } = useAppConfig();
  const [error, setError] = useState<string | null>(null);
  // Checked by the API's own sign-in schema before any request: an empty field reads 'Please fill in
  // all fields' under it. What the auth provider answers shows above the form.
  const { control, handleSubmit, reset } = useSchemaForm(loginBody, { mode: 'onSubmit', defaultValues: { username: '', password: '' } });

  const signIn = (values: LoginBody) => {
    setError(null);
    login(values, {
      onSuccess: (result) => {
        setError(result.success ? null : (result.error?.message ?? AUTH.invalidCredentials));
        if (result.success && result.twoFactor) setChallenge(result.twoFactor as Challenge);
      },
    });
  };

  if (challenge) {
    return (
      <SignInFrame>
        <Typography.Title level={2} style={{ textAlign: 'center' }}>
          {TWO_FACTOR.title}
        </Typography.Title>
        <CodeStep
          challenge={challenge}
          onBack={(message) => {
            setChallenge(null);
            setError(message ?? null);
          }}
        />
      </SignInFrame>
    );
  }

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
