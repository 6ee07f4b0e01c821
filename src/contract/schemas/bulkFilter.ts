/**
 * Bulk by filter (docs/domain.md#bulk-by-filter): bulk renew, suspend, activate and message on a
 * selection of accounts or on everything the accounts list's filter matches, previewed first, then
 * applied once: in one transaction up to BULK_MAX accounts, as a job in chunks above it.
 */
import { z } from 'zod';
import type { CsvExport } from '../exports';
import { BULK_FILTER } from '../bulkFilterMessages';
import { ACCOUNTS } from '../messages';
import { integerInput, requiredText } from './common';
import { BULK_MAX, monthsField } from './accounts';
import { MAX_RECORD_ID } from '../constants';

export const BULK_FILTER_ACTIONS = ['renew', 'suspend', 'activate', 'message'] as const;
export type BulkFilterAction = (typeof BULK_FILTER_ACTIONS)[number];
export const BULK_JOB_STATUSES = ['previewed', 'running', 'done', 'failed'] as const;
export type BulkJobStatus = (typeof BULK_JOB_STATUSES)[number];
/** How many refused accounts each reason names in a preview. */
export const BULK_SAMPLE_ROWS = 5;

const selectedIds = z
  .array(z.preprocess(integerInput, z.number().int().positive().max(MAX_RECORD_ID)), { error: ACCOUNTS.accountIdsRequired })
  .min(1, ACCOUNTS.accountIdsRequired)
  .max(BULK_MAX, ACCOUNTS.bulkTooMany(BULK_MAX))
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

/**
 * The accounts list's own filters (filter name -> value, `search` for the search box), read by the
 * list's parser: the same names, values and messages as GET /accounts.
 */
const listFilter = z.record(z.string().max(64), z.string().max(255));

export const bulkFilterBody = z
  .object({
    action: z.enum(BULK_FILTER_ACTIONS),
    months: monthsField.optional(),
    message: requiredText(ACCOUNTS.messageRequired, 1000).optional(),
    account_ids: selectedIds.optional(),
    filter: listFilter.optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.account_ids === undefined) === (body.filter === undefined)) ctx.addIssue({ code: 'custom', path: ['account_ids'], message: BULK_FILTER.targetRequired });
    if (body.action === 'renew' && body.months === undefined) ctx.addIssue({ code: 'custom', path: ['months'], message: BULK_FILTER.monthsRequired });
    if (body.action === 'message' && body.message === undefined) ctx.addIssue({ code: 'custom', path: ['message'], message: ACCOUNTS.messageRequired });
  });
export type BulkFilterBody = z.infer<typeof bulkFilterBody>;

const accountRef = z.object({ id: z.number(), login: z.string() });

export const bulkPreviewEntity = z.object({
  /** The preview's id: POST /accounts/bulk/{id}/apply applies it, once. */
  id: z.number(),
  action: z.enum(BULK_FILTER_ACTIONS),
  months: z.number().nullable(),
  /** Accounts the selection or filter holds. */
  matched: z.number(),
  /** Those the action changes; the others are refused, by reason. */
  applicable: z.number(),
  /** What the renewals cost the caller, discounts applied (0 for other actions and for admin). */
  credits: z.number(),
  /** The part of it paid with bonus (promo) credits. */
  bonus_credits: z.number(),
  /** The caller's balance now and after; null for admin, who holds none. */
  balance_before: z.number().nullable(),
  balance_after: z.number().nullable(),
  insufficient: z.boolean(),
  refused: z.array(z.object({ reason: z.string(), count: z.number(), sample: z.array(accountRef) })),
  /** direct: one all-or-nothing operation; job: above the bulk limit, in chunks with progress and a report. */
  mode: z.enum(['direct', 'job']),
  limit: z.number(),
  expires_at: z.string(),
});
export type BulkPreview = z.infer<typeof bulkPreviewEntity>;

export const bulkJobEntity = z.object({
  id: z.number(),
  action: z.enum(BULK_FILTER_ACTIONS),
  months: z.number().nullable(),
  status: z.enum(BULK_JOB_STATUSES),
  mode: z.enum(['direct', 'job']),
  total: z.number(),
  processed: z.number(),
  succeeded: z.number(),
  refused: z.number(),
  credits: z.number(),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type BulkJob = z.infer<typeof bulkJobEntity>;

/** One row of a bulk operation's report. */
export interface BulkResultRow {
  account_id: number;
  login: string;
  status: string;
  reason: string | null;
  credits: number;
  transaction_number: string | null;
  expiry_date: string | null;
}

export const BULK_REPORT: CsvExport<BulkResultRow> = {
  filename: 'bulk-report',
  columns: [
    { title: 'Account ID', value: (r) => r.account_id },
    { title: 'Login', value: (r) => r.login },
    { title: 'Result', value: (r) => r.status },
    { title: 'Reason', value: (r) => r.reason },
    { title: 'Credits', value: (r) => r.credits },
    { title: 'Transaction', value: (r) => r.transaction_number },
    { title: 'Expiry', value: (r) => r.expiry_date },
  ],
};
