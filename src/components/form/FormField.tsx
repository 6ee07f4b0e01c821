/**
 * One form field: an antd Form.Item (label, help, error look) around a controlled antd input bound to
 * react-hook-form. The rule and its message come from the form's zod schema; this only shows them.
 */
import { Form } from 'antd';
import { type ReactElement, cloneElement, createContext, useContext } from 'react';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';

/** The form's name scopes field ids ('servers-create_name'), so two open forms never share an id. */
export const FormNameContext = createContext<string | undefined>(undefined);

export const fieldId = (formName: string | undefined, name: string) => (formName ? `${formName}_${name}` : name).replace(/\./g, '_');

export interface FormFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label?: React.ReactNode;
  help?: React.ReactNode;
  /** Marks the label; the rule itself lives in the schema. */
  required?: boolean;
  /** 'checked' for switches and checkboxes. */
  valuePropName?: 'value' | 'checked';
  /** Form values in, input values out (e.g. ISO text to a dayjs for a DatePicker) and back. */
  toInput?: (value: unknown) => unknown;
  fromInput?: (value: unknown) => unknown;
  extra?: React.ReactNode;
  className?: string;
  style?: React.CSSProperties;
  noStyle?: boolean;
  children: ReactElement;
}

export function FormField<T extends FieldValues>({
  control,
  name,
  label,
  help,
  required,
  valuePropName = 'value',
  toInput,
  fromInput,
  extra,
  className,
  style,
  noStyle,
  children,
}: FormFieldProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const id = fieldId(useContext(FormNameContext), name);
  const value = toInput ? toInput(field.value) : field.value;
  const onChange = (...args: unknown[]) => {
    const first = args[0] as { target?: { value?: unknown; checked?: unknown } } | undefined;
    const raw =
      first && typeof first === 'object' && 'target' in first && first.target ? (valuePropName === 'checked' ? first.target.checked : first.target.value) : first;
    field.onChange(fromInput ? fromInput(raw) : raw);
  };
  const input = cloneElement(children as ReactElement<Record<string, unknown>>, {
    id,
    [valuePropName]: valuePropName === 'value' ? (value ?? undefined) : Boolean(value),
    onChange,
    onBlur: field.onBlur,
    ref: field.ref,
    'aria-invalid': fieldState.invalid || undefined,
  });
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      required={required}
      validateStatus={fieldState.error ? 'error' : undefined}
      help={fieldState.error?.message ?? help}
      extra={extra}
      className={className}
      style={style}
      noStyle={noStyle}
    >
      {input}
    </Form.Item>
  );
}
