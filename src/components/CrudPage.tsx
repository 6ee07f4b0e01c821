/**
 * A whole list screen from a declaration: the shared data table, an Add button, create/edit in a
 * modal form whose fields follow from the body schema, a record's fields from the entity schema,
 * delete with confirmation, bulk delete, and the resource's failure messages. A plain resource is
 * this with its schemas, its singular and its columns.
 */
import { DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { type BaseRecord, type HttpError, useCan, useDelete, useInvalidate } from '@refinedev/core';
import { Button, Drawer } from 'antd';
import { type ReactNode, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { CRUD_PAGE, DATA_TABLE, GENERAL, RESOURCE_LABELS, fieldInfo, humanise } from '../contract';
import { type DataColumn, DataTable, type RowAction, type SelectFilter } from './DataTable';
import { titled, useConfirm, useNotify } from './feedback';
import { type FieldDef, type FieldOverrides, FieldList, ModalForm, fieldsOf, initialValues, useSchemaModalForm } from './form';
import { RecordShow, renderValue } from './RecordShow';

export interface CrudMessages {
  /** 'Failed to create <singular>' unless given; likewise update and delete. */
  createFailed?: string;
  updateFailed?: string;
  deleteFailed?: string;
  bulkDeleteFailed?: string;
  loadFailed?: string;
  created?: string;
  updated?: string;
  deleted?: string;
}

export interface CrudDeclaration<T extends BaseRecord> {
  /** Resource name: the contract's PERMISSIONS key and the API path. */
  resource: string;
  /** The resource's label (RESOURCE_LABELS) unless given. */
  title?: ReactNode;
  /** One record in words, for dialogs: 'category', 'server'. */
  singular: string;
  /** How a record is named in dialogs. */
  describe?: (record: T) => string;
  /** A column, or the name of an entity field: titled with its label and shown by its kind. */
  columns: Array<DataColumn<T> | (keyof T & string)>;
  /** The contract's body schema: the form checks with the rules and messages the API answers 422 with. */
  schema: z.ZodType<any, any>;
  /** The form's fields; derived from `schema` (fieldsOf) unless given. */
  fields?: FieldDef[];
  /** What the derived fields need that the schema cannot say, per field (false leaves one out). */
  fieldOverrides?: FieldOverrides;
  /** The contract's entity schema: with it, a View row action shows the record's fields (RecordShow). */
  entity?: z.ZodObject;
  selectFilters?: SelectFilter[];
  searchPlaceholder?: string;
  messages?: CrudMessages;
  /** Turns form values into the request body. */
  toPayload?: (values: Record<string, unknown>, mode: 'create' | 'edit') => Record<string, unknown>;
  bulkDelete?: boolean;
  extraRowActions?: (record: T) => Array<RowAction<T>>;
  extraButtons?: ReactNode;
  /** Content above the table (breadcrumbs, cards). */
  header?: ReactNode;
  modalWidth?: number;
  /** Show a failed list load as a toast too, not only in the banner. */
  notifyLoadError?: boolean;
  /** Extra form content after the declared fields, inside the form (previews, nested fields, watchers). */
  formExtra?: (mode: 'create' | 'edit', form: UseFormReturn<any>) => ReactNode;
  /** After a successful create, update or delete (e.g. to reload what depends on the records). */
  onSaved?: () => void;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A field name as a column: titled with its label (entity schema, else body schema), shown by its kind. */
function columnOf<T>(name: string, entity: z.ZodObject | undefined, body: z.ZodType): DataColumn<T> {
  const inEntity = entity?.shape[name] ? fieldInfo(entity.shape[name]) : undefined;
  const inBody = (body as z.ZodObject).shape?.[name] ? fieldInfo((body as z.ZodObject).shape[name]) : undefined;
  const info = inEntity ?? inBody ?? { kind: 'other' as const, required: false, nullable: false };
  return { dataIndex: name, title: inEntity?.label ?? inBody?.label ?? humanise(name), render: (value: unknown) => renderValue(name, info, value) };
}

export function CrudPage<T extends BaseRecord>(decl: CrudDeclaration<T>) {
  const fields = decl.fields ?? fieldsOf(decl.schema as z.ZodObject, decl.fieldOverrides);
  const messages = {
    createFailed: CRUD_PAGE.createFailed(decl.singular),
    updateFailed: CRUD_PAGE.updateFailed(decl.singular),
    deleteFailed: CRUD_PAGE.deleteFailed(decl.singular),
    ...decl.messages,
  };
  const columns = decl.columns.map((c) => (typeof c === 'string' ? columnOf<T>(c, decl.entity, decl.schema) : c));
  const [shown, setShown] = useState<string | number | null>(null);
  const { data: canShow } = useCan({ resource: decl.resource, action: 'show' });
  const notify = useNotify();
  const invalidate = useInvalidate();
  const { confirmDelete } = useConfirm();
  const { data: canCreate } = useCan({ resource: decl.resource, action: 'create' });
  const { data: canEdit } = useCan({ resource: decl.resource, action: 'edit' });
  const { data: canDelete } = useCan({ resource: decl.resource, action: 'delete' });
  const { mutateAsync: deleteOne } = useDelete();
  const describe = decl.describe ?? ((r: T) => `${decl.singular} "${(r as { name?: string }).name ?? r.id}"`);
  const failure = (fallback: string) => (error?: HttpError) => ({
    type: 'error' as const,
    ...titled(GENERAL.error, error?.errors ? fallback : (error?.message ?? fallback)),
  });

  const formFor = (action: 'create' | 'edit') =>
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useSchemaModalForm(decl.schema, {
      defaultValues: action === 'create' ? initialValues(fields) : undefined,
      refineCoreProps: {
        resource: decl.resource,
        action,
        redirect: false,
        successNotification: () => ({
          type: 'success',
          message: (action === 'create' ? messages.created : messages.updated) ?? `${capitalise(decl.singular)} ${action === 'create' ? 'created' : 'updated'} successfully.`,
        }),
        errorNotification: failure(action === 'create' ? messages.createFailed : messages.updateFailed),
        onMutationSuccess: () => decl.onSaved?.(),
      },
    });
  const createForm = formFor('create');
  const editForm = formFor('edit');

  const remove = (ids: Array<string | number>, clear?: () => void) => {
    const many = ids.length > 1;
    return Promise.all(ids.map((id) => deleteOne({ resource: decl.resource, id, successNotification: false, errorNotification: false })))
      .then(() => {
        notify.success(messages.deleted ?? `${many ? `${ids.length} ${decl.singular}(s)` : capitalise(decl.singular)} deleted successfully.`);
        clear?.();
        decl.onSaved?.();
      })
      .catch((error) => notify.httpError(error, many ? (messages.bulkDeleteFailed ?? messages.deleteFailed) : messages.deleteFailed))
      .finally(() => invalidate({ resource: decl.resource, invalidates: ['list'] }));
  };

  const rowActions = (record: T): Array<RowAction<T>> => [
    ...(decl.extraRowActions?.(record) ?? []),
    ...(decl.entity ? [{ key: 'show', label: CRUD_PAGE.view, icon: <EyeOutlined />, hidden: !canShow?.can, onClick: (r: T) => setShown(r.id!) }] : []),
    { key: 'edit', label: 'Edit', icon: <EditOutlined />, hidden: !canEdit?.can, onClick: (r) => editForm.modal.show(r.id) },
    { key: 'delete', label: 'Delete', icon: <DeleteOutlined />, danger: true, hidden: !canDelete?.can, onClick: (r) => confirmDelete(describe(r), () => remove([r.id!])) },
  ];

  const addButton = canCreate?.can && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => createForm.modal.show()}>
      Add {capitalise(decl.singular)}
    </Button>
  );

  const modal = (form: typeof createForm, mode: 'create' | 'edit') => (
    <ModalForm
      form={form}
      name={`${decl.resource}-${mode}`}
      title={`${mode === 'create' ? 'Create' : 'Edit'} ${decl.singular}`}
      width={decl.modalWidth}
      toPayload={decl.toPayload ? (values) => decl.toPayload!(values, mode) : undefined}
    >
      <FieldList fields={fields} mode={mode} control={form.control} />
      {decl.formExtra?.(mode, form)}
    </ModalForm>
  );

  return (
    <>
      {decl.header}
      <DataTable<T>
        resource={decl.resource}
        title={decl.title ?? (RESOURCE_LABELS as Record<string, string>)[decl.resource] ?? humanise(decl.resource)}
        columns={columns}
        selectFilters={decl.selectFilters}
        searchPlaceholder={decl.searchPlaceholder}
        loadErrorMessage={messages.loadFailed}
        notifyLoadError={decl.notifyLoadError}
        extra={
          <>
            {decl.extraButtons}
            {addButton}
          </>
        }
        empty={addButton ? { hint: DATA_TABLE.addFirst(decl.singular), action: addButton } : undefined}
        rowActions={rowActions}
        bulkActions={decl.bulkDelete && canDelete?.can ? [{ key: 'delete', label: 'Delete selected', danger: true, onClick: (ids, _rows, clear) => confirmDelete(`${ids.length} ${decl.singular}(s)`, () => remove(ids, clear)) }] : undefined}
      />
      {modal(createForm, 'create')}
      {modal(editForm, 'edit')}
      {decl.entity && (
        <Drawer open={shown !== null} onClose={() => setShown(null)} title={CRUD_PAGE.details(capitalise(decl.singular))} width={480} destroyOnHidden>
          {shown !== null && <RecordShow resource={decl.resource} id={shown} entity={decl.entity} />}
        </Drawer>
      )}
    </>
  );
}
