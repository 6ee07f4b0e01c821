/**
 * The fields of the create/edit dialog (docs/domain.md#announcements): title, HTML content in the rich-text editor,
 * type, priority, target roles, target users (loaded for the first chosen role, only once a role is
 * chosen), active, starts_at, expires_at. Rules and messages are the contract's announcementBody.
 */
import { useCustom } from '@refinedev/core';
import { Col, DatePicker, Input, Row, Select, Skeleton, Switch } from 'antd';
import { Suspense, forwardRef, lazy, useEffect, useMemo } from 'react';
import { type UseFormReturn, useWatch } from 'react-hook-form';
import { ANNOUNCEMENT_FORM, DATETIME_FORMAT, TIME_FORMAT, type TargetUser, nameWithUsername } from '../../contract';
import { priorityOptions, roleOptions, typeOptions } from '../../features/announcements';
import type { RichTextEditorProps } from '../../features/announcements/RichTextEditor';
import { FormField, dateInput } from '../../components/form';

// The editor (tiptap, ProseMirror) is most of this page's code: it loads when the dialog opens.
const LoadedEditor = lazy(() => import('../../features/announcements/RichTextEditor').then((m) => ({ default: m.RichTextEditor })));
const RichTextEditor = forwardRef<{ focus(): void }, RichTextEditorProps>(function RichTextEditor(props, ref) {
  return (
    <Suspense fallback={<Skeleton.Input active block style={{ height: 160 }} />}>
      <LoadedEditor {...props} ref={ref} />
    </Suspense>
  );
});

function TargetUsers({ form, known }: { form: UseFormReturn<any>; known: TargetUser[] }) {
  const roles = (useWatch({ control: form.control, name: 'target_roles' }) as string[] | undefined) ?? [];
  const firstRole = roles[0];
  const { result, query } = useCustom<{ users: TargetUser[] }>({
    url: 'announcements/target-users',
    method: 'get',
    config: { query: { role: firstRole } },
    errorNotification: false,
    queryOptions: { enabled: Boolean(firstRole), retry: false },
  });
  const options = useMemo(() => {
    const users = new Map<number, TargetUser>();
    for (const u of known) if (u.role === firstRole) users.set(u.id, u);
    for (const u of query.isError ? [] : (result?.data?.users ?? [])) users.set(u.id, u);
    return [...users.values()].map((u) => ({ value: u.id, label: nameWithUsername(u.name, u.username) }));
  }, [known, result, query.isError, firstRole]);

  // Users belong to the first role: once its users are known, chosen users of another role go.
  const loaded = !firstRole || query.isSuccess;
  useEffect(() => {
    if (!loaded) return;
    const chosen = (form.getValues('target_users') as number[] | undefined) ?? [];
    const keep = chosen.filter((id) => options.some((o) => o.value === id));
    if (keep.length !== chosen.length) form.setValue('target_users', keep);
  }, [loaded, options, form]);

  return (
    <FormField control={form.control} name="target_users" label="Target users" help={firstRole ? undefined : ANNOUNCEMENT_FORM.chooseRoleFirst}>
      <Select
        mode="multiple"
        allowClear
        disabled={!firstRole}
        loading={query.isFetching}
        options={options}
        optionFilterProp="label"
        // Disabled, the help under the field says why: a greyed placeholder would be too faint to read.
        placeholder={firstRole ? `All ${firstRole}s` : undefined}
      />
    </FormField>
  );
}

export function AnnouncementFields({ form, known = [] }: { form: UseFormReturn<any>; known?: TargetUser[] }) {
  const { control } = form;
  return (
    <>
      <FormField control={control} name="title" label="Title" required>
        <Input maxLength={255} />
      </FormField>
      <FormField control={control} name="content" label="Content" required>
        <RichTextEditor />
      </FormField>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <FormField control={control} name="type" label="Type">
            <Select options={typeOptions} />
          </FormField>
        </Col>
        <Col xs={24} sm={12}>
          <FormField control={control} name="priority" label="Priority">
            <Select options={priorityOptions} />
          </FormField>
        </Col>
      </Row>
      <FormField control={control} name="target_roles" label="Target roles" help={`${ANNOUNCEMENT_FORM.everyone} when none is chosen`}>
        <Select mode="multiple" allowClear options={roleOptions} placeholder={ANNOUNCEMENT_FORM.everyone} />
      </FormField>
      <TargetUsers form={form} known={known} />
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <FormField control={control} name="starts_at" label="Starts at" {...dateInput}>
            <DatePicker showTime={{ format: TIME_FORMAT }} format={DATETIME_FORMAT} style={{ width: '100%' }} />
          </FormField>
        </Col>
        <Col xs={24} sm={12}>
          <FormField control={control} name="expires_at" label="Expires at" {...dateInput}>
            <DatePicker showTime={{ format: TIME_FORMAT }} format={DATETIME_FORMAT} style={{ width: '100%' }} />
          </FormField>
        </Col>
      </Row>
      <FormField control={control} name="is_active" label="Active" valuePropName="checked">
        <Switch />
      </FormField>
    </>
  );
}
