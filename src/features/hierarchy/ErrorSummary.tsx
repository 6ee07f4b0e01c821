import type { HttpError } from '@refinedev/core';
import { Alert } from 'antd';
import { ENTITY_FORM } from '../../contract';
import { fieldMessages } from './userForm';

/**
 * The 'Please fix the following errors:' box (docs/domain.md#forms-and-dialogs): the first message of each field of a refused
 * save (the form's mutation error), whether or not the form shows that field.
 */
export function ErrorSummary({ error }: { error?: HttpError | null }) {
  const items = fieldMessages(error);
  if (items.length === 0) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      message={ENTITY_FORM.fixErrors}
      description={
        <ul style={{ margin: 0, paddingLeft: 18 }} data-testid="error-summary">
          {items.map((item) => (
            <li key={item.field}>{item.message}</li>
          ))}
        </ul>
      }
    />
  );
}
