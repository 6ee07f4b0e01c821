export * from './SessionsCard';
export * from './ViewAsBanner';
export * from './useViewAs';
