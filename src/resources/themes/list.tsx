import { PoweroffOutlined } from '@ant-design/icons';
import { useCan, useCustomMutation, useInvalidate } from '@refinedev/core';
import { ColorPicker, Divider, InputNumber, Select, Space, Tag } from 'antd';
import { useEffect, useRef } from 'react';
import { type UseFormReturn, useWatch } from 'react-hook-form';
import { CONFIG_SCREENS, STATUS, THEMES, THEME_ALGORITHMS, type Theme, slugify, themeBody } from '../../contract';
import { CrudPage } from '../../components/CrudPage';
import { ActiveTag, activeOptions, dateTime } from '../../components/display';
import { useConfirm, useNotify } from '../../components/feedback';
import { type FieldOverrides, FormField } from '../../components/form';
import { useAppConfig } from '../../providers/appConfig';

const fieldOverrides: FieldOverrides = { slug: { placeholder: 'generated from the name' } };

/**
 * Fills the slug from the name while the slug is empty or still the one generated from the
 * previous name, so typing a name builds its slug and a slug typed by hand is kept.
 */
function SlugFromName({ form }: { form: UseFormReturn<any> }) {
  const name = useWatch({ control: form.control, name: 'name' }) as string | undefined;
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const current = name ?? '';
    if (previous.current !== null && current !== previous.current) {
      const slug = (form.getValues('slug') as string | undefined) ?? '';
      if (slug === '' || slug === slugify(previous.current)) form.setValue('slug', slugify(current), { shouldValidate: form.formState.isSubmitted });
    }
    previous.current = current;
  }, [name, form]);
  return null;
}

const hex = (color: unknown) => {
  const c = color as { toHexString(): string; cleared?: boolean } | null;
  return c && !c.cleared ? c.toHexString() : undefined;
};
/** A cleared input is an unset token (absent), not null. */
const unsetWhenEmpty = (value: unknown) => (value === null || value === '' ? undefined : value);

/** The Ant Design tokens the theme sets for everyone. */
function TokenFields({ form }: { form: UseFormReturn<any> }) {
  const picker = <ColorPicker allowClear disabledAlpha format="hex" showText={(color) => (color.cleared ? 'Not set' : color.toHexString())} />;
  return (
    <>
      <SlugFromName form={form} />
      <Divider orientation="left" plain>
        Look
      </Divider>
      <Space wrap size="large">
        <FormField control={form.control} name="tokens.colorPrimary" label="Primary colour" fromInput={hex}>
          {picker}
        </FormField>
        <FormField control={form.control} name="tokens.colorBgLayout" label="Background" fromInput={hex}>
          {picker}
        </FormField>
        <FormField control={form.control} name="tokens.borderRadius" label="Border radius" fromInput={unsetWhenEmpty}>
          <InputNumber min={0} max={32} step={1} precision={0} style={{ width: 120 }} />
        </FormField>
        <FormField control={form.control} name="tokens.algorithm" label="Algorithm" fromInput={unsetWhenEmpty}>
          <Select allowClear style={{ width: 140 }} options={THEME_ALGORITHMS.map((a) => ({ value: a, label: a.charAt(0).toUpperCase() + a.slice(1) }))} />
        </FormField>
      </Space>
    </>
  );
}

/** Only the tokens that are set: the API takes absent tokens as unset (null is not a colour). */
const tokensPayload = (tokens: unknown) =>
  Object.fromEntries(Object.entries((tokens ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null && v !== ''));

function Swatch({ color }: { color?: string }) {
  if (!color) return null;
  return (
    <span
      title={color}
      style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background: color, border: '1px solid rgba(0,0,0,.15)', verticalAlign: 'middle' }}
    />
  );
}

export function ThemesPage() {
  const notify = useNotify();
  const invalidate = useInvalidate();
  const { confirmStatus } = useConfirm();
  const { refetch: refetchAppConfig } = useAppConfig();
  const canToggle = useCan({ resource: 'themes', action: 'status' }).data?.can === true;
  const { mutateAsync: toggleStatus } = useCustomMutation();

  const toggle = (theme: Theme) =>
    confirmStatus(!theme.is_active, `theme "${theme.name}"`, () =>
      toggleStatus({ url: `themes/${theme.id}/toggle-status`, method: 'post', values: {}, successNotification: false, errorNotification: false })
        .then(() => {
          notify.success(theme.is_active ? CONFIG_SCREENS.themeDeactivated : CONFIG_SCREENS.themeActivated);
          // The active theme is everyone's look: reload it now for this admin too.
          refetchAppConfig();
        })
        .catch((error) => notify.httpError(error, CONFIG_SCREENS.themeStatusFailed))
        .finally(() => invalidate({ resource: 'themes', invalidates: ['list'] })),
    );

  return (
    <CrudPage<Theme, 'themes'>
      resource="themes"
      singular="theme"
      searchPlaceholder="Search themes..."
      messages={{ createFailed: THEMES.createFailed, updateFailed: THEMES.updateFailed, deleteFailed: THEMES.deleteFailed }}
      bulkDelete
      schema={themeBody}
      selectFilters={[{ field: 'is_active', label: 'Status', options: activeOptions }]}
      columns={[
        { dataIndex: 'name', title: 'Name', sortable: true },
        { dataIndex: 'slug', title: 'Slug', sortable: true },
        { dataIndex: 'description', title: 'Description', width: 220, responsive: ['md'] },
        {
          dataIndex: 'tokens',
          title: 'Look',
          render: (_: unknown, t: Theme) => (
            <Space size={4}>
              <Swatch color={t.tokens?.colorPrimary} />
              <Swatch color={t.tokens?.colorBgLayout} />
              {t.tokens?.algorithm && t.tokens.algorithm !== 'default' && <Tag>{t.tokens.algorithm}</Tag>}
            </Space>
          ),
        },
        { dataIndex: 'is_active', title: 'Status', sortable: true, render: (v: boolean) => <ActiveTag active={v} /> },
        { dataIndex: 'created_at', title: 'Created', sortable: true, render: dateTime, responsive: ['lg'] },
      ]}
      fieldOverrides={fieldOverrides}
      formExtra={(_mode, form) => <TokenFields form={form} />}
      toPayload={(values) => ({ ...values, tokens: tokensPayload(values.tokens) })}
      onSaved={refetchAppConfig}
      modalWidth={640}
      extraRowActions={(t) => [
        {
          key: 'status',
          label: t.is_active ? STATUS.deactivate : STATUS.activate,
          icon: <PoweroffOutlined />,
          hidden: !canToggle,
          onClick: toggle,
        },
      ]}
    />
  );
}
