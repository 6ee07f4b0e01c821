export * from './QuickRenewDialog';
export { type RenewTarget, renewedExpiry } from './shared';
export { useRenewalQuote, validMonths } from './useRenewalQuote';
