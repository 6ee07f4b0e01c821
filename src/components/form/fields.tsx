/**
 * Form fields declared once per resource and rendered the same way everywhere: a declaration says
 * the name, label, kind, bounds and the spec's message for a missing value.
 */
import { useSelect } from '@refinedev/antd';
import { DatePicker, Form, Input, InputNumber, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';

export type FormMode = 'create' | 'edit';

export interface FieldDef {
  name: string;
  label: string;
  type: 'text' | 'password' | 'textarea' | 'number' | 'switch' | 'select' | 'date' | 'resource-select';
  /** Message shown when the field is empty; `{ create }` makes it required only when creating. */
  required?: string | { create: string };
  rules?: Rule[];
  options?: Array<{ label: string; value: string | number | boolean }>;
  /** For resource-select: where the options come from. */
  optionsFrom?: { resource: string; label?: string; value?: string; meta?: Record<string, unknown> };
  min?: number;
  max?: number;
  step?: number;
  initial?: unknown;
  placeholder?: string;
  help?: ReactNode;
  /** Hidden when creating or when editing. */
  only?: FormMode;
  disabledOn?: FormMode;
}

function requiredRule(field: FieldDef, mode: FormMode): Rule[] {
  if (!field.required) return [];
  // A rule with any key besides `required` is checked as a string by async-validator, so `whitespace`
  // is set only on text fields (else a required number or select fails with a value).
  if (typeof field.required === 'string')
    return [field.type === 'text' ? { required: true, whitespace: true, message: field.required } : { required: true, message: field.required }];
  return mode === 'create' ? [{ required: true, message: field.required.create }] : [];
}

function ResourceSelect({ field, ...props }: { field: FieldDef } & Record<string, unknown>) {
  const { selectProps } = useSelect({
    resource: field.optionsFrom!.resource,
    optionLabel: (field.optionsFrom!.label ?? 'name') as never,
    optionValue: (field.optionsFrom!.value ?? 'id') as never,
    meta: field.optionsFrom!.meta,
    pagination: { pageSize: 50, mode: 'server' },
    onSearch: (value) => [{ field: 'search', operator: 'contains', value }],
  });
  return <Select {...selectProps} {...props} allowClear placeholder={field.placeholder} />;
}

function control(field: FieldDef, disabled: boolean) {
  switch (field.type) {
    case 'password':
      return <Input.Password disabled={disabled} placeholder={field.placeholder} autoComplete="new-password" />;
    case 'textarea':
      return <Input.TextArea disabled={disabled} rows={3} placeholder={field.placeholder} />;
    case 'number':
      return <InputNumber disabled={disabled} min={field.min} max={field.max} step={field.step} style={{ width: '100%' }} />;
    case 'switch':
      return <Switch disabled={disabled} />;
    case 'select':
      return <Select disabled={disabled} options={field.options as never} placeholder={field.placeholder} />;
    case 'resource-select':
      return <ResourceSelect field={field} disabled={disabled} />;
    case 'date':
      return <DatePicker disabled={disabled} style={{ width: '100%' }} />;
    default:
      return <Input disabled={disabled} placeholder={field.placeholder} />;
  }
}

export function FieldList({ fields, mode }: { fields: FieldDef[]; mode: FormMode }) {
  return (
    <>
      {fields
        .filter((f) => !f.only || f.only === mode)
        .map((field) => (
          <Form.Item
            key={field.name}
            name={field.name}
            label={field.label}
            help={field.help}
            valuePropName={field.type === 'switch' ? 'checked' : 'value'}
            rules={[...requiredRule(field, mode), ...(field.rules ?? [])]}
            getValueProps={field.type === 'date' ? (v: unknown) => ({ value: v ? dayjs(v as string) : undefined }) : undefined}
            normalize={field.type === 'date' ? (v: dayjs.Dayjs | null) => (v ? v.toISOString() : null) : undefined}
          >
            {control(field, field.disabledOn === mode)}
          </Form.Item>
        ))}
    </>
  );
}

/** The initial values of a create form. */
export const initialValues = (fields: FieldDef[]) =>
  Object.fromEntries(fields.filter((f) => f.initial !== undefined).map((f) => [f.name, f.initial]));
