/**
 * Form fields declared once per resource and rendered the same way everywhere: a declaration says the
 * name, label, kind and bounds of the input; the rules and their messages are the form's zod schema.
 */
import { useSelect } from '@refinedev/antd';
import { DatePicker, Input, InputNumber, Select, Switch } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import type { Control } from 'react-hook-form';
import type { z } from 'zod';
import { type FieldInfo, fieldInfo, fieldsInfo, humanise } from '../../contract';
import { FormField } from './FormField';

export type FormMode = 'create' | 'edit';

export interface FieldDef {
  name: string;
  label: string;
  type: 'text' | 'password' | 'textarea' | 'number' | 'switch' | 'select' | 'date' | 'resource-select';
  /** Marks the label as required (always, or only when creating); the rule is in the schema. */
  required?: boolean | 'create';
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

/** ISO text in the form values, a dayjs in the DatePicker. */
export const dateInput = {
  toInput: (v: unknown) => (v ? dayjs(v as string) : null),
  fromInput: (v: unknown) => (v ? (v as dayjs.Dayjs).toISOString() : null),
};

export function FieldList({ fields, mode, control: formControl }: { fields: FieldDef[]; mode: FormMode; control: Control<any> }) {
  return (
    <>
      {fields
        .filter((f) => !f.only || f.only === mode)
        .map((field) => (
          <FormField
            key={field.name}
            control={formControl}
            name={field.name}
            label={field.label}
            help={field.help}
            required={field.required === true || (field.required === 'create' && mode === 'create')}
            valuePropName={field.type === 'switch' ? 'checked' : 'value'}
            {...(field.type === 'date' ? dateInput : {})}
          >
            {control(field, field.disabledOn === mode)}
          </FormField>
        ))}
    </>
  );
}

const TYPES: Record<FieldInfo['kind'], FieldDef['type'] | null> = {
  text: 'text',
  textarea: 'textarea',
  number: 'number',
  boolean: 'switch',
  enum: 'select',
  other: null,
};

/** A field's declaration as its schema gives it: label, input, required mark, bounds, enum options and default. */
export function fieldOf(name: string, info: FieldInfo): FieldDef | null {
  const type = TYPES[info.kind];
  if (!type) return null;
  return {
    name,
    label: info.label ?? humanise(name),
    type,
    ...(info.required ? { required: true } : {}),
    ...(info.min !== undefined ? { min: info.min } : {}),
    ...(info.max !== undefined ? { max: info.max } : {}),
    ...(info.values ? { options: info.values.map((v) => ({ label: humanise(v), value: v })) } : {}),
    ...(info.initial !== undefined ? { initial: info.initial } : {}),
  };
}

/** One field of an object schema as fieldOf gives it, for a form laid out by hand. */
export const schemaField = (schema: z.ZodObject, name: string): FieldDef => fieldOf(name, fieldInfo(schema.shape[name] as z.ZodType))!;

/** Per field: what the UI needs that the schema cannot say (options read at run time, help), or false to leave it out. */
export type FieldOverrides = Record<string, Partial<FieldDef> | false>;

/**
 * The form fields of a body schema, in its order: each from its schema (see fieldOf) with its override
 * on top. Fields the schema cannot render as one input (objects, lists) need an override with a type.
 */
export function fieldsOf(schema: z.ZodObject, overrides: FieldOverrides = {}): FieldDef[] {
  return fieldsInfo(schema).flatMap(([name, info]) => {
    const override = overrides[name];
    if (override === false) return [];
    const derived = fieldOf(name, info);
    if (!derived && !override?.type) return [];
    return [{ ...(derived ?? { name, label: info.label ?? humanise(name) }), ...override } as FieldDef];
  });
}

/** The initial values of a create form. */
export const initialValues = (fields: FieldDef[]) => Object.fromEntries(fields.filter((f) => f.initial !== undefined).map((f) => [f.name, f.initial]));
