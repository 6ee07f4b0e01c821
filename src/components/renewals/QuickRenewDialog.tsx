/**
 * Quick Renew Account (spec 2, 5): months 1 to 50, the price from the discount lookup, the balance
 * checked before sending, 'Renewal Failed' with the server's message; the header's credits and the
 * lists refresh afterwards.
 */
import { Descriptions } from 'antd';
import { useMemo } from 'react';
import { ACCOUNTS, ACCOUNT_SCREEN, DATETIME_FORMAT, RENEWAL } from '../../contract';
import { http } from '../../providers/http';
import { withIdempotencyKey } from '../../providers/idempotency';
import { ExpiryCell } from '../display/ExpiryCell';
import { INVALID_MONTHS, RenewalDialog, type RenewTarget, renewedExpiry } from './shared';
import { validMonths } from './useRenewalQuote';

export interface QuickRenewDialogProps {
  /** The account to renew; the dialog is open while it is set. */
  account: RenewTarget | null;
  onClose: () => void;
  onRenewed?: () => void;
}

const QUICK = {
  title: ACCOUNT_SCREEN.quickRenewTitle,
  okText: RENEWAL.quickRenew,
  monthsError: () => INVALID_MONTHS,
  errorAliases: { credits: 'months' },
};

export function QuickRenewDialog({ account, onClose, onRenewed }: QuickRenewDialogProps) {
  const servers = useMemo(() => (account ? [account.server_id] : []), [account]);

  const send = async (months: number, key: string) => {
    await http.post(`accounts/${account!.id}/credits`, { action: 'renew', months }, withIdempotencyKey(`${key}:${months}`));
    return ACCOUNTS.renewed;
  };

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

  return <RenewalDialog {...QUICK} opening={account} servers={servers} send={send} header={header} onClose={onClose} onRenewed={onRenewed} />;
}
