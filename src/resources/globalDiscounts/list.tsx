/**
 * Global discounts (menu 'User Promo'): server-wide renewal prices shown as cards, filtered by server
 * and status, created and edited in one dialog (spec 2, 5, 8).
 */
import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useModalForm } from '@refinedev/antd';
import { type CrudFilter, type HttpError, useDelete, useInvalidate, useList, useCan } from '@refinedev/core';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Pagination,
  Row,
  Select,
  Space,
  Spin,
  Switch,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import {
  CONFIG_SCREENS,
  DISCOUNT_VALIDITY_MONTHS,
  ENTITY_FORM,
  FIELD_RULES,
  GENERAL,
  GLOBAL_DISCOUNTS,
  GLOBAL_DISCOUNT_DEFAULTS,
  type GlobalDiscount,
  PROMOS,
} from '../../contract';
import { ActiveTag } from '../../components/display';
import { titled, useConfirm, useNotify } from '../../components/feedback';
import { useServerOptions } from '../serverOptions';

const PAGE_SIZE = 12;

/** Savings of a discount: months given minus credits paid, and that as a percentage of the months. */
export function discountSavings(validityMonths: number, creditsRequired: number) {
  const savings = validityMonths - creditsRequired;
  const percentage = validityMonths > 0 ? ((savings / validityMonths) * 100).toFixed(1) : '0.0';
  return { savings, percentage };
}

/** Dates are whole days here: the API stores a bare date as that day's first (from) or last (until) moment, in UTC. */
const dayOf = (value: string | null | undefined) => (value ? value.slice(0, 10) : null);
const dateItemProps = {
  getValueProps: (v: unknown) => ({ value: v ? dayjs(String(v).slice(0, 10)) : undefined }),
  normalize: (v: dayjs.Dayjs | null) => (v ? v.format('YYYY-MM-DD') : null),
};

const toPayload = (values: Record<string, unknown>) => ({
  ...values,
  description: values.description || null,
  discount_percentage: values.discount_percentage ?? null,
  valid_from: values.valid_from || null,
  valid_until: values.valid_until || null,
  // Empty means unlimited.
  max_uses: values.max_uses ?? null,
});

function SavingsPreview() {
  const months = Number(Form.useWatch('validity_months') ?? 0) || 0;
  const credits = Number(Form.useWatch('credits_required') ?? 0) || 0;
  const { savings, percentage } = discountSavings(months, credits);
  return <Alert type={savings > 0 ? 'success' : 'info'} showIcon message={`Savings: ${savings} month(s) (${percentage}%)`} style={{ marginBottom: 16 }} />;
}

function DiscountFormFields({ servers, serversLoading }: { servers: Array<{ label: string; value: number }>; serversLoading: boolean }) {
  return (
    <>
      <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: ENTITY_FORM.nameRequired }]}>
        <Input />
      </Form.Item>
      <Form.Item name="description" label="Description">
        <Input.TextArea rows={2} />
      </Form.Item>
      <Form.Item name="server_id" label="Server" rules={[{ required: true, message: GLOBAL_DISCOUNTS.selectServer }]}>
        <Select options={servers} loading={serversLoading} placeholder={GENERAL.serverPlaceholder} showSearch optionFilterProp="label" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={8}>
          <Form.Item
            name="validity_months"
            label="Validity (months)"
            rules={[
              {
                required: true,
                type: 'number',
                min: DISCOUNT_VALIDITY_MONTHS.min,
                max: DISCOUNT_VALIDITY_MONTHS.max,
                message: FIELD_RULES.between('Validity months', DISCOUNT_VALIDITY_MONTHS.min, DISCOUNT_VALIDITY_MONTHS.max),
              },
            ]}
          >
            <InputNumber min={DISCOUNT_VALIDITY_MONTHS.min} max={DISCOUNT_VALIDITY_MONTHS.max} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="credits_required" label="Credits required" rules={[{ required: true, type: 'number', min: 1, message: PROMOS.creditsRequiredMin }]}>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item
            name="discount_percentage"
            label="Discount (%)"
            rules={[{ type: 'number', min: 0, max: 100, message: FIELD_RULES.between('Discount percentage', 0, 100) }]}
          >
            <InputNumber min={0} max={100} step={0.01} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <SavingsPreview />
      <Row gutter={16}>
        <Col xs={24} sm={8}>
          <Form.Item name="valid_from" label="Valid from" {...dateItemProps}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="valid_until" label="Valid until" {...dateItemProps}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item
            name="max_uses"
            label="Max uses"
            extra="Empty means unlimited"
            rules={[{ type: 'number', min: 1, message: FIELD_RULES.atLeast('Max uses', 1) }]}
          >
            <InputNumber min={1} precision={0} style={{ width: '100%' }} placeholder={CONFIG_SCREENS.unlimited} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="is_active" label="Active" valuePropName="checked">
        <Switch />
      </Form.Item>
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
    useModalForm<GlobalDiscount, HttpError>({
      resource: 'global-discounts',
      action,
      redirect: false,
      autoResetForm: true,
      successNotification: () => ({ type: 'success', message: action === 'create' ? CONFIG_SCREENS.discountCreated : CONFIG_SCREENS.discountUpdated }),
      errorNotification: saveFailed,
    });
  const createForm = formFor('create');
  const editForm = formFor('edit');

  const { mutateAsync: deleteOne } = useDelete();
  const remove = (d: GlobalDiscount) =>
    confirmDelete(`global discount "${d.name}"`, () =>
      deleteOne({ resource: 'global-discounts', id: d.id, successNotification: false, errorNotification: false })
        .then(() => notify.success(CONFIG_SCREENS.discountDeleted))
        .catch((error) => notify.httpError(error, GLOBAL_DISCOUNTS.deleteFailed))
        .finally(() => invalidate({ resource: 'global-discounts', invalidates: ['list'] })),
    );

  // 'Name is required' and 'Please select a server' also appear as toasts (spec 8).
  const toastMissing = ({ errorFields }: { errorFields: Array<{ name: Array<string | number>; errors: string[] }> }) => {
    const first = errorFields.find((f) => f.name[0] === 'name' || f.name[0] === 'server_id');
    if (first?.errors[0]) notify.error(GENERAL.error, first.errors[0]);
  };

  const modal = (form: typeof createForm, mode: 'create' | 'edit') => (
    <Modal {...form.modalProps} title={mode === 'create' ? 'Create Global Discount' : 'Edit Global Discount'} width={680} forceRender>
      <Form
        {...form.formProps}
        layout="vertical"
        initialValues={mode === 'create' ? GLOBAL_DISCOUNT_DEFAULTS : form.formProps.initialValues}
        // A failed save is already shown (toast and field errors).
        onFinish={(values) => Promise.resolve(form.formProps.onFinish?.(toPayload(values as Record<string, unknown>) as never)).catch(() => undefined)}
        onFinishFailed={toastMissing}
      >
        <DiscountFormFields servers={servers.options} serversLoading={servers.loading} />
      </Form>
    </Modal>
  );

  return (
    <Card
      title="Global Discounts"
      extra={
        <Space wrap>
          {canCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => createForm.show()}>
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
          <Empty description={GENERAL.noData} />
        ) : (
          <Row gutter={[16, 16]}>
            {discounts.map((d) => (
              <Col key={d.id} xs={24} md={12} xl={8}>
                <DiscountCard discount={d} onEdit={canEdit ? () => editForm.show(d.id) : undefined} onDelete={canDelete ? () => remove(d) : undefined} />
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
