/**
 * Quick Renew Account (docs/domain.md#renewals-and-expiry): months 1 to 50, the price from the discount lookup, the balance
 * checked before sending, 'Renewal Failed' with the server's message; the header's credits and the
 * lists refresh afterwards.
 */
import { Descriptions } from 'antd';
import { useMemo } from 'react';
import { z } from 'zod';
import { ACCOUNTS, ACCOUNT_SCREEN, DATETIME_FORMAT, RENEWAL, accountCreditsBody } from '../../../contract';
import { ExpiryCell } from '../ExpiryCell';
import { RenewalDialog, type RenewTarget, renewedExpiry, titledMonths } from './shared';
import { validMonths } from './useRenewalQuote';

export interface QuickRenewDialogProps {
  /** The account to renew; the dialog is open while it is set. */
  account: RenewTarget | null;
  onClose: () => void;
  onRenewed?: () => void;
}

/** The form: the months of POST /accounts/{id}/credits, by the API's own rule. */
export const quickRenewForm = z.object({ months: titledMonths(accountCreditsBody.shape.months) });

const QUICK = {
  name: 'quick-renew',
  title: ACCOUNT_SCREEN.quickRenewTitle,
  okText: RENEWAL.quickRenew,
  schema: quickRenewForm,
  errorAliases: { credits: 'months' as const },
};

export function QuickRenewDialog({ account, onClose, onRenewed }: QuickRenewDialogProps) {
  const servers = useMemo(() => (account ? [account.server_id] : []), [account]);

  const call = useMemo(
    () => (account ? { path: `accounts/${account.id}/credits`, body: (months: number) => ({ action: 'renew', months }), success: () => ACCOUNTS.renewed } : null),
    [account],
  );

  const header = (months: unknown) =>
    account && (
      <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="Account">{account.login}</Descriptions.Item>
        <Descriptions.Item label="Current expiry">
          <ExpiryCell value={account.expiry_date} />
        </Descriptions.Item>
        {validMonths(months) && (
          <Descriptions.Item label="New expiry">
            <span data-testid="renewal-new-expiry">{renewedExpiry(account.expiry_date, months).format(DATETIME_FORMAT)}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
    );

  return <RenewalDialog {...QUICK} opening={account} servers={servers} call={call} header={header} onClose={onClose} onRenewed={onRenewed} />;
}
