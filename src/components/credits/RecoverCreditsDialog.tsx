/**
 * Recover Credits, for managers, resellers and dealers alike: the amounts from the entity's
 * recovery options (paid credits only; taking them all also removes the bonus), never more than
 * what is available.
 */
import { Alert, Descriptions, Modal } from 'antd';
import { CREDITS, DIALOGS, HIERARCHY, HIERARCHY_PANEL, type RecoveryOptionsResponse } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { http } from '../../providers/http';
import { postCreditCall } from './creditCall';
import { AmountForm, type CreditDialogProps, CreditTargetSummary, useCreditDialog } from './creditDialog';

export function RecoverCreditsDialog({ entity, target, onClose }: CreditDialogProps) {
  const { role } = useCurrentUser();
  const dialog = useCreditDialog<RecoveryOptionsResponse>({
    entity,
    target,
    onClose,
    load: (t) => http.get<{ data: RecoveryOptionsResponse }>(`${entity}/${t.id}/credits/recovery-options`).then(({ data }) => data.data),
    loadFailedMessage: CREDITS.recoveryOptionsFailed,
    failedTitle: HIERARCHY_PANEL.recoverFailed,
    errorFields: ['credits', 'paid_credits'],
  });
  const recovery = dialog.data;
  const available = recovery?.available_paid_credits ?? 0;
  const removesBonus = recovery && dialog.selected === available && recovery.bonus_credits_to_zero > 0;

  const submit = async () => {
    if (!recovery) return;
    await dialog.submit(async (amount, key, from) => {
      await postCreditCall(entity, from.id, 'credits', { action: 'recover', credits: amount }, key);
      return { title: HIERARCHY.creditsRecovered, description: `${amount} credits recovered from ${from.name}.` };
    });
  };

  return (
    <Modal
      {...dialog.modalProps}
      title={DIALOGS.recoverCredits}
      okText={DIALOGS.recoverCredits}
      okButtonProps={{ danger: true, disabled: dialog.loading || dialog.loadFailed || available <= 0 }}
      onOk={submit}
    >
      <CreditTargetSummary target={target} label="From" balance={recovery?.user_credits ?? target?.credits}>
        {recovery && <Descriptions.Item label="Available paid credits">{available} credits</Descriptions.Item>}
        {recovery && recovery.bonus_credits > 0 && <Descriptions.Item label="Bonus credits">{recovery.bonus_credits} credits</Descriptions.Item>}
      </CreditTargetSummary>
      {dialog.loadFailed && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={CREDITS.recoveryOptionsFailed} />}
      {recovery?.message && <Alert type={available > 0 ? 'info' : 'warning'} showIcon style={{ marginBottom: 16 }} message={recovery.message} />}
      <AmountForm
        form={dialog.form}
        name="recover-credits"
        onFinish={submit}
        check={(amount) => (amount > available ? CREDITS.cannotRecover(available) : undefined)}
        options={recovery?.options ?? []}
        allowCustom={role === 'admin'}
        loading={dialog.loading}
        disabled={dialog.loadFailed}
      />
      {removesBonus && <Alert type="warning" showIcon message={HIERARCHY.recoveryBonusWarning(recovery.bonus_credits_to_zero)} />}
    </Modal>
  );
}
