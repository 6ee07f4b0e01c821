export * from './TwoFactorCard';
