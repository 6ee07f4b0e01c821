export * from './AddCreditsDialog';
export * from './RecoverCreditsDialog';
export * from './AmountSelect';
export * from './creditCall';
export * from './creditDialog';
export * from './creditErrors';
export * from './useCreditDialogs';
