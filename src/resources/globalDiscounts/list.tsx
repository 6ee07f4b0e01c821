/**
 * Global discounts (menu 'User Promo'): server-wide renewal prices shown as cards, filtered by server
 * and status, created and edited in one dialog (docs/domain.md#global-discounts).
 */
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, DatePicker, Descriptions, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef } from 'react';
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
  plural,
} from '../../contract';
import { CrudPage, type CrudForm } from '../../components/CrudPage';
import { ActiveTag } from '../../components/display';
import { errorText, titled, useNotify } from '../../components/feedback';
import { FormField } from '../../components/form';
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
  return <Alert type={savings > 0 ? 'success' : 'info'} showIcon message={`Savings: ${plural(savings, 'month')} (${percentage}%)`} style={{ marginBottom: 16 }} />;
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
        ...(onEdit
          ? [
              <Button key="edit" type="link" icon={<EditOutlined />} onClick={onEdit}>
                Edit
              </Button>,
            ]
          : []),
        ...(onDelete
          ? [
              <Button key="delete" type="link" danger icon={<DeleteOutlined />} onClick={onDelete}>
                Delete
              </Button>,
            ]
          : []),
      ]}
    >
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ minHeight: 22 }}>
        {discount.description || '—'}
      </Typography.Paragraph>
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Server">{discount.server?.name ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Validity">{plural(discount.validity_months, 'month')}</Descriptions.Item>
        <Descriptions.Item label="Credits required">{discount.credits_required}</Descriptions.Item>
        <Descriptions.Item label="Savings">
          <Typography.Text type={savings > 0 ? 'success' : undefined} strong data-testid="discount-savings">
            {plural(savings, 'month')} ({percentage}%)
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
function MissingToast({ form }: { form: CrudForm }) {
  const notify = useNotify();
  const { submitCount } = form.formState;
  const { getValues } = form;
  const seen = useRef(submitCount);
  useEffect(() => {
    if (submitCount === seen.current) return;
    seen.current = submitCount;
    // The schema's own verdict on what was submitted: a server's refusal of a valid form is toasted by Refine.
    const parsed = globalDiscountBody.safeParse(getValues());
    const missing = parsed.error?.issues.find((issue) => issue.path[0] === 'name' || issue.path[0] === 'server_id');
    if (missing) notify.error(GENERAL.error, missing.message);
  }, [submitCount, getValues, notify]);
  return null;
}

const STATUS_OPTIONS = [
  { label: 'Active', value: 'true' },
  { label: 'Inactive', value: 'false' },
];

export function GlobalDiscountsPage() {
  const notify = useNotify();
  const servers = useServerOptions();
  useEffect(() => {
    if (servers.error) notify.error(GENERAL.error, GLOBAL_DISCOUNTS.fetchServersFailed);
  }, [servers.error, notify]);

  return (
    <CrudPage<GlobalDiscount, 'global-discounts'>
      resource="global-discounts"
      singular="global discount"
      labels={{ add: 'Add Global Discount', createTitle: 'Create Global Discount', editTitle: 'Edit Global Discount', emptyHint: DATA_TABLE.noGlobalDiscounts }}
      columns={[]}
      schema={globalDiscountBody}
      defaultValues={GLOBAL_DISCOUNT_DEFAULTS}
      formBody={(_mode, form) => (
        <>
          <DiscountFormFields control={form.control} servers={servers.options} serversLoading={servers.loading} />
          {/* 'Name is required' and 'Please select a server' also appear as toasts. */}
          <MissingToast form={form} />
        </>
      )}
      modalWidth={680}
      messages={{
        created: CONFIG_SCREENS.discountCreated,
        updated: CONFIG_SCREENS.discountUpdated,
        deleted: CONFIG_SCREENS.discountDeleted,
        createFailed: GLOBAL_DISCOUNTS.saveFailed,
        updateFailed: GLOBAL_DISCOUNTS.saveFailed,
        deleteFailed: GLOBAL_DISCOUNTS.deleteFailed,
        loadFailed: GLOBAL_DISCOUNTS.fetchFailed,
      }}
      // This toast names the failure in its title and says 'Error' under it.
      saveErrorToast={(error) => ({ type: 'error', ...titled(errorText(error, GLOBAL_DISCOUNTS.saveFailed, { fields: true }), GENERAL.error) })}
      notifyLoadError
      selectFilters={[
        { field: 'server_id', label: 'Server', allLabel: 'All servers', options: servers.options },
        { field: 'is_active', label: 'Status', allLabel: 'All statuses', options: STATUS_OPTIONS },
      ]}
      table={{
        searchable: false,
        pageSizes: [PAGE_SIZE],
        defaultPageSize: PAGE_SIZE,
        renderRows: (discounts, actionsOf) => (
          <Row gutter={[16, 16]}>
            {discounts.map((d) => {
              const action = (key: string) => actionsOf(d).find((a) => a.key === key);
              const edit = action('edit');
              const remove = action('delete');
              return (
                <Col key={d.id} xs={24} md={12} xl={8}>
                  <DiscountCard discount={d} onEdit={edit && (() => edit.onClick(d))} onDelete={remove && (() => remove.onClick(d))} />
                </Col>
              );
            })}
          </Row>
        ),
      }}
    />
  );
}
