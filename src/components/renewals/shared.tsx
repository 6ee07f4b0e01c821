/** What the renewal dialogs share: the target shape, the price summary and the success handling. */
import { useInvalidate, useInvalidateAuthStore } from '@refinedev/core';
import { Alert, Descriptions, Space, Spin, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useCallback } from 'react';
import { CREDITS, RENEWAL } from '../../contract';
import type { RenewalPrice } from './useRenewalQuote';

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
  const invalidateAuth = useInvalidateAuthStore();
  const invalidate = useInvalidate();
  return useCallback(async () => {
    await Promise.all([
      invalidateAuth(),
      invalidate({ resource: 'accounts', invalidates: ['list', 'detail'] }),
      invalidate({ resource: 'user-search', invalidates: ['list'] }),
    ]);
  }, [invalidateAuth, invalidate]);
}

export function PriceSummary({ price, count = 1 }: { price: RenewalPrice; count?: number }) {
  const discounts = price.quotes.filter((q) => q.discount_id !== null);
  const admin = price.balance === null && price.quotes.length > 0 && price.quotes.every((q) => q.payable_credits === 0);
  return (
    <Spin spinning={price.loading} size="small">
      <Descriptions size="small" column={1} bordered data-testid="renewal-price">
        <Descriptions.Item label="Price">
          <Space wrap>
            <Typography.Text strong data-testid="renewal-total">
              {price.quotes.length ? `${price.total} credit${price.total === 1 ? '' : 's'}` : '—'}
            </Typography.Text>
            {count > 1 && <Typography.Text type="secondary">for {count} accounts</Typography.Text>}
            {price.regular > price.total && !admin && <Typography.Text delete type="secondary">{price.regular}</Typography.Text>}
            {admin && <Typography.Text type="secondary">Administrators renew without spending credits</Typography.Text>}
          </Space>
        </Descriptions.Item>
        {discounts.length > 0 && !admin && (
          <Descriptions.Item label="Discount">
            <Space wrap>
              {discounts.map((q) => (
                <Tag color="green" key={q.discount_id}>
                  {q.discount_name}: save {q.savings} credit{q.savings === 1 ? '' : 's'}
                  {q.bonus_months > 0 ? ` (${q.bonus_months} bonus month${q.bonus_months === 1 ? '' : 's'})` : ''}
                </Tag>
              ))}
            </Space>
          </Descriptions.Item>
        )}
        {price.balance !== null && (
          <Descriptions.Item label="Your balance">
            <span data-testid="renewal-balance">{price.balance} credits</span>
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
