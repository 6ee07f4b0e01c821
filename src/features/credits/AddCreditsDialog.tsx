/**
 * Add Credits, for managers, resellers and dealers alike. The amounts come from the credit-option
 * endpoint (admin to a manager: the credit levels with their bonus; everyone else: the options capped
 * by the giver's balance, the amounts computed from it listed apart), a typed amount taken as typed
 * or refused under the field by the options' rules, and the fallback list when the lookup fails (docs/domain.md#amounts-and-minimums).
 */
import { Alert, Descriptions, Modal } from 'antd';
import { useCallback, useMemo } from 'react';
import {
  CREDITS,
  type CreditOption,
  type CreditOptionsResponse,
  DIALOGS,
  FALLBACK_CREDIT_OPTIONS,
  HIERARCHY,
  MANAGER_ALLOCATION_MAX,
  bonusOf,
  fallbackCreditOptions,
  plural,
  pricedOption,
} from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { AmountForm, type CreditDialogProps, type CreditMove, CreditTargetSummary, type CreditTarget, useCreditDialog } from './creditDialog';

const plain = (v: number): CreditOption => ({ value: v, display_text: plural(v, 'credit'), bonus_credits: 0, total_credits: v });

export function AddCreditsDialog({ entity, target, onClose }: CreditDialogProps) {
  const { user, role } = useCurrentUser();
  const admin = role === 'admin';
  const managerCap = admin && target?.role === 'manager';
  const ownPaid = user && user.credits !== null ? user.credits - (user.bonus_credits ?? 0) : 0;
  const dialog = useCreditDialog<CreditOptionsResponse>({
    entity,
    target,
    onClose,
    lookup: (t) => ({ url: 'credit-options/allocation', query: { user_id: t.id } }),
    failedTitle: CREDITS.addFailed,
    // Admin may type any amount (the manager cap aside); everyone else one within the options' rules
    // (or the fallback's), never more than its own paid credits.
    rules: (data) =>
      admin
        ? { min: 1, offered: data?.options.map((o) => o.value) }
        : data
          ? { min: data.min_credits, max: data.max_credits, step: data.step, balance: ownPaid, offered: data.options.map((o) => o.value) }
          : { min: FALLBACK_CREDIT_OPTIONS.start, max: ownPaid, balance: ownPaid },
    check: (amount) => (managerCap && amount > MANAGER_ALLOCATION_MAX ? CREDITS.adminAllocationCap : undefined),
  });
  /** The lookup failed: the fallback list (10 in steps of 5), whose bonus is unknown (then none is sent). */
  const fallback = dialog.loadFailed;
  const loaded = dialog.data?.options;

  const options = useMemo(
    () => (fallback ? fallbackCreditOptions(admin ? FALLBACK_CREDIT_OPTIONS.adminMax : ownPaid).map(plain) : (loaded ?? [])),
    [fallback, admin, ownPaid, loaded],
  );
  const rule = dialog.data?.bonus_rule;
  /** An amount with its bonus: the offered one, or a typed one priced by the rule the move applies. */
  const quote = useCallback(
    (amount: number) => options.find((o) => o.value === amount) ?? (!fallback && rule !== undefined ? pricedOption(amount, bonusOf(rule, amount)) : undefined),
    [options, fallback, rule],
  );
  const chosen = dialog.selected === undefined ? undefined : quote(dialog.selected);

  const move = (amount: number, to: CreditTarget): CreditMove => {
    const option = quote(amount);
    return {
      body: { action: 'renew', credits: amount, ...(!fallback && option ? { bonus_credits: option.bonus_credits } : {}) },
      done: (result) => {
        const bonus = result?.bonus_credits ?? 0;
        return { title: HIERARCHY.creditsAdded, description: `${amount} credits${bonus ? ` + ${bonus} bonus` : ''} added to ${to.name}.` };
      },
    };
  };

  return (
    <Modal {...dialog.modalProps} title={DIALOGS.addCredits} okText={DIALOGS.addCredits} onOk={() => dialog.submit(move)} okButtonProps={{ disabled: dialog.loading }}>
      <CreditTargetSummary target={target} label="Recipient" balance={target?.credits}>
        {!admin && <Descriptions.Item label="Your available credits">{plural(ownPaid, 'credit')}</Descriptions.Item>}
      </CreditTargetSummary>
      <AmountForm
        control={dialog.control}
        handleSubmit={dialog.handleSubmit}
        name="add-credits"
        onSubmit={dialog.send(move)}
        options={options}
        quote={quote}
        allowCustom={admin || fallback || dialog.data !== null}
        rules={dialog.rules}
        loading={dialog.loading}
      />
      {chosen && chosen.bonus_credits > 0 && (
        <Alert
          type="success"
          showIcon
          message={`Includes ${plural(chosen.bonus_credits, 'bonus credit')}: ${target?.name} receives ${plural(chosen.total_credits, 'credit')}.`}
        />
      )}
      {!dialog.loading && options.length === 0 && <Alert type="warning" showIcon message="No amounts are available for your balance." />}
    </Modal>
  );
}
