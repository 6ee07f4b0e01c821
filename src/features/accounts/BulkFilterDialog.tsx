/**
 * Bulk renew, suspend, activate or message on a selection or on everything the list's filters
 * match (POST /accounts/bulk/preview, then /accounts/bulk/{id}/apply): the accounts list's only way
 * to act on many accounts. The preview comes first: how many accounts, the credits with discounts,
 * the balance after, which are left out and why. Applying it is one operation up to the bulk limit,
 * or a job above it, whose progress shows here with its report to download. A preview the accounts
 * moved away from (409) is refused whole: the dialog says so and offers to preview again.
 */
import { type CrudFilter, type HttpError, useCustom, useCustomMutation } from '@refinedev/core';
import { Alert, Descriptions, Input, Modal, Progress, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ACCOUNT_SCREEN, BULK_FILTER, type BulkFilterAction, type BulkJob, type BulkPreview, CREDITS, RENEWAL, STATUS, bulkFilterBody, plural } from '../../contract';
import { CsvDownload } from '../../components/export/CsvDownload';
import { errorText, useNotify } from '../../components/feedback';
import { MonthsInput } from '../../components/form';
import { useAfterRenewal } from './renewals/shared';

export interface BulkFilterRequest {
  action: BulkFilterAction;
  /** The selected rows, or the list's filters (everything they match). */
  account_ids?: number[];
  filters?: CrudFilter[];
  /** What the list counted for those filters (the preview counts again). */
  total?: number;
}

/** The list's filters as the accounts list's parameters: name -> value, the search box as `search`. */
export function filterObject(filters: CrudFilter[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of filters) {
    if (!('field' in f) || f.value === undefined || f.value === null || f.value === '') continue;
    out[f.field] = String(f.value);
  }
  return out;
}

const POLL_MS = 1000;

/** 'Invalid months: ...', as the renewal dialogs say it. */
const INVALID_MONTHS = `${RENEWAL.invalidMonths.title}: ${RENEWAL.invalidMonths.description}`;

/** The title of a failed preview or application, as each action's own screens name it. */
const FAILED: Record<BulkFilterAction, string> = {
  renew: RENEWAL.failed,
  suspend: STATUS.updateFailed.title,
  activate: STATUS.updateFailed.title,
  message: ACCOUNT_SCREEN.actionFailed,
};

