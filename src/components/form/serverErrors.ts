/**
 * A 422's per-field messages (Refine's HttpError.errors) under the fields of a react-hook-form form.
 * Forms that save through Refine's useForm get this from Refine itself; this serves the few calls
 * that are not a form's own mutation (a lookup, a sign-in).
 */
import type { HttpError } from '@refinedev/core';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

const messagesOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? [value]
      : value && typeof value === 'object' && 'message' in value
        ? [String((value as { message: unknown }).message)]
        : [];

export interface FieldErrorItem {
  field: string;
  message: string;
}

/**
 * Sets the first message of each error under its field (`aliases` maps an API field onto a form field)
 * when the form has it, and returns every field's first message (for a summary or a toast).
 */
export function setServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: readonly string[],
  aliases: Record<string, string> = {},
): FieldErrorItem[] {
  const items: FieldErrorItem[] = [];
  for (const [field, value] of Object.entries((error as HttpError | undefined)?.errors ?? {})) {
    const [message] = messagesOf(value);
    if (!message) continue;
    items.push({ field, message });
    const name = aliases[field] ?? field;
    if (fields.includes(name)) setError(name as Path<T>, { type: 'server', message });
  }
  return items;
}

/** The first per-field message of an HttpError, else its message. */
export function firstErrorMessage(error: unknown): string | undefined {
  const e = error as HttpError | undefined;
  for (const value of Object.values(e?.errors ?? {})) {
    const [first] = messagesOf(value);
    if (first) return first;
  }
  return e?.message;
}
