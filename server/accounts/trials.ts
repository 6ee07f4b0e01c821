/**
 * The trial limits (docs/reliability.md): one free trial per device (MAC) per period, across servers and
 * branches, and a number of trials per creator per UTC day. Both are claimed by an upsert on a key
 * (migration 0018) inside the creating transaction: a concurrent claim on the same key waits for
 * the first to commit and then finds the row taken, so a burst yields exactly what the rules allow,
 * and a transaction that fails afterwards (a middleware refusal) gives its claims back.
 * The read-only checks answer early; the claims are what hold.
 */
import type { Kysely, Transaction } from 'kysely';
import { ACCOUNTS } from '../../src/contract';
import type { Database } from '../db/schema';
import { fieldError } from '../errors';
import type { SystemSettings } from '../settings';
import { addDays } from './dates';

type TrialSettings = Pick<SystemSettings, 'trial_period_days' | 'trials_per_day'>;

/** Trials that started before this instant no longer hold their device. */
const periodStart = (settings: TrialSettings, now: Date): string => addDays(now, -settings.trial_period_days).toISOString();
const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

const deviceUsed = (settings: TrialSettings) => fieldError('mac_address', ACCOUNTS.trialDeviceUsed(settings.trial_period_days));
const dailyLimit = (settings: TrialSettings) => fieldError('is_trial', ACCOUNTS.trialDailyLimit(settings.trials_per_day));

/** Refuses, without writing, a trial the claims would refuse now (the early answer). */
export async function checkTrial(db: Kysely<Database>, creatorId: number, mac: string, settings: TrialSettings, now = new Date()): Promise<void> {
  if (settings.trials_per_day <= 0) throw dailyLimit(settings);
  const [quota, device] = await Promise.all([
    db.selectFrom('trial_quotas').select('n').where('creator_id', '=', creatorId).where('day', '=', utcDay(now)).executeTakeFirst(),
    db.selectFrom('trial_devices').select('started_at').where('mac_address', '=', mac).executeTakeFirst(),
  ]);
  if (quota && quota.n >= settings.trials_per_day) throw dailyLimit(settings);
  if (device && device.started_at >= periodStart(settings, now)) throw deviceUsed(settings);
}

/** Counts one trial of the creator today, or refuses when the day's cap is reached. */
export async function claimTrialQuota(trx: Transaction<Database>, creatorId: number, settings: TrialSettings, now: Date): Promise<void> {
  if (settings.trials_per_day <= 0) throw dailyLimit(settings);
  const counted = await trx
    .insertInto('trial_quotas')
    .values({ creator_id: creatorId, day: utcDay(now), n: 1 })
    .onConflict((oc) =>
      oc
        .columns(['creator_id', 'day'])
        .doUpdateSet((eb) => ({ n: eb('trial_quotas.n', '+', 1) }))
        .where('trial_quotas.n', '<', settings.trials_per_day),
    )
    .returning('n')
    .executeTakeFirst();
  if (!counted) throw dailyLimit(settings);
}

/**
 * Records that `mac` starts a trial now (a new trial account, or a trial account moved onto this
 * device), or refuses when the device had one within the period. Nothing ever removes the record.
 */
export async function claimTrialDevice(trx: Transaction<Database>, mac: string, accountId: number, settings: TrialSettings, now: Date): Promise<void> {
  const claimed = await trx
    .insertInto('trial_devices')
    .values({ mac_address: mac, account_id: accountId, started_at: now.toISOString() })
    .onConflict((oc) =>
      oc
        .column('mac_address')
        .doUpdateSet((eb) => ({ account_id: eb.ref('excluded.account_id'), started_at: eb.ref('excluded.started_at') }))
        .where('trial_devices.started_at', '<', periodStart(settings, now)),
    )
    .returning('mac_address')
    .executeTakeFirst();
  if (!claimed) throw deviceUsed(settings);
}
