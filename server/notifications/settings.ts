/**
 * A user's notification choices (channels per event type, low balance threshold, expiry reminder
 * window, webhook URL and secret, e-mail address) and the admin's SMTP server. Secrets (the webhook's
 * signing secret, the SMTP password) are stored encrypted with APP_KEY, each kind under its own
 * additional data (servers/secret.ts).
 */
import type { Kysely } from 'kysely';
import {
  DEFAULT_LOW_BALANCE_THRESHOLD,
  DEFAULT_REMINDER_DAYS,
  NOTIFICATIONS,
  type NotificationChannels,
  type NotificationSettings,
  type NotificationSettingsBody,
  type SmtpSettings,
  type SmtpSettingsBody,
  defaultChannels,
  notificationChannelsSchema,
} from '../../src/contract';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { nowIso, parseJson } from '../db/values';
import { fieldError } from '../errors';
import { decryptWith, encryptWith, secretKey } from '../servers/secret';
import { getSetting, putSetting } from '../settings';

export type KeyConfig = Pick<Config, 'appKey' | 'production'>;

const WEBHOOK_AAD = Buffer.from('webhook-secret');
const SMTP_AAD = Buffer.from('smtp-password');
export const SMTP_SETTING = 'smtp';

/** What a user's settings are made of, its secrets still encrypted. */
export interface StoredNotificationSettings {
  email: string | null;
  channels: NotificationChannels;
  low_balance_threshold: number;
  expiry_reminder_days: number;
  webhook_url: string | null;
  webhook_secret_enc: string | null;
}

const channelsOf = (text: string | undefined): NotificationChannels => {
  const parsed = notificationChannelsSchema.safeParse(parseJson<unknown>(text, null));
  return parsed.success ? parsed.data : defaultChannels();
};

/** The settings of many users at once (defaults for those without a row). */
export async function settingsOfUsers(db: Kysely<Database>, userIds: number[]): Promise<Map<number, StoredNotificationSettings>> {
  const result = new Map<number, StoredNotificationSettings>();
  for (let i = 0; i < userIds.length; i += 500) {
    const ids = userIds.slice(i, i + 500);
    const rows = await db
      .selectFrom('users as u')
      .leftJoin('notification_settings as s', 's.user_id', 'u.id')
      .select(['u.id', 'u.email', 's.channels', 's.low_balance_threshold', 's.expiry_reminder_days', 's.webhook_url', 's.webhook_secret_enc'])
      .where('u.id', 'in', ids)
      .execute();
    for (const r of rows) {
      result.set(r.id, {
        email: r.email,
        channels: channelsOf(r.channels ?? undefined),
        low_balance_threshold: r.low_balance_threshold ?? DEFAULT_LOW_BALANCE_THRESHOLD,
        expiry_reminder_days: r.expiry_reminder_days ?? DEFAULT_REMINDER_DAYS,
        webhook_url: r.webhook_url ?? null,
        webhook_secret_enc: r.webhook_secret_enc ?? null,
      });
    }
  }
  return result;
}

const toApi = (s: StoredNotificationSettings): NotificationSettings => ({
  email: s.email,
  channels: s.channels,
  low_balance_threshold: s.low_balance_threshold,
  expiry_reminder_days: s.expiry_reminder_days,
  webhook_url: s.webhook_url,
  webhook_secret_set: s.webhook_secret_enc !== null,
});

export async function readNotificationSettings(db: Kysely<Database>, userId: number): Promise<NotificationSettings> {
  const stored = (await settingsOfUsers(db, [userId])).get(userId);
  if (!stored) throw new Error(`No user ${userId}`);
  return toApi(stored);
}

async function keyOrRefuse(db: Kysely<Database>, config: KeyConfig, field: string): Promise<Buffer> {
  const key = await secretKey(db, config);
  if (!key) throw fieldError(field, NOTIFICATIONS.noSecretKey);
  return key;
}

