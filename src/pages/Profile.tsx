/** /profile (spec 2): personal information, change password, account information. */
import { type HttpError, useInvalidateAuthStore } from '@refinedev/core';
import { Button, Card, Col, Descriptions, Form, Input, Row } from 'antd';
import { useState } from 'react';
import { PASSWORD_MIN_LENGTH, PROFILE } from '../contract';
import { RoleBadge } from '../components/display';
import { useNotify } from '../components/feedback';
import { useCurrentUser } from '../providers/identity';
import { http } from '../providers/http';
import { session } from '../providers/session';

/** Puts a 422's field messages under the form's fields; true when there were any. */
function showFieldErrors(form: ReturnType<typeof Form.useForm>[0], error: HttpError): boolean {
  if (error.statusCode !== 422 || !error.errors) return false;
  form.setFields(
    Object.entries(error.errors).map(([name, messages]) => ({ name, errors: Array.isArray(messages) ? messages.map(String) : [String(messages)] })),
  );
  return true;
}

export function ProfilePage() {
  const { user } = useCurrentUser();
  const notify = useNotify();
  const invalidateAuth = useInvalidateAuthStore();
  const [profileForm] = Form.useForm();
  const [passwordForm] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [changing, setChanging] = useState(false);

  const saveProfile = async (values: { name: string; phone?: string }) => {
    if (!session.token()) return notify.error(PROFILE.updateFailed.title, PROFILE.loginToUpdate);
    setSaving(true);
    try {
      await http.put('update-profile', { name: values.name, username: user?.username, phone: values.phone ?? null });
      notify.success(PROFILE.updated);
      await invalidateAuth();
    } catch (error) {
      showFieldErrors(profileForm, error as HttpError);
      notify.httpError(error, PROFILE.updateFailed.description, PROFILE.updateFailed.title);
    } finally {
      setSaving(false);
    }
  };

  const changePassword = async (values: Record<string, string>) => {
    if (!session.token()) return notify.error(PROFILE.passwordFailed.title, PROFILE.loginToChangePassword);
    setChanging(true);
    try {
      await http.post('change-password', values);
      notify.success(PROFILE.passwordChanged);
      passwordForm.resetFields();
    } catch (error) {
      showFieldErrors(passwordForm, error as HttpError);
      notify.error(PROFILE.passwordFailed.title, PROFILE.passwordFailed.description);
    } finally {
      setChanging(false);
    }
  };

  if (!user) return <Card loading />;

  const required = { required: true, message: PROFILE.allPasswordFields };
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card title="Personal Information">
          <Form form={profileForm} layout="vertical" initialValues={{ name: user.name, phone: user.phone }} onFinish={saveProfile}>
            <Form.Item label="Full Name" name="name" rules={[{ required: true, whitespace: true, message: PROFILE.nameRequired }]}>
              <Input />
            </Form.Item>
            <Form.Item label="Username" extra={PROFILE.usernameLocked}>
              <Input value={user.username} disabled />
            </Form.Item>
            <Form.Item label="Phone" name="phone">
              <Input />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={saving}>
              Save Changes
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title="Change Password">
          <Form form={passwordForm} layout="vertical" onFinish={changePassword}>
            <Form.Item label="Current Password" name="current_password" rules={[required]}>
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Form.Item
              label="New Password"
              name="new_password"
              rules={[required, { min: PASSWORD_MIN_LENGTH, message: PROFILE.passwordTooShort }]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              label="Confirm New Password"
              name="new_password_confirmation"
              dependencies={['new_password']}
              rules={[
                required,
                ({ getFieldValue }) => ({
                  validator: (_, value) =>
                    !value || value === getFieldValue('new_password') ? Promise.resolve() : Promise.reject(new Error(PROFILE.passwordsMismatch)),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={changing}>
              Change Password
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24}>
        <Card title="Account Information">
          <Descriptions column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="Username">{user.username}</Descriptions.Item>
            <Descriptions.Item label="Role">
              <RoleBadge role={user.role} />
            </Descriptions.Item>
            {user.credits !== null && <Descriptions.Item label="Credits">{user.credits}</Descriptions.Item>}
          </Descriptions>
        </Card>
      </Col>
    </Row>
  );
}
