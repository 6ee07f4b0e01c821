export { AccountFormDialog, type AccountFormDialogProps } from './AccountFormDialog';
export { accountColumns } from './columns';
export { AutoRenewDialog, BulkMessageDialog, StbInfoDrawer, TransactionsDrawer } from './dialogs';
export { accountListProps, useAccountActions } from './useAccountActions';
export { useAccountServers } from './useServers';
export { useTrialSettings } from './useTrialSettings';
