/**
 * A whole list screen from a declaration: the shared data table, an Add button, create/edit in a
 * modal form whose fields follow from the body schema, a record's fields from the entity schema,
 * delete with confirmation, bulk delete, and the resource's failure messages. A plain resource is
 * this with its schemas, its singular and its columns; richer
 * screens add a form body of their own (`formBody`), figures above the list (`header`) and the
 * list's own settings (`table`: filters, page sizes, cards instead of rows).
 */
import { DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { type BaseRecord, type HttpError, type OpenNotificationParams, useCan, useDelete, useInvalidate } from '@refinedev/core';
import { Button, Drawer } from 'antd';
import { type ReactNode, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { CRUD_PAGE, DATA_TABLE, RESOURCE_LABELS, type SortKeyFor, fieldInfo, humanise, plural } from '../contract';
import { type DataColumn, DataTable, type DataTableProps, type RowAction, type SelectFilter } from './DataTable';
import { errorNotification, useConfirm, useNotify } from './feedback';
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

export interface CrudDeclaration<T extends BaseRecord, R extends string> {
  /** Resource name: the contract's PERMISSIONS key and its list's entry in LISTS. */
  resource: R;
  /** The resource's label (RESOURCE_LABELS) unless given. */
  title?: ReactNode;
  /** One record in words, for dialogs: 'category', 'server'. */
  singular: string;
  /** How a record is named in dialogs. */
  describe?: (record: T) => string;
  /** Sortable only by the sort keys of the resource's list. */
  columns: Array<DataColumn<T, SortKeyFor<R>> | (keyof T & string)>;
  /** The contract's body schema: the form checks with the rules and messages the API answers 422 with. */
  schema: z.ZodType<any, any>;
  /** The form's fields; derived from `schema` (fieldsOf) unless given; a page whose dialog is more than a field list gives `formBody` instead. */
  fields?: FieldDef[];
  /** What the derived fields need that the schema cannot say, per field (false leaves one out). */
  fieldOverrides?: FieldOverrides;
  /** The contract's entity schema: with it, a View row action shows the record's fields (RecordShow). */
  entity?: z.ZodObject;
  /** The whole form body in place of the declared fields (rich editors, rows of fields, previews). */
  formBody?: (mode: 'create' | 'edit', form: CrudForm) => ReactNode;
  /** A new record's values (default: the declared fields' defaults). */
  defaultValues?: Record<string, unknown>;
  /** Wording in place of the defaults built from `singular`. */
  labels?: { add?: string; createTitle?: string; editTitle?: string; emptyHint?: ReactNode };
  /** The toast of a refused save, in place of the 'Error' toast with the failure message. */
  saveErrorToast?: (error: HttpError | undefined, mode: 'create' | 'edit') => OpenNotificationParams | false;
  /** More of the list's own settings (filters, page sizes, sorting, a card layout...). */
  table?: Partial<Omit<DataTableProps<T, R>, 'resource' | 'columns' | 'rowActions' | 'bulkActions' | 'header'>>;
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

/** A create or edit form of a CrudPage (what `formBody` and `formExtra` are given). */
export type CrudForm = ReturnType<typeof useSchemaModalForm>;

/** The create or edit modal form of a declaration. */
function useCrudForm<T extends BaseRecord, R extends string>(decl: CrudDeclaration<T, R>, action: 'create' | 'edit', fields: FieldDef[], messages: CrudMessages) {
  return useSchemaModalForm(decl.schema, {
    defaultValues: action === 'create' ? (decl.defaultValues ?? initialValues(fields)) : undefined,
    refineCoreProps: {
      resource: decl.resource,
      action,
      redirect: false,
      successNotification: () => ({
        type: 'success',
        message:
          (action === 'create' ? messages.created : messages.updated) ?? `${capitalise(decl.singular)} ${action === 'create' ? 'created' : 'updated'} successfully.`,
      }),
      errorNotification: decl.saveErrorToast
        ? (error) => decl.saveErrorToast!(error, action)
        : errorNotification((action === 'create' ? messages.createFailed : messages.updateFailed)!, { fields: true }),
      onMutationSuccess: () => decl.onSaved?.(),
    },
  });
}

/** A field name as a column: titled with its label (entity schema, else body schema), shown by its kind. */
function columnOf<T>(name: string, entity: z.ZodObject | undefined, body: z.ZodType): DataColumn<T> {
  const inEntity = entity?.shape[name] ? fieldInfo(entity.shape[name]) : undefined;
  const inBody = (body as z.ZodObject).shape?.[name] ? fieldInfo((body as z.ZodObject).shape[name]) : undefined;
  const info = inEntity ?? inBody ?? { kind: 'other' as const, required: false, nullable: false };
  return { dataIndex: name, title: inEntity?.label ?? inBody?.label ?? humanise(name), render: (value: unknown) => renderValue(name, info, value) };
}

export function CrudPage<T extends BaseRecord, R extends string>(decl: CrudDeclaration<T, R>) {
  const fields = decl.fields ?? (decl.formBody ? [] : fieldsOf(decl.schema as z.ZodObject, decl.fieldOverrides));
  const messages: CrudMessages = {
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

  const createForm = useCrudForm(decl, 'create', fields, messages);
  const editForm = useCrudForm(decl, 'edit', fields, messages);

  const remove = (ids: Array<string | number>, clear?: () => void) => {
    const many = ids.length > 1;
    return Promise.all(ids.map((id) => deleteOne({ resource: decl.resource, id, successNotification: false, errorNotification: false })))
      .then(() => {
        notify.success(messages.deleted ?? `${many ? plural(ids.length, decl.singular) : capitalise(decl.singular)} deleted successfully.`);
        clear?.();
        decl.onSaved?.();
      })
      .catch((error) => notify.httpError(error, many ? (messages.bulkDeleteFailed ?? messages.deleteFailed!) : messages.deleteFailed!))
      .finally(() => invalidate({ resource: decl.resource, invalidates: ['list'] }));
  };

  const rowActions = (record: T): Array<RowAction<T>> => [
    ...(decl.extraRowActions?.(record) ?? []),
    ...(decl.entity ? [{ key: 'show', label: CRUD_PAGE.view, icon: <EyeOutlined />, hidden: !canShow?.can, onClick: (r: T) => setShown(r.id!) }] : []),
    { key: 'edit', label: 'Edit', icon: <EditOutlined />, hidden: !canEdit?.can, onClick: (r) => editForm.modal.show(r.id) },
    {
      key: 'delete',
      label: 'Delete',
      icon: <DeleteOutlined />,
      danger: true,
      hidden: !canDelete?.can,
      onClick: (r) => confirmDelete(describe(r), () => remove([r.id!])),
    },
  ];

  const addButton = canCreate?.can && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => createForm.modal.show()}>
      {decl.labels?.add ?? `Add ${capitalise(decl.singular)}`}
    </Button>
  );

  const modal = (form: typeof createForm, mode: 'create' | 'edit') => (
    <ModalForm
      form={form}
      name={`${decl.resource}-${mode}`}
      title={(mode === 'create' ? decl.labels?.createTitle : decl.labels?.editTitle) ?? `${mode === 'create' ? 'Create' : 'Edit'} ${decl.singular}`}
      width={decl.modalWidth}
      toPayload={decl.toPayload ? (values) => decl.toPayload!(values, mode) : undefined}
    >
      {decl.formBody ? decl.formBody(mode, form) : <FieldList fields={fields} mode={mode} control={form.control} />}
      {decl.formExtra?.(mode, form)}
    </ModalForm>
  );

  return (
    <>
      <DataTable<T, R>
        {...decl.table}
        header={decl.header}
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
        empty={addButton ? { hint: decl.labels?.emptyHint ?? DATA_TABLE.addFirst(decl.singular), action: addButton } : undefined}
        rowActions={rowActions}
        bulkActions={
          decl.bulkDelete && canDelete?.can
            ? [
                {
                  key: 'delete',
                  label: 'Delete selected',
                  danger: true,
                  onClick: (ids, _rows, clear) => confirmDelete(plural(ids.length, decl.singular), () => remove(ids, clear)),
                },
              ]
            : undefined
        }
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