export function BulkFilterDialog({ request, onClose, onDone }: { request: BulkFilterRequest | null; onClose: () => void; onDone: () => void }) {
  const notify = useNotify();
  const refresh = useAfterRenewal();
  const [months, setMonths] = useState<number | null>(1);
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  /** Why the last application was refused (the set changed, the balance moved): shown until the next preview. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const [job, setJob] = useState<BulkJob | null>(null);
  const { mutateAsync, mutation } = useCustomMutation<{ data: BulkJob | BulkPreview; message?: string }>();
  const action = request?.action ?? 'renew';
  const running = job?.status === 'running';
  const progress = useCustom<{ data: BulkJob }, HttpError>({
    url: `accounts/bulk/${job?.id ?? 0}`,
    method: 'get',
    errorNotification: false,
    queryOptions: { enabled: running, refetchInterval: running ? POLL_MS : false, retry: false },
  });
  // The dialog stays mounted between openings: each request starts from its form.
  useEffect(() => {
    if (!request) return;
    setMonths(1);
    setMessage('');
    setErrors({});
    setPreview(null);
    setRefusal(null);
    setJob(null);
  }, [request]);
  const live = progress.result?.data?.data;
  const shown = live && live.id === job?.id ? live : job;
  // A finished job stops the polling; the balance and the list show what it did.
  useEffect(() => {
    if (live && live.id === job?.id && live.status !== 'running') {
      setJob(live);
      void refresh();
    }
  }, [live, job?.id, refresh]);

  const body = () => ({
    action,
    ...(action === 'renew' ? { months } : {}),
    ...(action === 'message' ? { message } : {}),
    ...(request?.account_ids ? { account_ids: request.account_ids } : { filter: filterObject(request?.filters ?? []) }),
  });

  const askPreview = async () => {
    const checked = bulkFilterBody.safeParse(body());
    if (!checked.success) {
      const found = Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0] ?? 'action'), i.message]));
      if (found.months) {
        found.months = INVALID_MONTHS;
        notify.error(RENEWAL.invalidMonths.title, RENEWAL.invalidMonths.description);
      }
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      const answer = await mutateAsync({ url: 'accounts/bulk/preview', method: 'post', values: checked.data, successNotification: false, errorNotification: false });
      setRefusal(null);
      setPreview(answer.data.data as BulkPreview);
    } catch (error) {
      notify.httpError(error, BULK_FILTER.previewFailed, FAILED[action]);
    }
  };

  const apply = async () => {
    if (!preview) return;
    let answer;
    try {
      answer = await mutateAsync({ url: `accounts/bulk/${preview.id}/apply`, method: 'post', values: {}, successNotification: false, errorNotification: false });
    } catch (error) {
      // Nothing was applied: back to the form, with the reason, to preview again.
      notify.httpError(error, BULK_FILTER.applyFailed, FAILED[action]);
      setRefusal(errorText(error, BULK_FILTER.applyFailed));
      setPreview(null);
      return;
    }
    const started = answer.data.data as BulkJob;
    setJob(started);
    if (started.status === 'done') notify.success(answer.data.message ?? BULK_FILTER.done(started.succeeded));
    onDone();
    void refresh();
  };

  const title = action === 'renew' ? ACCOUNT_SCREEN.bulkRenewTitle : BULK_FILTER.previewTitle(BULK_FILTER.actions[action]);
  const onOk = job ? onClose : preview ? apply : askPreview;
  const okText = job ? 'Close' : preview ? BULK_FILTER.apply : refusal ? BULK_FILTER.previewAgain : BULK_FILTER.preview;

  return (
    <Modal
      open={request !== null}
      title={title}
      okText={okText}
      onOk={() => void onOk()}
      okButtonProps={{ disabled: Boolean(!job && preview && (preview.insufficient || preview.applicable === 0)), 'data-testid': 'bulk-filter-ok' } as never}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph>
        {request?.account_ids ? BULK_FILTER.applyToSelected(request.account_ids.length) : BULK_FILTER.applyToAll(preview?.matched ?? request?.total ?? 0)}
      </Typography.Paragraph>
      {refusal && !preview && !job && <Alert style={{ marginBottom: 12 }} type="warning" showIcon message={refusal} data-testid="bulk-refusal" />}
      {!preview && !job && action === 'renew' && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <label htmlFor="bulk-months">Months</label>
          <MonthsInput id="bulk-months" value={months} onChange={setMonths} aria-invalid={Boolean(errors.months)} />
          {errors.months && <Typography.Text type="danger">{errors.months}</Typography.Text>}
        </Space>
      )}
      {!preview && !job && action === 'message' && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <label htmlFor="bulk-message">{BULK_FILTER.messageLabel}</label>
          <Input.TextArea
            id="bulk-message"
            rows={4}
            maxLength={1000}
            showCount
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            status={errors.message ? 'error' : undefined}
          />
          {errors.message && <Typography.Text type="danger">{errors.message}</Typography.Text>}
        </Space>
      )}
      {errors.account_ids && <Alert type="error" showIcon message={errors.account_ids} />}
      {preview && !job && (
        <div data-testid="bulk-preview" aria-live="polite">
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label="Accounts">{BULK_FILTER.matched(preview.matched)}</Descriptions.Item>
            <Descriptions.Item label={BULK_FILTER.apply}>{BULK_FILTER.applicable(preview.applicable)}</Descriptions.Item>
            {preview.action === 'renew' && (
              <Descriptions.Item label={BULK_FILTER.credits}>
                <span data-testid="bulk-credits">{plural(preview.credits, 'credit')}</span>
                {preview.bonus_credits > 0 && ` (${BULK_FILTER.bonusUsed(preview.bonus_credits)})`}
              </Descriptions.Item>
            )}
            {preview.action === 'renew' && preview.balance_before !== null && (
              <>
                <Descriptions.Item label={BULK_FILTER.balanceBefore}>
                  <span data-testid="bulk-balance-before">{plural(preview.balance_before, 'credit')}</span>
                </Descriptions.Item>
                <Descriptions.Item label={BULK_FILTER.balanceAfter}>
                  <span data-testid="bulk-balance-after">{plural(preview.balance_after ?? 0, 'credit')}</span>
                </Descriptions.Item>
              </>
            )}
          </Descriptions>
          {preview.insufficient && (
            <Alert
              style={{ marginTop: 12 }}
              type="error"
              showIcon
              message={CREDITS.insufficientCredits(preview.credits, preview.balance_before ?? 0)}
              data-testid="bulk-insufficient"
            />
          )}
          {preview.mode === 'job' && <Alert style={{ marginTop: 12 }} type="info" showIcon message={BULK_FILTER.asJob(preview.limit)} />}
          {preview.refused.length > 0 && (
            <Alert
              style={{ marginTop: 12 }}
              type="warning"
              showIcon
              message={BULK_FILTER.refusedTitle(preview.matched - preview.applicable)}
              description={
                <ul style={{ margin: 0, paddingInlineStart: 18 }} data-testid="bulk-refused">
                  {preview.refused.map((r) => (
                    <li key={r.reason}>
                      {r.reason} ({r.count}): {r.sample.map((s) => s.login).join(', ')}
                      {r.count > r.sample.length ? ', …' : ''}
                    </li>
                  ))}
                </ul>
              }
            />
          )}
        </div>
      )}
      {shown && (
        <div data-testid="bulk-job" aria-live="polite">
          <Typography.Paragraph>
            {BULK_FILTER.jobStatus[shown.status]}: {BULK_FILTER.progress(shown.processed, shown.total)}
          </Typography.Paragraph>
          <Progress percent={shown.total > 0 ? Math.floor((shown.processed * 100) / shown.total) : 100} status={shown.status === 'failed' ? 'exception' : undefined} />
          {shown.error && <Alert type="error" showIcon message={shown.error} />}
          <Space>
            <Typography.Text>
              {BULK_FILTER.done(shown.succeeded)} {shown.refused > 0 && `${plural(shown.refused, 'account')} ${BULK_FILTER.reportRefused}.`}
            </Typography.Text>
            <CsvDownload size="small" label={BULK_FILTER.report} request={() => ({ path: `accounts/bulk/${shown.id}/report` })} />
          </Space>
        </div>
      )}
    </Modal>
  );
}
