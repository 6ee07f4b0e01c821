// The dialogs are imported from their own modules, or as lazyDialogs.ts loads them: re-exported here,
// their code would load with every list that only needs the columns and the row actions.
export { accountColumns } from './columns';
export { accountListProps, useAccountActions } from './useAccountActions';
export { useAccountServers } from './useServers';
export { useTrialSettings } from './useTrialSettings';
