/** Server 422 field errors onto a form: the first message under each field, all of them for a summary. */
import type { HttpError } from '@refinedev/core';
import type { FormInstance } from 'antd';
import { firstFieldMessage } from '../credits/creditErrors';

export interface FieldErrorItem {
  field: string;
  message: string;
}

/**
 * Sets the first message of each field the form has under that field and returns every field's
 * first message (for the 'Please fix the following errors:' box). Empty when the error has none.
 */
export function applyServerErrors(
  form: FormInstance,
  error: unknown,
  formFields: readonly string[],
  fieldAliases: Record<string, string> = {},
): FieldErrorItem[] {
  const errors = (error as HttpError | undefined)?.errors;
  if (!errors) return [];
  const items: FieldErrorItem[] = [];
  const known = new Set(formFields);
  const fields: Array<{ name: string; errors: string[] }> = [];
  for (const field of Object.keys(errors)) {
    const message = firstFieldMessage(errors, field);
    if (!message) continue;
    items.push({ field, message });
    const name = fieldAliases[field] ?? field;
    if (known.has(name)) fields.push({ name, errors: [message] });
  }
  form.setFields(fields as never);
  return items;
}
