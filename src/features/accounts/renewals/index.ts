export * from './QuickRenewDialog';
export * from './BulkRenewDialog';
export { type RenewTarget, renewedExpiry } from './shared';
export { useRenewalQuote, validMonths } from './useRenewalQuote';
