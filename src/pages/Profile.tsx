/** /profile: personal information, change password, two-factor sign-in, appearance, account information, sessions and sign-in history. */
import { type HttpError, useCustomMutation, useLogout } from '@refinedev/core';
import { Button, Card, Col, Descriptions, Form, Input, Radio, Row, Typography } from 'antd';
import { Link } from 'react-router';
import {
  COLOR_SCHEMES,
  type ChangePasswordBody,
  type ColorScheme,
  type CurrentUser,
  PREFERENCES,
  PROFILE,
  STATEMENT,
  changePasswordBody,
  updateProfileBody,
} from '../contract';
import { RoleBadge } from '../components/display';
import { useNotify } from '../components/feedback';
import { FormField, SchemaForm, setServerErrors, useSchemaForm } from '../components/form';
import { useColorSchemeSetting } from '../components/hooks';
import { NotificationSettingsCard } from '../features/notifications';
import { SessionsCard, SignInHistoryCard } from '../features/sessions';
import { TwoFactorCard } from '../features/twoFactor';
import { ApiTokensCard } from '../features/apiTokens';
import { useCurrentUser, useRefreshIdentity } from '../providers/identity';
import { session } from '../providers/session';

/** The form edits the name and the phone; the username is shown locked and sent as it is. */
const personalForm = updateProfileBody.pick({ name: true, phone: true });

/** PUT /update-profile: a path without a record id, so a custom mutation (a 422 goes under the fields by hand). */
function PersonalInformation({ user }: { user: CurrentUser }) {
  const notify = useNotify();
  const refreshIdentity = useRefreshIdentity();
  const { control, handleSubmit, setError } = useSchemaForm(personalForm, { defaultValues: { name: user.name, phone: user.phone ?? '' } });
  const { mutateAsync, mutation } = useCustomMutation<{ data: CurrentUser }, HttpError>();

  const save = async (values: { name: string; phone: string | null }) => {
    if (!session.token()) return notify.error(PROFILE.updateFailed.title, PROFILE.loginToUpdate);
    try {
      await mutateAsync({
        url: 'update-profile',
        method: 'put',
        values: { name: values.name, username: user.username, phone: values.phone },
        successNotification: false,
        errorNotification: false,
      });
      notify.success(PROFILE.updated);
      await refreshIdentity();
    } catch (error) {
      setServerErrors(setError, error, ['name', 'phone']);
      notify.httpError(error, PROFILE.updateFailed.description, PROFILE.updateFailed.title);
    }
  };

  return (
    <Card title="Personal Information">
      <SchemaForm name="profile" handleSubmit={handleSubmit} onSubmit={save}>
        <FormField control={control} name="name" label="Full Name" required>
          <Input />
        </FormField>
        <Form.Item label="Username" htmlFor="profile_username" extra={PROFILE.usernameLocked}>
          <Input id="profile_username" value={user.username} disabled />
        </Form.Item>
        <FormField control={control} name="phone" label="Phone">
          <Input />
        </FormField>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          Save Changes
        </Button>
      </SchemaForm>
    </Card>
  );
}

/** POST /change-password: the form's own Refine mutation, which puts a 422 under the fields. */
function ChangePassword() {
  const notify = useNotify();
  const {
    control,
    handleSubmit,
    reset,
    refineCore: { onFinish, mutation },
  } = useSchemaForm(changePasswordBody, {
    defaultValues: { current_password: '', new_password: '', new_password_confirmation: '' },
    refineCoreProps: {
      resource: 'profile',
      action: 'create',
      meta: { path: 'change-password' },
      redirect: false,
      invalidates: [],
      successNotification: false,
      errorNotification: false,
      onMutationSuccess: () => {
        notify.success(PROFILE.passwordChanged);
        reset();
      },
      onMutationError: () => notify.error(PROFILE.passwordFailed.title, PROFILE.passwordFailed.description),
    },
  });

  const change = (values: ChangePasswordBody) => {
    if (!session.token()) return notify.error(PROFILE.passwordFailed.title, PROFILE.loginToChangePassword);
    // A refused change is already shown (toast, field errors).
    return onFinish(values).catch(() => undefined);
  };

  return (
    <Card title="Change Password">
      <SchemaForm name="change-password" handleSubmit={handleSubmit} onSubmit={change}>
        <FormField control={control} name="current_password" label="Current Password" required>
          <Input.Password autoComplete="current-password" />
        </FormField>
        <FormField control={control} name="new_password" label="New Password" required>
          <Input.Password autoComplete="new-password" />
        </FormField>
        <FormField control={control} name="new_password_confirmation" label="Confirm New Password" required>
          <Input.Password autoComplete="new-password" />
        </FormField>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          Change Password
        </Button>
      </SchemaForm>
    </Card>
  );
}

/** The colour scheme: applied at once, kept on the server for every browser the user signs in from. */
function Appearance() {
  const { choice, choose } = useColorSchemeSetting();
  return (
    <Card title={PREFERENCES.appearance}>
      <Typography.Paragraph id="color-scheme-label" strong>
        {PREFERENCES.colorScheme}
      </Typography.Paragraph>
      {/* antd's group is a plain div: the radiogroup role and its name are the wrapper's. */}
      <div role="radiogroup" aria-labelledby="color-scheme-label" aria-describedby="color-scheme-help">
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          value={choice}
          onChange={(event) => void choose(event.target.value as ColorScheme)}
          options={COLOR_SCHEMES.map((value) => ({ value, label: PREFERENCES.colorSchemes[value] }))}
        />
      </div>
      <Typography.Paragraph id="color-scheme-help" type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {PREFERENCES.colorSchemeHelp}
      </Typography.Paragraph>
    </Card>
  );
}

export function ProfilePage() {
  const { user } = useCurrentUser();
  const { mutate: logout } = useLogout();
  if (!user) return <Card loading />;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <PersonalInformation user={user} />
      </Col>
      <Col xs={24} lg={12}>
        <ChangePassword />
      </Col>
      <Col xs={24} lg={12}>
        <TwoFactorCard />
      </Col>
      <Col xs={24} lg={12}>
        <Appearance />
      </Col>
      <Col xs={24}>
        <ApiTokensCard />
      </Col>
      <Col xs={24} lg={12}>
        <NotificationSettingsCard />
      </Col>
      <Col xs={24} lg={12}>
        <Card title="Account Information" extra={user.role !== 'admin' && <Link to={`/statements/${user.id}`}>{STATEMENT.mine}</Link>}>
          <Descriptions column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="Username">{user.username}</Descriptions.Item>
            <Descriptions.Item label="Role">
              <RoleBadge role={user.role} />
            </Descriptions.Item>
            {user.credits !== null && <Descriptions.Item label="Credits">{user.credits}</Descriptions.Item>}
          </Descriptions>
        </Card>
      </Col>
      <Col span={24} id="sessions">
        <SessionsCard onEndedCurrent={() => logout()} />
      </Col>
      <Col span={24}>
        <SignInHistoryCard />
      </Col>
    </Row>
  );
}
