/** The Add Credits and Recover Credits dialogs of one list, opened from its row actions. */
import { useState } from 'react';
import { AddCreditsDialog } from './AddCreditsDialog';
import type { CreditEntity } from './creditCall';
import type { CreditTarget } from './creditDialog';
import { RecoverCreditsDialog } from './RecoverCreditsDialog';
import { MountWhenOpened } from '../../components/feedback';

export function useCreditDialogs(entity: CreditEntity) {
  const [adding, setAdding] = useState<CreditTarget | null>(null);
  const [recovering, setRecovering] = useState<CreditTarget | null>(null);
  return {
    openAdd: (target: CreditTarget) => setAdding(target),
    openRecover: (target: CreditTarget) => setRecovering(target),
    dialogs: (
      <>
        <MountWhenOpened open={adding !== null}>
          <AddCreditsDialog entity={entity} target={adding} onClose={() => setAdding(null)} />
        </MountWhenOpened>
        <MountWhenOpened open={recovering !== null}>
          <RecoverCreditsDialog entity={entity} target={recovering} onClose={() => setRecovering(null)} />
        </MountWhenOpened>
      </>
    ),
  };
}
