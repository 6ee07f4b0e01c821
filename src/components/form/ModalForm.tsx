/** A Refine modal form (useSchemaModalForm) in an antd Modal: OK submits, Cancel closes, busy while saving. */
import { Modal } from 'antd';
import type { ReactNode } from 'react';
import { SchemaForm } from './SchemaForm';
import type { useSchemaModalForm } from './useSchemaForm';

type ModalFormState = ReturnType<typeof useSchemaModalForm<any, any>>;

export interface ModalFormProps {
  form: ModalFormState;
  /** Form name: scopes field ids. */
  name: string;
  title: ReactNode;
  okText?: ReactNode;
  width?: number;
  /** Turns the validated values into the request body. */
  toPayload?: (values: Record<string, unknown>) => Record<string, unknown>;
  children: ReactNode;
}

export function ModalForm({ form, name, title, okText = 'Save', width = 560, toPayload, children }: ModalFormProps) {
  const { modal, handleSubmit, refineCore } = form;
  const submit = (values: Record<string, unknown>) => modal.submit((toPayload ? toPayload(values) : values) as never);
  return (
    <Modal
      open={modal.visible}
      title={title}
      width={width}
      okText={okText}
      onCancel={modal.close}
      onOk={() => handleSubmit(submit)().catch(() => undefined)}
      confirmLoading={refineCore.mutation.isPending}
    >
      <SchemaForm name={name} handleSubmit={handleSubmit} onSubmit={submit} disabled={refineCore.formLoading && !refineCore.mutation.isPending}>
        {children}
        {/* Enter in a field submits. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </SchemaForm>
    </Modal>
  );
}
