/**
 * Add Credits, for managers, resellers and dealers alike. The amounts come from the credit-option
 * endpoint (admin to a manager: the credit levels with their bonus; everyone else: the options capped
 * by the giver's balance), with the spec's fallback list when the lookup fails.
 */
import { Alert, Descriptions, Modal } from 'antd';
import { useMemo } from 'react';
import {
  CREDITS,
  type CreditOption,
  type CreditOptionsResponse,
  DIALOGS,
  FALLBACK_CREDIT_OPTIONS,
  HIERARCHY,
  MANAGER_ALLOCATION_MAX,
  fallbackCreditOptions,
} from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { http } from '../../providers/http';
import { postCreditCall } from './creditCall';
import { AmountForm, type CreditDialogProps, CreditTargetSummary, useCreditDialog } from './creditDialog';

const plain = (v: number): CreditOption => ({ value: v, display_text: `${v} credits`, bonus_credits: 0, total_credits: v });

export function AddCreditsDialog({ entity, target, onClose }: CreditDialogProps) {
  const { user, role } = useCurrentUser();
  const admin = role === 'admin';
  const dialog = useCreditDialog<CreditOption[]>({
    entity,
    target,
    onClose,
    load: (t) => http.get<{ data: CreditOptionsResponse }>('credit-options/allocation', { params: { user_id: t.id } }).then(({ data }) => data.data.options),
    failedTitle: CREDITS.addFailed,
    errorFields: ['credits'],
  });
  /** The lookup failed: the spec's fallback list, whose bonus is unknown (then none is sent). */
  const fallback = dialog.loadFailed;
  const loaded = dialog.data;

  const ownPaid = user && user.credits !== null ? user.credits - (user.bonus_credits ?? 0) : 0;
  const managerCap = admin && target?.role === 'manager';
  const options = useMemo(
    () => (fallback ? fallbackCreditOptions(admin ? FALLBACK_CREDIT_OPTIONS.adminMax : ownPaid).map(plain) : (loaded ?? [])),
    [fallback, admin, ownPaid, loaded],
  );
  const chosen = options.find((o) => o.value === dialog.selected);

  const submit = () =>
    dialog.submit(async (amount, key, to) => {
      const option = options.find((o) => o.value === amount);
      const body: Record<string, unknown> = { action: 'renew', credits: amount };
      if (!fallback && option) body.bonus_credits = option.bonus_credits;
      const result = await postCreditCall(entity, to.id, 'credits', body, key);
      const bonus = result.data?.bonus_credits ?? 0;
      return { title: HIERARCHY.creditsAdded, description: `${amount} credits${bonus ? ` + ${bonus} bonus` : ''} added to ${to.name}.` };
    });

  return (
    <Modal {...dialog.modalProps} title={DIALOGS.addCredits} okText={DIALOGS.addCredits} onOk={submit} okButtonProps={{ disabled: dialog.loading }}>
      <CreditTargetSummary target={target} label="Recipient" balance={target?.credits}>
        {!admin && <Descriptions.Item label="Your available credits">{ownPaid} credits</Descriptions.Item>}
      </CreditTargetSummary>
      <AmountForm
        form={dialog.form}
        name="add-credits"
        onFinish={submit}
        check={(amount) => (managerCap && amount > MANAGER_ALLOCATION_MAX ? CREDITS.adminAllocationCap : undefined)}
        options={options}
        allowCustom={admin}
        loading={dialog.loading}
      />
      {chosen && chosen.bonus_credits > 0 && (
        <Alert
          type="success"
          showIcon
          message={`Includes ${chosen.bonus_credits} bonus credits: ${target?.name} receives ${chosen.total_credits} credits.`}
        />
      )}
      {!dialog.loading && options.length === 0 && <Alert type="warning" showIcon message="No amounts are available for your balance." />}
    </Modal>
  );
}
