/**
 * The price of renewing some accounts for some months (POST /global-discounts/calculate-credits,
 * one call per server involved, through the data provider), the caller's balance, and whether it
 * covers the price.
 */
import { useCustomMutation } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { REFETCH_DELAY_MS, RENEW_MONTHS, type RenewalQuote } from '../../../contract';

export interface Quote extends RenewalQuote {
  payable_credits: number;
  user_credits: number | null;
  sufficient: boolean;
}

export interface RenewalPrice {
  /** One quote per server (key: server id, or 'branch' when the account has none). */
  quotes: Quote[];
  /** Credits the caller pays for all the accounts (0 for admin). */
  total: number;
  /** What the same months cost without discounts. */
  regular: number;
  /** The caller's balance; null for admin, who pays nothing. */
  balance: number | null;
  sufficient: boolean;
  loading: boolean;
  error: string | null;
}

export const validMonths = (months: unknown): months is number =>
  typeof months === 'number' && Number.isInteger(months) && months >= RENEW_MONTHS.min && months <= RENEW_MONTHS.max;

const EMPTY: RenewalPrice = { quotes: [], total: 0, regular: 0, balance: null, sufficient: true, loading: false, error: null };

/**
 * `servers`: the server id of each account to renew (repeated ids count once per account).
 *
 * Never stale: an answer counts only for the servers and months it was asked for. From the render
 * where the months change until the answer for them arrives, the price is loading and names no figure
 * (a form's submit waits on `loading`), so the previous months' total never shows beside the new months.
 */
export function useRenewalQuote(servers: Array<number | null>, months: unknown, enabled = true): RenewalPrice {
  const key = servers.map((s) => s ?? 'branch').join(',');
  const wanted = enabled && validMonths(months) && servers.length > 0 ? `${key}|${months}` : null;
  const [state, setState] = useState<{ for: string | null; price: RenewalPrice }>({ for: null, price: EMPTY });
  // A read answered by a POST, for a number of servers known only at run time: one custom call each,
  // sent after the typing pauses (useCustom holds one call per hook).
  const { mutateAsync: calculate } = useCustomMutation<{ data: Quote }>();

  useEffect(() => {
    if (wanted === null) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      const counts = new Map<number | null, number>();
      for (const s of servers) counts.set(s, (counts.get(s) ?? 0) + 1);
      try {
        const quotes = await Promise.all(
          [...counts.keys()].map((server_id) =>
            calculate({
              url: 'global-discounts/calculate-credits',
              method: 'post',
              values: { months, ...(server_id !== null ? { server_id } : {}) },
              successNotification: false,
              errorNotification: false,
            }).then((r) => r.data.data),
          ),
        );
        if (cancelled) return;
        const entries = [...counts.values()];
        const total = quotes.reduce((sum, q, i) => sum + q.payable_credits * entries[i], 0);
        const regular = quotes.reduce((sum, q, i) => sum + q.regular_credits * entries[i], 0);
        const balance = quotes[0]?.user_credits ?? null;
        setState({ for: wanted, price: { quotes, total, regular, balance, sufficient: balance === null || balance >= total, loading: false, error: null } });
      } catch (error) {
        if (!cancelled) setState({ for: wanted, price: { ...EMPTY, error: (error as Error).message ?? null } });
      }
    }, REFETCH_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted]);

  if (wanted === null) return EMPTY;
  // Until the answer for these servers and months: loading, with the balance known so far and no price.
  if (state.for !== wanted) return { ...EMPTY, balance: state.price.balance, loading: true };
  return state.price;
}
