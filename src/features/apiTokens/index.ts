export * from './ApiTokensCard';
