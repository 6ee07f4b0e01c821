/**
 * Two-factor sign-in (docs/security.md#two-factor-sign-in): a TOTP secret per user, encrypted with
 * APP_KEY; ten one-time recovery codes stored hashed; each accepted TOTP time step remembered so a
 * code is used once; the challenge that carries a sign-in from its password to its code.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { TWO_FACTOR } from '../../src/contract';
import type { Config } from '../config';
import { inTransaction } from '../db/transaction';
import type { Database, UserRow } from '../db/schema';
import { nowIso } from '../db/values';
import { conflict, fieldError, validationError } from '../errors';
import { decryptWith, encryptWith, secretKey } from '../servers/secret';

type KeyConfig = Pick<Config, 'appKey' | 'production'>;

export const TOTP_ISSUER = 'Credit Panel';
/** A code of the step before or after the current one is accepted (clocks drift, typing takes time). */
const TOTP_TOLERANCE_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** How long the code may be typed after the password: then the sign-in starts again. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

const SECRET_AAD = Buffer.from('totp-secret');
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function keyOf(db: Kysely<Database>, config: KeyConfig): Promise<Buffer> {
  const key = await secretKey(db, config);
  if (!key) throw validationError({ code: TWO_FACTOR.keyMissing });
  return key;
}

/** A new secret for the user to confirm: replaces a pending one; refused while one is on. */
export async function startSetup(db: Kysely<Database>, config: KeyConfig, user: UserRow) {
  if (user.two_factor_at) throw conflict(TWO_FACTOR.alreadyOn);
  const key = await keyOf(db, config);
  const secret = generateSecret();
  const secret_enc = encryptWith(key, secret, SECRET_AAD);
  const created_at = nowIso();
  await db
    .insertInto('user_two_factor')
    .values({ user_id: user.id, secret_enc, confirmed: 0, last_step: null, created_at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret_enc, confirmed: 0, last_step: null, created_at }))
    .execute();
  const otpauth_url = generateURI({ issuer: TOTP_ISSUER, label: user.username, secret });
  // A data: URL: the panel's img-src allows data: images (server/http/securityHeaders.ts).
  const qr_code = await QRCode.toDataURL(otpauth_url, { margin: 1, width: 220 });
  return { secret, otpauth_url, qr_code };
}

/** The time step a code of this secret matches now, or null. */
async function matchingStep(secret: string, code: string): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({ strategy: 'totp', secret, token: code, epochTolerance: TOTP_TOLERANCE_SECONDS });
  // A TOTP answer names the step it matched.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * Takes the step once: the row's last step moves forward only, in one statement, so the same code
 * sent twice (or two codes of one step, in parallel) is accepted once.
 */
async function claimStep(db: Kysely<Database>, userId: number, step: number, confirmed: 0 | 1): Promise<boolean> {
  const result = await db
    .updateTable('user_two_factor')
    .set({ last_step: step, ...(confirmed === 0 ? { confirmed: 1 } : {}) })
    .where('user_id', '=', userId)
    .where('confirmed', '=', confirmed)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Case, spaces and dashes do not matter in a recovery code. */
const recoveryHash = (userId: number, code: string) => sha256(`${userId}:${code.toUpperCase().replace(/[^A-Z0-9]/g, '')}`);

/**
 * Confirms the pending secret with a code of it: turns two-factor on and answers the recovery codes
 * (in clear this once). A wrong code answers a 422 under `code`.
 */
export async function confirmSetup(db: Kysely<Database>, config: KeyConfig, user: UserRow, code: string): Promise<string[]> {
  if (user.two_factor_at) throw conflict(TWO_FACTOR.alreadyOn);
  const row = await db.selectFrom('user_two_factor').selectAll().where('user_id', '=', user.id).where('confirmed', '=', 0).executeTakeFirst();
  if (!row) throw fieldError('code', TWO_FACTOR.noSetup);
  const step = await matchingStep(decryptWith(await keyOf(db, config), row.secret_enc, SECRET_AAD), code);
  if (step === null) throw fieldError('code', TWO_FACTOR.codeInvalid);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const confirmed = await inTransaction(db, async (trx) => {
    if (!(await claimStep(trx, user.id, step, 0))) return false;
    await trx.updateTable('users').set({ two_factor_at: nowIso() }).where('id', '=', user.id).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', user.id).execute();
    await trx
      .insertInto('recovery_codes')
      .values(codes.map((c) => ({ user_id: user.id, code_hash: recoveryHash(user.id, c), used_at: null })))
      .execute();
    return true;
  });
  // Another request confirmed it first (or replaced the secret): this one changes nothing.
  if (!confirmed) throw conflict(TWO_FACTOR.alreadyOn);
  return codes;
}

/**
 * Checks a second factor of a user who has one: a TOTP code (each time step accepted once) or an
 * unused recovery code (used up). Which kind matched, or null.
 */
export async function useSecondFactor(db: Kysely<Database>, config: KeyConfig, userId: number, code: string): Promise<'totp' | 'recovery' | null> {
  const text = code.trim();
  if (/^\d{6}$/.test(text)) {
    const row = await db.selectFrom('user_two_factor').select('secret_enc').where('user_id', '=', userId).where('confirmed', '=', 1).executeTakeFirst();
    if (!row) return null;
    const step = await matchingStep(decryptWith(await keyOf(db, config), row.secret_enc, SECRET_AAD), text);
    return step !== null && (await claimStep(db, userId, step, 1)) ? 'totp' : null;
  }
  const used = await db
    .updateTable('recovery_codes')
    .set({ used_at: nowIso() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', recoveryHash(userId, text))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1 ? 'recovery' : null;
}

/** Turns the user's second factor off: secret, recovery codes and open challenges go. */
export async function removeSecondFactor(db: Kysely<Database>, userId: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('user_two_factor').where('user_id', '=', userId).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('login_challenges').where('user_id', '=', userId).execute();
    await trx.updateTable('users').set({ two_factor_at: null }).where('id', '=', userId).execute();
  });
}

export async function recoveryCodesLeft(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ticket a right password earns a user with a second factor: stored hashed, short-lived. */
export async function issueChallenge(db: Kysely<Database>, userId: number): Promise<{ challenge: string; expires_at: string }> {
  const challenge = randomBytes(32).toString('base64url');
  const expires_at = new Date(Date.now() + CHALLENGE_TTL_MS).toISOString();
  await db.deleteFrom('login_challenges').where('expires_at', '<=', nowIso()).execute();
  await db
    .insertInto('login_challenges')
    .values({ challenge_hash: sha256(challenge), user_id: userId, expires_at })
    .execute();
  return { challenge, expires_at };
}

/** The user a live challenge was issued to, or null (unknown, used or expired). */
export async function challengeUser(db: Kysely<Database>, challenge: string): Promise<number | null> {
  const row = await db.selectFrom('login_challenges').selectAll().where('challenge_hash', '=', sha256(challenge)).executeTakeFirst();
  return row && row.expires_at > nowIso() ? row.user_id : null;
}

/** Uses the challenge up; false when another request already did. */
export async function consumeChallenge(db: Kysely<Database>, challenge: string): Promise<boolean> {
  const result = await db.deleteFrom('login_challenges').where('challenge_hash', '=', sha256(challenge)).where('expires_at', '>', nowIso()).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
