/** What the renewal dialogs share: the target shape, the dialog with its months, price and balance check, the success handling. */
import { type HttpError, useCustomMutation, useInvalidate } from '@refinedev/core';
import { Alert, Descriptions, Modal, Space, Spin, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { z } from 'zod';
import { CREDITS, RENEWAL, plural } from '../../../contract';
import { useIdempotencyKey } from '../../../providers/idempotency';
import { useNotify } from '../../../components/feedback';
import { FormField, MonthsInput, SchemaForm, setServerErrors, useSchemaForm } from '../../../components/form';
import { type RenewalPrice, useRenewalQuote } from './useRenewalQuote';
import { useRefreshIdentity } from '../../../providers/identity';

export interface RenewTarget {
  id: number;
  login: string;
  server_id: number | null;
  expiry_date: string | null;
}

export const INVALID_MONTHS = `${RENEWAL.invalidMonths.title}: ${RENEWAL.invalidMonths.description}`;

/** Where a renewal of `months` would put the expiry: from the current expiry, or from now when past or empty. */
export function renewedExpiry(expiry: string | null, months: number, now: Date = new Date()): dayjs.Dayjs {
  const current = expiry ? dayjs(expiry) : null;
  const start = current && current.isValid() && current.isAfter(now) ? current : dayjs(now);
  return start.add(months, 'month');
}

/** After a renewal: the header's credits and every account list are refetched. */
export function useAfterRenewal() {
  const refreshIdentity = useRefreshIdentity();
  const invalidate = useInvalidate();
  return useCallback(async () => {
    await Promise.all([
      refreshIdentity(),
      invalidate({ resource: 'accounts', invalidates: ['list', 'detail'] }),
      invalidate({ resource: 'user-search', invalidates: ['list'] }),
    ]);
  }, [refreshIdentity, invalidate]);
}

export function PriceSummary({ price }: { price: RenewalPrice }) {
  const discounts = price.quotes.filter((q) => q.discount_id !== null);
  const admin = price.balance === null && price.quotes.length > 0 && price.quotes.every((q) => q.payable_credits === 0);
  return (
    <Spin spinning={price.loading} size="small">
      <Descriptions size="small" column={1} bordered data-testid="renewal-price">
        <Descriptions.Item label="Price">
          <Space wrap>
            <Typography.Text strong data-testid="renewal-total">
              {price.quotes.length ? plural(price.total, 'credit') : '—'}
            </Typography.Text>
            {price.regular > price.total && !admin && (
              <Typography.Text delete type="secondary">
                {price.regular}
              </Typography.Text>
            )}
            {admin && <Typography.Text type="secondary">Administrators renew without spending credits</Typography.Text>}
          </Space>
        </Descriptions.Item>
        {discounts.length > 0 && !admin && (
          <Descriptions.Item label="Discount">
            <Space wrap>
              {discounts.map((q) => (
                <Tag color="green" key={q.discount_id}>
                  {q.discount_name}: save {plural(q.savings, 'credit')}
                  {q.bonus_months > 0 ? ` (${plural(q.bonus_months, 'bonus month')})` : ''}
                </Tag>
              ))}
            </Space>
          </Descriptions.Item>
        )}
        {price.balance !== null && (
          <Descriptions.Item label="Your balance">
            <span data-testid="renewal-balance">{plural(price.balance, 'credit')}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
      {!price.loading && !price.sufficient && price.balance !== null && (
        <Alert style={{ marginTop: 12 }} type="error" showIcon message={CREDITS.insufficientCredits(price.total, price.balance)} />
      )}
      {price.error && <Alert style={{ marginTop: 12 }} type="warning" showIcon message={price.error} />}
    </Spin>
  );
}

/**
 * The months field of a renewal form: the contract's rule for `months` (the one the API answers 422
 * with), its message shown under the title the dialogs give it ('Invalid months: ...').
 */
export const titledMonths = (months: z.ZodType) =>
  z.unknown().transform((value, ctx) => {
    const parsed = months.safeParse(value);
    if (parsed.success) return parsed.data as number;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: `${RENEWAL.invalidMonths.title}: ${issue.message}` });
    return z.NEVER;
  });

type RenewalForm = z.ZodType<{ months: number }, { months?: unknown }>;

/** The API call of a renewal: where it goes, its body, and the success message from the answer's body. */
export interface RenewalCall {
  path: string;
  body: (months: number) => Record<string, unknown>;
  success: (answer: { message?: string } | null | undefined) => string;
}

export interface RenewalDialogProps {
  /** What the dialog renews; it is open while this is set, and each opening gets its own Idempotency-Key. */
  opening: unknown;
  /** The server id of each account to renew, for the price. */
  servers: Array<number | null>;
  /** The form's name (unique on the page: it prefixes the field ids). */
  name: string;
  title: string;
  okText: string;
  /** The form: the months, by the schema the API validates the call with. */
  schema: RenewalForm;
  /** The renewal call (null while nothing is open). */
  call: RenewalCall | null;
  /** Server error fields shown under the months when the answer has no `months` error. */
  errorAliases: Record<string, 'months'>;
  /** Above the form (the accounts and their expiry). */
  header: (months: unknown) => ReactNode;
  onClose: () => void;
  onRenewed?: () => void;
}

/**
 * The renewal dialog: months 1 to 50, the price, the balance checked before sending, 'Renewal Failed'
 * with the server's message under the months. The renewal goes through useCustomMutation, whose
 * headers are set per call: the Idempotency-Key names the opening and the months sent.
 */
export function RenewalDialog({ opening, servers, name, title, okText, schema, call, errorAliases, header, onClose, onRenewed }: RenewalDialogProps) {
  const notify = useNotify();
  const afterRenewal = useAfterRenewal();
  const nonce = useIdempotencyKey(opening);
  const busy = useRef(false);
  const open = Boolean(opening);
  const { mutateAsync, mutation } = useCustomMutation<{ message?: string }>();
  // The form's values and rules; the call is not a record's create or update, so no Refine form mutation.
  const { control, handleSubmit, reset, setError, watch } = useSchemaForm(schema, {
    mode: 'onChange',
    defaultValues: { months: 1 },
    refineCoreProps: { action: 'create', queryOptions: { enabled: false } },
  });
  const months = watch('months');
  const price = useRenewalQuote(servers, months, open && servers.length > 0);

  useEffect(() => {
    if (!opening) return;
    busy.current = false;
    reset({ months: 1 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opening]);

  /** The checked values (the schema's output: whole months in range). */
  const renew = async (values: { months?: unknown }) => {
    const chosen = values.months as number;
    // Enter in the field while the price of these months is still coming: the button waits, and so does Enter.
    if (!open || !call || servers.length === 0 || busy.current || price.loading) return;
    if (price.balance !== null && price.total > price.balance) {
      const message = CREDITS.insufficientCredits(price.total, price.balance);
      setError('months', { type: 'balance', message });
      notify.error(RENEWAL.failed, message);
      return;
    }
    busy.current = true;
    try {
      const { data } = await mutateAsync({
        url: call.path,
        method: 'post',
        values: call.body(chosen),
        // The same opening and months: a retry is answered once by the API.
        meta: { headers: { 'Idempotency-Key': `${nonce}:${chosen}` } },
        successNotification: false,
        errorNotification: false,
      });
      notify.success(call.success(data));
      await afterRenewal();
      onRenewed?.();
      onClose();
    } catch (error) {
      setServerErrors(setError, error, ['months'], 'months' in ((error as HttpError | undefined)?.errors ?? {}) ? {} : errorAliases);
      notify.httpError(error, RENEWAL.failed, RENEWAL.failed);
    } finally {
      busy.current = false;
    }
  };

  /** Months that break the rule: the message is under the field, and the 'Invalid months' toast says it too. */
  const refuse = () => notify.error(RENEWAL.invalidMonths.title, RENEWAL.invalidMonths.description);
  const submit = () => handleSubmit(renew, refuse)().catch(() => undefined);

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      okButtonProps={{ disabled: price.loading }}
      destroyOnHidden={false}
    >
      {header(months)}
      <SchemaForm name={name} handleSubmit={handleSubmit} onSubmit={renew}>
        <FormField control={control} name="months" label="Months">
          <MonthsInput />
        </FormField>
      </SchemaForm>
      <PriceSummary price={price} />
    </Modal>
  );
}
