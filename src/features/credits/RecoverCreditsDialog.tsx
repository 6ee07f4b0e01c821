/**
 * Recover Credits, for managers, resellers and dealers alike: the amounts from the entity's
 * recovery options (paid credits only; each takes back the bonus of the allocations it reaches),
 * never more than what is available.
 */
import { Alert, Descriptions, Modal } from 'antd';
import { CREDITS, DIALOGS, HIERARCHY, HIERARCHY_PANEL, type RecoveryOptionsResponse, plural } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { AmountForm, type CreditDialogProps, type CreditMove, CreditTargetSummary, type CreditTarget, useCreditDialog } from './creditDialog';

export function RecoverCreditsDialog({ entity, target, onClose }: CreditDialogProps) {
  const { role } = useCurrentUser();
  const dialog = useCreditDialog<RecoveryOptionsResponse>({
    entity,
    target,
    onClose,
    lookup: (t) => ({ url: `${entity}/${t.id}/credits/recovery-options` }),
    loadFailedMessage: CREDITS.recoveryOptionsFailed,
    failedTitle: HIERARCHY_PANEL.recoverFailed,
    errorAliases: { paid_credits: 'credits' },
    // Any whole number; more than the paid credits is the check below (it names them).
    rules: (recovery) => ({ min: 1, offered: recovery?.options.map((o) => o.value) }),
    check: (amount, recovery) => {
      const available = recovery?.available_paid_credits ?? 0;
      return amount > available ? CREDITS.cannotRecover(available) : undefined;
    },
  });
  const recovery = dialog.data;
  const available = recovery?.available_paid_credits ?? 0;
  // The bonus the selected amount takes back, as its option says (any amount may reach a bonus).
  const picked = recovery?.options.find((o) => o.value === dialog.selected);
  const removed = picked ? picked.bonus_credits : dialog.selected === available ? (recovery?.bonus_credits_to_zero ?? 0) : 0;
  const removesBonus = recovery && removed > 0;

  /** Nothing is sent before the recovery options are known. */
  const move = (amount: number, from: CreditTarget): CreditMove | null =>
    recovery
      ? {
          body: { action: 'recover', credits: amount },
          done: () => ({ title: HIERARCHY.creditsRecovered, description: `${amount} credits recovered from ${from.name}.` }),
        }
      : null;

  return (
    <Modal
      {...dialog.modalProps}
      title={DIALOGS.recoverCredits}
      okText={DIALOGS.recoverCredits}
      okButtonProps={{ danger: true, disabled: dialog.loading || dialog.loadFailed || available <= 0 }}
      onOk={() => dialog.submit(move)}
    >
      <CreditTargetSummary target={target} label="From" balance={recovery?.user_credits ?? target?.credits}>
        {recovery && <Descriptions.Item label="Available paid credits">{plural(available, 'credit')}</Descriptions.Item>}
        {recovery && recovery.bonus_credits > 0 && <Descriptions.Item label="Bonus credits">{plural(recovery.bonus_credits, 'credit')}</Descriptions.Item>}
      </CreditTargetSummary>
      {dialog.loadFailed && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={CREDITS.recoveryOptionsFailed} />}
      {recovery?.message && <Alert type={available > 0 ? 'info' : 'warning'} showIcon style={{ marginBottom: 16 }} message={recovery.message} />}
      <AmountForm
        control={dialog.control}
        handleSubmit={dialog.handleSubmit}
        name="recover-credits"
        onSubmit={dialog.send(move)}
        options={recovery?.options ?? []}
        allowCustom={role === 'admin' || available > 0}
        rules={dialog.rules}
        loading={dialog.loading}
        disabled={dialog.loadFailed}
      />
      {removesBonus && <Alert type="warning" showIcon message={HIERARCHY.recoveryBonusTakenBack(removed)} />}
    </Modal>
  );
}
