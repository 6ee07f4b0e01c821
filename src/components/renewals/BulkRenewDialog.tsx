/**
 * Bulk Renew Accounts (spec 2, 5): months greater than 0 (and at most 50), the total price over the
 * selected accounts, the balance check, one all-or-nothing call.
 */
import { Typography } from 'antd';
import { useMemo } from 'react';
import { ACCOUNTS, ACCOUNT_SCREEN, RENEWAL } from '../../contract';
import { http } from '../../providers/http';
import { withIdempotencyKey } from '../../providers/idempotency';
import { INVALID_MONTHS, RenewalDialog, type RenewTarget } from './shared';

export interface BulkRenewDialogProps {
  /** The accounts to renew; the dialog is open while it is set. */
  accounts: RenewTarget[] | null;
  onClose: () => void;
  onRenewed?: () => void;
}

const BULK = {
  title: ACCOUNT_SCREEN.bulkRenewTitle,
  okText: RENEWAL.bulkRenew,
  monthsError: (v: unknown) => (typeof v !== 'number' || v <= 0 ? ACCOUNT_SCREEN.bulkMonthsPositive : INVALID_MONTHS),
  errorAliases: { credits: 'months', account_ids: 'months' },
};

export function BulkRenewDialog({ accounts, onClose, onRenewed }: BulkRenewDialogProps) {
  const servers = useMemo(() => (accounts ?? []).map((a) => a.server_id), [accounts]);
  const count = accounts?.length ?? 0;

  const send = async (months: number, key: string) => {
    const ids = (accounts ?? []).map((a) => a.id);
    const { data } = await http.post<{ message?: string }>('accounts/bulk-renew', { account_ids: ids, months }, withIdempotencyKey(`${key}:${months}`));
    return data?.message ?? ACCOUNTS.bulkDone(ids.length, 'renewed');
  };

  const header = () => (
    <Typography.Paragraph>
      {count} account(s) selected: {(accounts ?? []).slice(0, 10).map((a) => a.login).join(', ')}
      {count > 10 ? ', ...' : ''}
    </Typography.Paragraph>
  );

  return <RenewalDialog {...BULK} opening={accounts} servers={servers} count={count} send={send} header={header} onClose={onClose} onRenewed={onRenewed} />;
}
