/**
 * Global discounts (menu 'User Promo'): server-wide renewal prices shown as cards, filtered by server
 * and status, created and edited in one dialog (docs/domain.md#global-discounts).
 */
import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { type CrudFilter, type HttpError, useCan, useDelete, useInvalidate, useList } from '@refinedev/core';
import { Alert, Button, Card, Col, DatePicker, Descriptions, Input, InputNumber, Pagination, Row, Select, Space, Spin, Switch, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { type Control, useWatch } from 'react-hook-form';
import {
  CONFIG_SCREENS,
  DATA_TABLE,
  DISCOUNT_VALIDITY_MONTHS,
  GENERAL,
  GLOBAL_DISCOUNTS,
  GLOBAL_DISCOUNT_DEFAULTS,
  type GlobalDiscount,
  globalDiscountBody,
} from '../../contract';
import { ListEmpty } from '../../components/DataTable';
import { ActiveTag } from '../../components/display';
import { titled, useConfirm, useNotify } from '../../components/feedback';
import { FormField, ModalForm, useSchemaModalForm } from '../../components/form';
import { useServerOptions } from '../../features/servers';

const PAGE_SIZE = 12;

/** Savings of a discount: months given minus credits paid, and that as a percentage of the months. */
export function discountSavings(validityMonths: number, creditsRequired: number) {
  const savings = validityMonths - creditsRequired;
  const percentage = validityMonths > 0 ? ((savings / validityMonths) * 100).toFixed(1) : '0.0';
  return { savings, percentage };
}

/** Dates are whole days here: the API stores a bare date as that day's first (from) or last (until) moment, in UTC. */
const dayOf = (value: string | null | undefined) => (value ? value.slice(0, 10) : null);

/**
 * valid_from and valid_until: a dayjs in the DatePicker, the calendar day ('YYYY-MM-DD') in the form
 * values, which the contract schema reads as that day's first or last moment.
 */
const calendarDay = {
  toInput: (value: unknown) => (value ? dayjs(dayOf(String(value))) : null),
  fromInput: (value: unknown) => (value ? (value as dayjs.Dayjs).format('YYYY-MM-DD') : null),
};

function SavingsPreview({ control }: { control: Control<any> }) {
  const [months, credits] = useWatch({ control, name: ['validity_months', 'credits_required'] }).map((v) => Number(v ?? 0) || 0);
  const { savings, percentage } = discountSavings(months, credits);
  return <Alert type={savings > 0 ? 'success' : 'info'} showIcon message={`Savings: ${savings} month(s) (${percentage}%)`} style={{ marginBottom: 16 }} />;
}

function DiscountFormFields({ control, servers, serversLoading }: { control: Control<any>; servers: Array<{ label: string; value: number }>; serversLoading: boolean }) {
  return (
    <>
      <FormField control={control} name="name" label="Name" required>
        <Input />
      </FormField>
      <FormField control={control} name="description" label="Description">
        <Input.TextArea rows={2} />
      </FormField>
      <FormField control={control} name="server_id" label="Server" required>
        <Select options={servers} loading={serversLoading} placeholder={GENERAL.serverPlaceholder} showSearch optionFilterProp="label" />
      </FormField>
      <Row gutter={16}>
        <Col xs={24} sm={8}>
          <FormField control={control} name="validity_months" label="Validity (months)" required>
            <InputNumber min={DISCOUNT_VALIDITY_MONTHS.min} max={DISCOUNT_VALIDITY_MONTHS.max} precision={0} style={{ width: '100%' }} />
          </FormField>
        </Col>
        <Col xs={24} sm={8}>
          <FormField control={control} name="credits_required" label="Credits required" required>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </FormField>
        </Col>
        <Col xs={24} sm={8}>
          <FormField control={control} name="discount_percentage" label="Discount (%)">
            <InputNumber min={0} max={100} step={0.01} style={{ width: '100%' }} />
          </FormField>
        </Col>
      </Row>
      <SavingsPreview control={control} />
      <Row gutter={16}>
        <Col xs={24} sm={8}>
          <FormField control={control} name="valid_from" label="Valid from" {...calendarDay}>
            <DatePicker style={{ width: '100%' }} />
          </FormField>
        </Col>
        <Col xs={24} sm={8}>
          <FormField control={control} name="valid_until" label="Valid until" {...calendarDay}>
            <DatePicker style={{ width: '100%' }} />
          </FormField>
        </Col>
        <Col xs={24} sm={8}>
          <FormField control={control} name="max_uses" label="Max uses" extra="Empty means unlimited">
            <InputNumber min={1} precision={0} style={{ width: '100%' }} placeholder={CONFIG_SCREENS.unlimited} />
          </FormField>
        </Col>
      </Row>
      <FormField control={control} name="is_active" label="Active" valuePropName="checked">
        <Switch />
      </FormField>
    </>
  );
}

function DiscountCard({ discount, onEdit, onDelete }: { discount: GlobalDiscount; onEdit?: () => void; onDelete?: () => void }) {
  const { savings, percentage } = discountSavings(discount.validity_months, discount.credits_required);
  return (
    <Card
      data-testid="discount-card"
      title={discount.name}
      extra={<ActiveTag active={discount.is_active} />}
      actions={[
        ...(onEdit ? [<Button key="edit" type="link" icon={<EditOutlined />} onClick={onEdit}>Edit</Button>] : []),
        ...(onDelete ? [<Button key="delete" type="link" danger icon={<DeleteOutlined />} onClick={onDelete}>Delete</Button>] : []),
      ]}
    >
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ minHeight: 22 }}>
        {discount.description || '—'}
      </Typography.Paragraph>
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Server">{discount.server?.name ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Validity">{discount.validity_months} month(s)</Descriptions.Item>
        <Descriptions.Item label="Credits required">{discount.credits_required}</Descriptions.Item>
        <Descriptions.Item label="Savings">
          <Typography.Text type={savings > 0 ? 'success' : undefined} strong data-testid="discount-savings">
            {savings} month(s) ({percentage}%)
          </Typography.Text>
        </Descriptions.Item>
        {discount.discount_percentage > 0 && <Descriptions.Item label="Discount">{discount.discount_percentage}%</Descriptions.Item>}
        <Descriptions.Item label="Valid">
          {dayOf(discount.valid_from) ?? 'any time'} – {dayOf(discount.valid_until) ?? 'no end'}
        </Descriptions.Item>
        <Descriptions.Item label="Uses">
          {discount.current_uses} / {discount.max_uses ?? CONFIG_SCREENS.unlimited}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** After a submit the schema refused, its name or server message as a toast too. */
function useMissingToast(form: ReturnType<typeof useSchemaModalForm>) {
  const notify = useNotify();
  const { submitCount } = form.formState;
  const { getValues } = form;
  useEffect(() => {
    if (!submitCount) return;
    // The schema's own verdict on what was submitted: a server's refusal of a valid form is toasted by Refine.
    const parsed = globalDiscountBody.safeParse(getValues());
    const missing = parsed.error?.issues.find((issue) => issue.path[0] === 'name' || issue.path[0] === 'server_id');
    if (missing) notify.error(GENERAL.error, missing.message);
  }, [submitCount, getValues, notify]);
}

export function GlobalDiscountsPage() {
  const notify = useNotify();
  const invalidate = useInvalidate();
  const { confirmDelete } = useConfirm();
  const canCreate = useCan({ resource: 'global-discounts', action: 'create' }).data?.can === true;
  const canEdit = useCan({ resource: 'global-discounts', action: 'edit' }).data?.can === true;
  const canDelete = useCan({ resource: 'global-discounts', action: 'delete' }).data?.can === true;
  const [serverId, setServerId] = useState<number | undefined>();
  const [status, setStatus] = useState<string | undefined>();
  const [page, setPage] = useState(1);

  const servers = useServerOptions();
  useEffect(() => {
    if (servers.error) notify.error(GENERAL.error, GLOBAL_DISCOUNTS.fetchServersFailed);
  }, [servers.error, notify]);

  const filters: CrudFilter[] = [
    { field: 'server_id', operator: 'eq', value: serverId },
    { field: 'is_active', operator: 'eq', value: status },
  ];
  const { result, query } = useList<GlobalDiscount, HttpError>({
    resource: 'global-discounts',
    filters,
    pagination: { currentPage: page, pageSize: PAGE_SIZE, mode: 'server' },
    queryOptions: { retry: false },
    errorNotification: () => ({ type: 'error', ...titled(GENERAL.error, GLOBAL_DISCOUNTS.fetchFailed) }),
  });
  const discounts = query.isError ? [] : (result.data ?? []);

  const saveFailed = (error?: HttpError) => ({
    type: 'error' as const,
    message: GENERAL.error,
    description: !error?.errors && error?.message && error.message !== GENERAL.apiError ? error.message : GLOBAL_DISCOUNTS.saveFailed,
  });
  const formFor = (action: 'create' | 'edit') =>
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useSchemaModalForm(globalDiscountBody, {
      defaultValues: action === 'create' ? GLOBAL_DISCOUNT_DEFAULTS : undefined,
      refineCoreProps: {
        resource: 'global-discounts',
        action,
        redirect: false,
        successNotification: () => ({ type: 'success', message: action === 'create' ? CONFIG_SCREENS.discountCreated : CONFIG_SCREENS.discountUpdated }),
        errorNotification: saveFailed,
      },
    });
  const createForm = formFor('create');
  const editForm = formFor('edit');
  // 'Name is required' and 'Please select a server' also appear as toasts.
  useMissingToast(createForm);
  useMissingToast(editForm);

  const { mutateAsync: deleteOne } = useDelete();
  const remove = (d: GlobalDiscount) =>
    confirmDelete(`global discount "${d.name}"`, () =>
      deleteOne({ resource: 'global-discounts', id: d.id, successNotification: false, errorNotification: false })
        .then(() => notify.success(CONFIG_SCREENS.discountDeleted))
        .catch((error) => notify.httpError(error, GLOBAL_DISCOUNTS.deleteFailed))
        .finally(() => invalidate({ resource: 'global-discounts', invalidates: ['list'] })),
    );

  const modal = (form: typeof createForm, mode: 'create' | 'edit') => (
    <ModalForm form={form} name={`global-discounts-${mode}`} title={mode === 'create' ? 'Create Global Discount' : 'Edit Global Discount'} okText="Save" width={680}>
      <DiscountFormFields control={form.control} servers={servers.options} serversLoading={servers.loading} />
    </ModalForm>
  );

  return (
    <Card
      title="Global Discounts"
      extra={
        <Space wrap>
          {canCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => createForm.modal.show()}>
              Add Global Discount
            </Button>
          )}
          <Button icon={<ReloadOutlined />} onClick={() => query.refetch()} loading={query.isFetching}>
            Refresh
          </Button>
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="Server"
          style={{ minWidth: 200 }}
          value={serverId ?? '__all'}
          options={[{ label: 'All servers', value: '__all' }, ...servers.options]}
          onChange={(v) => {
            setServerId(v === '__all' ? undefined : (v as number));
            setPage(1);
          }}
        />
        <Select
          aria-label="Status"
          style={{ minWidth: 150 }}
          value={status ?? '__all'}
          options={[
            { label: 'All statuses', value: '__all' },
            { label: 'Active', value: 'true' },
            { label: 'Inactive', value: 'false' },
          ]}
          onChange={(v) => {
            setStatus(v === '__all' ? undefined : v);
            setPage(1);
          }}
        />
      </Space>

      {query.isError && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={GLOBAL_DISCOUNTS.fetchFailed} description={query.error?.message} />}

      <Spin spinning={query.isLoading}>
        {discounts.length === 0 ? (
          <ListEmpty
            narrowed={serverId !== undefined || status !== undefined}
            onClear={() => {
              setServerId(undefined);
              setStatus(undefined);
              setPage(1);
            }}
            hint={DATA_TABLE.noGlobalDiscounts}
            action={
              canCreate && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => createForm.modal.show()}>
                  Add Global Discount
                </Button>
              )
            }
          />
        ) : (
          <Row gutter={[16, 16]}>
            {discounts.map((d) => (
              <Col key={d.id} xs={24} md={12} xl={8}>
                <DiscountCard discount={d} onEdit={canEdit ? () => editForm.modal.show(d.id) : undefined} onDelete={canDelete ? () => remove(d) : undefined} />
              </Col>
            ))}
          </Row>
        )}
      </Spin>
      {(result.total ?? 0) > PAGE_SIZE && (
        <Pagination style={{ marginTop: 16, textAlign: 'right' }} current={page} pageSize={PAGE_SIZE} total={result.total} onChange={setPage} showSizeChanger={false} />
      )}

      {modal(createForm, 'create')}
      {modal(editForm, 'edit')}
    </Card>
  );
}