/** Applies a change to the caller's own settings; a webhook URL needs a secret, given or stored. */
export async function updateNotificationSettings(db: Kysely<Database>, config: KeyConfig, userId: number, body: NotificationSettingsBody): Promise<NotificationSettings> {
  const secretEnc = body.webhook_secret ? encryptWith(await keyOrRefuse(db, config, 'webhook_secret'), body.webhook_secret, WEBHOOK_AAD) : undefined;
  await inTransaction(db, async (trx) => {
    const before = (await settingsOfUsers(trx, [userId])).get(userId)!;
    const next: StoredNotificationSettings = {
      email: body.email !== undefined ? body.email : before.email,
      channels: { ...before.channels, ...Object.fromEntries(Object.entries(body.channels ?? {}).filter(([, v]) => v !== undefined)) },
      low_balance_threshold: body.low_balance_threshold ?? before.low_balance_threshold,
      expiry_reminder_days: body.expiry_reminder_days ?? before.expiry_reminder_days,
      webhook_url: body.webhook_url !== undefined ? body.webhook_url : before.webhook_url,
      webhook_secret_enc: body.webhook_secret === null ? null : (secretEnc ?? before.webhook_secret_enc),
    };
    if (next.webhook_url && !next.webhook_secret_enc) throw fieldError('webhook_secret', NOTIFICATIONS.webhookSecretRequired);
    const now = nowIso();
    if (next.email !== before.email) await trx.updateTable('users').set({ email: next.email, updated_at: now }).where('id', '=', userId).execute();
    const row = {
      channels: JSON.stringify(next.channels),
      low_balance_threshold: next.low_balance_threshold,
      expiry_reminder_days: next.expiry_reminder_days,
      webhook_url: next.webhook_url,
      webhook_secret_enc: next.webhook_secret_enc,
      updated_at: now,
    };
    await trx
      .insertInto('notification_settings')
      .values({ user_id: userId, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
  });
  return readNotificationSettings(db, userId);
}

/** The webhook's signing secret in clear. */
export async function webhookSecret(db: Kysely<Database>, config: KeyConfig, stored: string): Promise<string> {
  const key = await secretKey(db, config);
  if (!key) throw new Error(NOTIFICATIONS.noSecretKey);
  return decryptWith(key, stored, WEBHOOK_AAD);
}

interface StoredSmtp extends Omit<SmtpSettings, 'password_set'> {
  password_enc: string | null;
}

/** The SMTP server as stored, or null when none is configured. */
async function storedSmtp(db: Kysely<Database>): Promise<StoredSmtp | null> {
  const stored = await getSetting<StoredSmtp | null>(db, SMTP_SETTING, null);
  return stored && typeof stored === 'object' && stored.host ? stored : null;
}

export async function readSmtpSettings(db: Kysely<Database>): Promise<SmtpSettings | null> {
  const stored = await storedSmtp(db);
  if (!stored) return null;
  const { password_enc, ...rest } = stored;
  return { ...rest, panel_url: rest.panel_url ?? null, password_set: password_enc !== null };
}

export async function updateSmtpSettings(db: Kysely<Database>, config: KeyConfig, body: SmtpSettingsBody): Promise<SmtpSettings> {
  const before = await storedSmtp(db);
  const password_enc =
    body.password === undefined
      ? (before?.password_enc ?? null)
      : body.password === null
        ? null
        : encryptWith(await keyOrRefuse(db, config, 'password'), body.password, SMTP_AAD);
  const next: StoredSmtp = {
    host: body.host,
    port: body.port,
    secure: body.secure,
    user: body.user ?? null,
    from: body.from,
    digest_hour: body.digest_hour,
    panel_url: body.panel_url === undefined ? (before?.panel_url ?? null) : body.panel_url,
    password_enc,
  };
  await putSetting(db, SMTP_SETTING, next);
  return (await readSmtpSettings(db))!;
}

/** The SMTP server with its password in clear, for the sender; null when none is configured. */
export async function smtpForSending(db: Kysely<Database>, config: KeyConfig): Promise<(Omit<StoredSmtp, 'password_enc'> & { password: string | null }) | null> {
  const stored = await storedSmtp(db);
  if (!stored) return null;
  const { password_enc, ...rest } = stored;
  // Stored before the panel address existed: no links.
  rest.panel_url ??= null;
  if (!password_enc) return { ...rest, password: null };
  const key = await secretKey(db, config);
  if (!key) throw new Error(NOTIFICATIONS.noSecretKey);
  return { ...rest, password: decryptWith(key, password_enc, SMTP_AAD) };
}
