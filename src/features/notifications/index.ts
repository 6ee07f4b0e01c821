export * from './useNotifications';
export * from './NotificationSettingsCard';
