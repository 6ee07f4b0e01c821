/** Sign-in (spec 2, Login screen). */
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useLogin } from '@refinedev/core';
import { Alert, Button, Card, Form, Input, Layout, Tag, Typography } from 'antd';
import { useState } from 'react';
import { AUTH } from '../contract';
import { useAppConfig } from '../providers/appConfig';

export function LoginPage() {
  const { mutate: login, isPending } = useLogin<{ username: string; password: string }>();
  const { config } = useAppConfig();
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm();

  const onFinish = (values: { username?: string; password?: string }) => {
    setError(null);
    login(
      { username: values.username ?? '', password: values.password ?? '' },
      { onSuccess: (result) => setError(result.success ? null : (result.error?.message ?? AUTH.invalidCredentials)) },
    );
  };

  return (
    <Layout style={{ minHeight: '100vh', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
      <Card style={{ width: '100%', maxWidth: 400 }}>
        <Typography.Title level={2} style={{ textAlign: 'center' }}>
          {AUTH.welcome}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          Sign in to your account
        </Typography.Paragraph>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
        <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item label="Username" name="username">
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item label="Password" name="password">
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={isPending}>
            {isPending ? AUTH.signingIn : 'Sign In'}
          </Button>
        </Form>
        {config.demo_mode && (
          <Alert
            style={{ marginTop: 24 }}
            type="info"
            message="Demo accounts"
            description={
              <>
                {config.demo_users.map((u) => (
                  <Tag key={u} style={{ cursor: 'pointer' }} onClick={() => form.setFieldsValue({ username: u, password: 'demo' })}>
                    {u}
                  </Tag>
                ))}
                <div style={{ marginTop: 8 }}>Any password works.</div>
              </>
            }
          />
        )}
      </Card>
    </Layout>
  );
}
