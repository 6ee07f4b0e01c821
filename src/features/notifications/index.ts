export * from './useNotifications';
export * from './NotificationSettingsCard';
export * from './SmtpSettingsCard';
