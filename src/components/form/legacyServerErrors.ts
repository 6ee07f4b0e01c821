/** A 422's per-field messages on a form built without Refine's useForm (custom calls). */
import type { HttpError } from '@refinedev/core';
import type { FormInstance } from 'antd';

const firstMessages = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : value && typeof value === 'object' && 'message' in value ? [String((value as { message: unknown }).message)] : [];

/**
 * Puts each error under its field (`fields`: the form's field names; `alias` maps an API field onto
 * one of them). Returns the messages that belong to no field of the form.
 */
export function applyServerErrors(form: FormInstance, error: unknown, fields: string[], alias: Record<string, string> = {}): string[] {
  const errors = (error as HttpError | undefined)?.errors;
  if (!errors) return [];
  const rest: string[] = [];
  const byField = new Map<string, string[]>();
  for (const [key, value] of Object.entries(errors)) {
    const messages = firstMessages(value);
    const target = alias[key] ?? key;
    if (fields.includes(target)) byField.set(target, [...(byField.get(target) ?? []), ...messages]);
    else rest.push(...messages);
  }
  form.setFields([...byField].map(([name, messages]) => ({ name, errors: messages })));
  return rest;
}

/** The first per-field message of an HttpError, else its message. */
export function firstErrorMessage(error: unknown): string | undefined {
  const e = error as HttpError | undefined;
  for (const value of Object.values(e?.errors ?? {})) {
    const [first] = firstMessages(value);
    if (first) return first;
  }
  return e?.message;
}
