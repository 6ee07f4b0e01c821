/**
 * The fields every manager, reseller and dealer form shares: name, username, password and status.
 * Their rules and messages are the form's schema (the contract's body of that level).
 */
import { Input, Select } from 'antd';
import type { Control } from 'react-hook-form';
import { ENTITY_FORM, PROFILE, type UserStatus } from '../../contract';
import { FormField } from '../../components/form';
import type { UserFormValues } from './userForm';

export interface UserFieldsProps {
  control: Control<UserFormValues>;
  mode: 'create' | 'edit';
  /** The username cannot be changed (manager edit page). */
  lockUsername?: boolean;
  statuses: readonly UserStatus[];
  /** Extra content after the password (the Auto-generate button). */
  passwordExtra?: React.ReactNode;
}

const STATUS_LABELS: Record<UserStatus, string> = { active: 'Active', inactive: 'Inactive', suspended: 'Suspended' };

export function UserFields({ control, mode, lockUsername = false, statuses, passwordExtra }: UserFieldsProps) {
  const locked = lockUsername && mode === 'edit';
  return (
    <>
      <FormField control={control} name="name" label="Name" required>
        <Input autoComplete="off" />
      </FormField>
      <FormField control={control} name="username" label="Username" required extra={locked ? PROFILE.usernameLocked : undefined}>
        <Input autoComplete="off" disabled={locked} />
      </FormField>
      <FormField control={control} name="password" label="Password" required={mode === 'create'} extra={mode === 'create' ? passwordExtra : undefined}>
        <Input.Password autoComplete="new-password" placeholder={mode === 'edit' ? ENTITY_FORM.keepPassword : undefined} />
      </FormField>
      <FormField control={control} name="status" label="Status">
        <Select options={statuses.map((s) => ({ value: s, label: STATUS_LABELS[s] }))} />
      </FormField>
    </>
  );
}
