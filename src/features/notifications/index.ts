export * from './useNotifications';
