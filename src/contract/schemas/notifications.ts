/**
 * Notifications (docs/domain.md#notifications): the panel's inbox, the delivery log, each user's
 * channels and thresholds (GET and PUT /profile/notifications) and the admin's SMTP server
 * (GET and PUT /smtp-settings).
 */
import { z } from 'zod';
import { NOTIFICATIONS } from '../notificationMessages';
import { labelled } from './fieldMeta';
import { listMetaSchema } from './common';

export const NOTIFICATION_TYPES = ['account_expiring', 'account_expired', 'low_balance', 'credits_received', 'ticket_reply', 'announcement'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_CHANNELS = ['panel', 'email', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const REMINDER_DAYS = [1, 3, 7, 30] as const;
export const DEFAULT_LOW_BALANCE_THRESHOLD = 10;
export const DEFAULT_REMINDER_DAYS = 7;

export const notificationEntity = z.object({
  id: z.number(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  text: z.string(),
  /** A panel path that shows what it is about, or null. */
  link: z.string().nullable(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type AppNotification = z.infer<typeof notificationEntity>;

export const notificationListAnswer = z.object({ data: z.array(notificationEntity), meta: listMetaSchema, unread_count: z.number() });

export const deliveryEntity = z.object({
  id: z.number(),
  channel: z.enum(['email', 'webhook']),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
  event: z.object({ type: z.enum(NOTIFICATION_TYPES), title: z.string() }),
});
export type Delivery = z.infer<typeof deliveryEntity>;

const eventList = z
  .array(z.enum(NOTIFICATION_TYPES, { error: NOTIFICATIONS.channelsInvalid }), { error: NOTIFICATIONS.channelsInvalid })
  .max(NOTIFICATION_TYPES.length, NOTIFICATIONS.channelsInvalid)
  .refine((types) => new Set(types).size === types.length, NOTIFICATIONS.channelsInvalid);

export const notificationChannelsSchema = z.object({ panel: eventList, email: eventList, webhook: eventList });
export type NotificationChannels = z.infer<typeof notificationChannelsSchema>;

export const defaultChannels = (): NotificationChannels => ({ panel: [...NOTIFICATION_TYPES], email: [...NOTIFICATION_TYPES], webhook: [...NOTIFICATION_TYPES] });

export const notificationSettingsEntity = z.object({
  email: z.string().nullable(),
  channels: notificationChannelsSchema,
  low_balance_threshold: z.number(),
  expiry_reminder_days: z.number(),
  webhook_url: z.string().nullable(),
  webhook_secret_set: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsEntity>;

/** An http(s) URL without credentials in it; a redirect is never followed when it is called. */
export const isWebhookUrl = (text: string): boolean => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.hostname !== '';
  } catch {
    return false;
  }
};

const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

/** A change of the caller's settings: fields not given keep theirs; null clears the e-mail or webhook. */
export const notificationSettingsBody = z.object({
  email: labelled(
    z.preprocess(emptyToNull, z.email({ error: NOTIFICATIONS.emailInvalid }).max(254, NOTIFICATIONS.emailInvalid).nullable()).optional(),
    NOTIFICATIONS.emailLabel,
  ),
  channels: z
    .object({ panel: eventList.optional(), email: eventList.optional(), webhook: eventList.optional() }, { error: NOTIFICATIONS.channelsInvalid })
    .strict()
    .optional(),
  low_balance_threshold: labelled(
    z
      .number({ error: NOTIFICATIONS.thresholdInvalid })
      .int(NOTIFICATIONS.thresholdInvalid)
      .min(0, NOTIFICATIONS.thresholdInvalid)
      .max(1_000_000, NOTIFICATIONS.thresholdInvalid)
      .optional(),
    NOTIFICATIONS.thresholdLabel,
  ),
  expiry_reminder_days: labelled(
    z
      .number({ error: NOTIFICATIONS.reminderInvalid })
      .refine((n) => (REMINDER_DAYS as readonly number[]).includes(n), NOTIFICATIONS.reminderInvalid)
      .optional(),
    NOTIFICATIONS.reminderLabel,
  ),
  webhook_url: labelled(
    z
      .preprocess(
        emptyToNull,
        z.string({ error: NOTIFICATIONS.webhookUrlInvalid }).max(2000, NOTIFICATIONS.webhookUrlInvalid).refine(isWebhookUrl, NOTIFICATIONS.webhookUrlInvalid).nullable(),
      )
      .optional(),
    NOTIFICATIONS.webhookUrlLabel,
  ),
  webhook_secret: labelled(
    z
      .preprocess(
        emptyToNull,
        z.string({ error: NOTIFICATIONS.webhookSecretInvalid }).min(16, NOTIFICATIONS.webhookSecretInvalid).max(200, NOTIFICATIONS.webhookSecretInvalid).nullable(),
      )
      .optional(),
    NOTIFICATIONS.webhookSecretLabel,
  ),
});
export type NotificationSettingsBody = z.infer<typeof notificationSettingsBody>;

export const smtpSettingsEntity = z.object({
  host: z.string(),
  port: z.number(),
  secure: z.boolean(),
  user: z.string().nullable(),
  password_set: z.boolean(),
  from: z.string(),
  digest_hour: z.number(),
  /** Where users open the panel; the digests link to it. */
  panel_url: z.string().nullable(),
});
export type SmtpSettings = z.infer<typeof smtpSettingsEntity>;

/**
 * The panel's public address: an absolute http(s) URL, maybe with a path, without credentials, query or
 * fragment (the digests append panel paths to it). Whitespace is refused rather than dropped by the URL
 * parser.
 */
export const isPanelUrl = (text: string): boolean => /^https?:\/\/[^\s?#]+$/i.test(text) && isWebhookUrl(text);

const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$|^\[[0-9A-Fa-f:.]+\]$/;

/** The admin's SMTP server; password: a string replaces it, null removes it, absent keeps it. */
export const smtpSettingsBody = z.object({
  host: labelled(z.string({ error: NOTIFICATIONS.smtpHostInvalid }).trim().regex(HOST, NOTIFICATIONS.smtpHostInvalid), 'Host'),
  port: labelled(
    z.number({ error: NOTIFICATIONS.smtpPortInvalid }).int(NOTIFICATIONS.smtpPortInvalid).min(1, NOTIFICATIONS.smtpPortInvalid).max(65535, NOTIFICATIONS.smtpPortInvalid),
    'Port',
  ),
  secure: labelled(z.boolean().default(false), 'TLS from the start (port 465)'),
  user: labelled(z.preprocess(emptyToNull, z.string().max(255).nullable()).optional(), 'User'),
  password: labelled(z.preprocess(emptyToNull, z.string().max(255).nullable()).optional(), 'Password'),
  from: labelled(z.email({ error: NOTIFICATIONS.smtpFromInvalid }).max(254, NOTIFICATIONS.smtpFromInvalid), 'From address'),
  digest_hour: labelled(
    z
      .number({ error: NOTIFICATIONS.smtpDigestHourInvalid })
      .int(NOTIFICATIONS.smtpDigestHourInvalid)
      .min(0, NOTIFICATIONS.smtpDigestHourInvalid)
      .max(23, NOTIFICATIONS.smtpDigestHourInvalid)
      .default(7),
    'Digest hour (UTC)',
  ),
  /** A string sets it, null or empty clears it, absent keeps it. */
  panel_url: labelled(
    z
      .preprocess(
        emptyToNull,
        z.string({ error: NOTIFICATIONS.panelUrlInvalid }).trim().max(2000, NOTIFICATIONS.panelUrlInvalid).refine(isPanelUrl, NOTIFICATIONS.panelUrlInvalid).nullable(),
      )
      .optional(),
    NOTIFICATIONS.panelUrlLabel,
  ),
});
export type SmtpSettingsBody = z.infer<typeof smtpSettingsBody>;
