/**
 * The fields every manager, reseller and dealer form shares: name, username, password and status,
 * with the level's own messages (spec 5).
 */
import { Form, Input, Select } from 'antd';
import { ENTITY_FORM, HIERARCHY, PASSWORD_MIN_LENGTH, PROFILE, type UserStatus } from '../../contract';

export interface UserFieldsProps {
  mode: 'create' | 'edit';
  /** 'Manager name is required' for managers, 'Name is required' for the others. */
  nameRequired: string;
  /** 'Password is required for new managers' / '... resellers' / '... accounts'. */
  passwordRequired: string;
  /** The username cannot be changed (manager edit page). */
  lockUsername?: boolean;
  statuses: readonly UserStatus[];
  /** Extra content after the password (the Auto-generate button). */
  passwordExtra?: React.ReactNode;
}

const STATUS_LABELS: Record<UserStatus, string> = { active: 'Active', inactive: 'Inactive', suspended: 'Suspended' };

export const USER_FORM_FIELDS = ['name', 'username', 'password', 'status'] as const;

export function UserFields({ mode, nameRequired, passwordRequired, lockUsername = false, statuses, passwordExtra }: UserFieldsProps) {
  const locked = lockUsername && mode === 'edit';
  return (
    <>
      <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: nameRequired }]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="username"
        label="Username"
        extra={locked ? PROFILE.usernameLocked : undefined}
        rules={[
          { required: true, whitespace: true, message: ENTITY_FORM.usernameRequired },
          { pattern: /^[A-Za-z0-9._@-]+$/, message: HIERARCHY.usernameFormat },
        ]}
      >
        <Input autoComplete="off" disabled={locked} />
      </Form.Item>
      <Form.Item
        name="password"
        label="Password"
        extra={mode === 'create' ? passwordExtra : undefined}
        rules={[
          ...(mode === 'create' ? [{ required: true, message: passwordRequired }] : []),
          { min: PASSWORD_MIN_LENGTH, message: HIERARCHY.passwordTooShort },
        ]}
      >
        <Input.Password autoComplete="new-password" placeholder={mode === 'edit' ? ENTITY_FORM.keepPassword : undefined} />
      </Form.Item>
      <Form.Item name="status" label="Status">
        <Select options={statuses.map((s) => ({ value: s, label: STATUS_LABELS[s] }))} />
      </Form.Item>
    </>
  );
}

/** The status and is_active the API takes from the form's status. */
export const statusPayload = (status: UserStatus | undefined) => (status ? { status, is_active: status === 'active' } : {});
