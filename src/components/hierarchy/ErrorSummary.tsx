import { Alert } from 'antd';
import { ENTITY_FORM } from '../../contract';
import type { FieldErrorItem } from './serverErrors';

/** The 'Please fix the following errors:' box (spec 5) listing the server's field errors. */
export function ErrorSummary({ items }: { items: FieldErrorItem[] }) {
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
