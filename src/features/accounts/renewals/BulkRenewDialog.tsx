/**
 * Bulk Renew Accounts (docs/domain.md#renewals-and-expiry): the contract's months (1 to 50), the total price over the
 * selected accounts, the balance check, one all-or-nothing call.
 */
import { Typography } from 'antd';
import { useMemo } from 'react';
import { z } from 'zod';
import { ACCOUNTS, ACCOUNT_SCREEN, RENEWAL, bulkRenewBody, plural } from '../../../contract';
import { RenewalDialog, type RenewTarget, titledMonths } from './shared';

export interface BulkRenewDialogProps {
  /** The accounts to renew; the dialog is open while it is set. */
  accounts: RenewTarget[] | null;
  onClose: () => void;
  onRenewed?: () => void;
}

/** The form: the months of POST /accounts/bulk-renew by the API's own rule, so the field and the 422 say the same. */
export const bulkRenewForm = z.object({ months: titledMonths(bulkRenewBody.shape.months) });

const BULK = {
  name: 'bulk-renew',
  title: ACCOUNT_SCREEN.bulkRenewTitle,
  okText: RENEWAL.bulkRenew,
  schema: bulkRenewForm,
  errorAliases: { credits: 'months' as const, account_ids: 'months' as const },
};

export function BulkRenewDialog({ accounts, onClose, onRenewed }: BulkRenewDialogProps) {
  const servers = useMemo(() => (accounts ?? []).map((a) => a.server_id), [accounts]);
  const count = accounts?.length ?? 0;

  const call = useMemo(() => {
    if (!accounts) return null;
    const ids = accounts.map((a) => a.id);
    return {
      path: 'accounts/bulk-renew',
      body: (months: number) => ({ account_ids: ids, months }),
      success: (answer: { message?: string } | null | undefined) => answer?.message ?? ACCOUNTS.bulkDone(ids.length, 'renewed'),
    };
  }, [accounts]);

  const header = () => (
    <Typography.Paragraph>
      {plural(count, 'account')} selected:{' '}
      {(accounts ?? [])
        .slice(0, 10)
        .map((a) => a.login)
        .join(', ')}
      {count > 10 ? ', ...' : ''}
    </Typography.Paragraph>
  );

  return <RenewalDialog {...BULK} opening={accounts} servers={servers} count={count} call={call} header={header} onClose={onClose} onRenewed={onRenewed} />;
}
