/** A user's credit statement for a date range (docs/domain.md#statements). */
import { z } from 'zod';
import { userRefEntity } from './common';

const ENTRY_TYPE = z.string();

export const statementEntryEntity = z.object({
  id: z.number(),
  transaction_number: z.string(),
  type: ENTRY_TYPE,
  credits: z.number(),
  bonus_credits: z.number(),
  balance_before: z.number(),
  balance_after: z.number(),
  /** The end-user account the entry is for (a renewal, a purchase), by login. */
  account: z.string().nullable(),
  account_id: z.number().nullable(),
  /** The member on the other side of a move (the parent who gave, the child who received). */
  counterparty: userRefEntity.nullable(),
  /** Who made the move (the user itself, a parent, an admin); null for the system (auto-renew). */
  actor: userRefEntity.nullable(),
  remarks: z.string().nullable(),
  created_at: z.string(),
});

export const statementTotalEntity = z.object({ type: ENTRY_TYPE, count: z.number(), credits: z.number() });

export const statementEntity = z.object({
  user: userRefEntity,
  /** The range's first and last calendar days (UTC), both included. */
  date_from: z.string(),
  date_to: z.string(),
  opening_balance: z.number(),
  closing_balance: z.number(),
  /** The sum of the range's entries: closing_balance - opening_balance. */
  net_change: z.number(),
  totals: z.array(statementTotalEntity),
  entry_count: z.number(),
  /** The first entries of the range on screen; the CSV has them all. */
  entries: z.array(statementEntryEntity),
  entries_truncated: z.boolean(),
});

/** date_from and date_to: calendar days (YYYY-MM-DD), UTC, both included. */
export const statementQuery = z
  .object({
    date_from: z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'The date from must be a date (YYYY-MM-DD).'),
    date_to: z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'The date to must be a date (YYYY-MM-DD).'),
  })
  .refine((q) => !Number.isNaN(Date.parse(q.date_from)), { path: ['date_from'], message: 'The date from must be a date (YYYY-MM-DD).' })
  .refine((q) => !Number.isNaN(Date.parse(q.date_to)), { path: ['date_to'], message: 'The date to must be a date (YYYY-MM-DD).' })
  .refine((q) => q.date_from <= q.date_to, { path: ['date_to'], message: 'The date to must be on or after the date from.' });

export type Statement = z.infer<typeof statementEntity>;
export type StatementEntry = z.infer<typeof statementEntryEntity>;
