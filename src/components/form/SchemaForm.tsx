/**
 * The antd look of a react-hook-form form: vertical labels, submit on Enter, and the form's name for
 * field ids. Values and validation stay with react-hook-form (no antd form store).
 */
import { Form } from 'antd';
import type { FormLayout } from 'antd/es/form/Form';
import type { ReactNode } from 'react';
import type { FieldValues, UseFormHandleSubmit } from 'react-hook-form';
import { FormNameContext } from './FormField';

export interface SchemaFormProps<T extends FieldValues> {
  name: string;
  handleSubmit: UseFormHandleSubmit<T, any>;
  onSubmit: (values: any) => unknown;
  layout?: FormLayout;
  disabled?: boolean;
  children: ReactNode;
  className?: string;
  style?: React.CSSProperties;
}

export function SchemaForm<T extends FieldValues>({ name, handleSubmit, onSubmit, layout = 'vertical', disabled, children, className, style }: SchemaFormProps<T>) {
  return (
    <FormNameContext.Provider value={name}>
      <Form
        name={name}
        layout={layout}
        disabled={disabled}
        className={className}
        style={style}
        // antd has no fields of its own here: its onFinish is only the submit event. A refused save is
        // already shown (toast, field errors), so its rejection needs no other handler.
        onFinish={() => handleSubmit(onSubmit)().catch(() => undefined)}
      >
        {children}
      </Form>
    </FormNameContext.Provider>
  );
}
