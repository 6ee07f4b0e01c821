import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants';
import { AUTH, PROFILE, TWO_FACTOR } from '../messages';
import { optionalText, requiredText } from './common';
import { ROLES } from '../roles';

export const loginBody = z.object({
  username: requiredText(AUTH.fillAllFields),
  password: z.string({ error: AUTH.fillAllFields }).min(1, AUTH.fillAllFields).max(1000),
});
export type LoginBody = z.infer<typeof loginBody>;

const passwordField = z.string({ error: PROFILE.allPasswordFields }).min(1, PROFILE.allPasswordFields).max(1000);

export const changePasswordBody = z
  .object({
    current_password: passwordField,
    new_password: passwordField.refine((v) => v.length >= PASSWORD_MIN_LENGTH, PROFILE.passwordTooShort),
    new_password_confirmation: passwordField,
  })
  .refine((b) => b.new_password === b.new_password_confirmation, {
    message: PROFILE.passwordsMismatch,
    path: ['new_password_confirmation'],
  });
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const updateProfileBody = z.object({
  name: requiredText(PROFILE.nameRequired),
  // The username is shown but locked; a different one is refused by the API.
  username: z.string().optional(),
  phone: optionalText(32),
});
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

/** The signed-in user (GET /user, sign-in, profile update). */
export const currentUserEntity = z.object({
  id: z.number(),
  name: z.string(),
  username: z.string(),
  phone: z.string().nullable(),
  role: z.enum(ROLES),
  /** Total balance (paid plus bonus); null for admin, who holds none. */
  credits: z.number().nullable(),
  bonus_credits: z.number().nullable(),
  server_id: z.number().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  /** Whether the user signs in with a second factor. */
  two_factor: z.boolean(),
  /** The user's role requires a second factor and it has none: it must enrol before anything else. */
  two_factor_enrol: z.boolean(),
  /** Set in a view-as session: the parent viewing, whether it may act, when the view ends. */
  view_as: z
    .object({ viewer: z.object({ id: z.number(), username: z.string(), name: z.string() }), can_act: z.boolean(), expires_at: z.string() })
    .nullable()
    .optional(),
});

/** A signed-in session. */
export const sessionEntity = z.object({ token: z.string(), user: currentUserEntity });

/** The password was right and the user has a second factor: the code is asked for with this challenge. */
export const twoFactorChallengeEntity = z.object({ two_factor: z.object({ challenge: z.string(), expires_at: z.string() }) });

/** POST /login: a session, or a two-factor challenge. */
export const loginResponseEntity = z.union([sessionEntity, twoFactorChallengeEntity]);

/** A TOTP code (6 digits) or a recovery code (letters and digits, dashes and spaces ignored). */
const codeField = z.string({ error: TWO_FACTOR.codeRequired }).trim().min(1, TWO_FACTOR.codeRequired).max(64, TWO_FACTOR.codeFormat);

/** POST /login/two-factor: the second step of a sign-in. */
export const twoFactorLoginBody = z.object({
  challenge: z.string({ error: TWO_FACTOR.challengeExpired }).min(1, TWO_FACTOR.challengeExpired).max(200, TWO_FACTOR.challengeExpired),
  code: codeField,
});
export type TwoFactorLoginBody = z.infer<typeof twoFactorLoginBody>;

/** GET /profile/two-factor. */
export const twoFactorStatusEntity = z.object({
  enabled: z.boolean(),
  /** The role requires a second factor (it cannot be turned off). */
  required: z.boolean(),
  recovery_codes_left: z.number(),
});

/** POST /profile/two-factor/setup: a new secret to confirm (shown once, as text and as a QR code). */
export const twoFactorSetupEntity = z.object({ secret: z.string(), otpauth_url: z.string(), qr_code: z.string() });

/** POST /profile/two-factor/enable: the code the authenticator shows for the pending secret. */
export const twoFactorEnableBody = z.object({ code: codeField.refine((v) => /^\d{6}$/.test(v), TWO_FACTOR.codeInvalid) });
export type TwoFactorEnableBody = z.infer<typeof twoFactorEnableBody>;

/** The recovery codes, shown once. */
export const twoFactorEnabledEntity = z.object({ message: z.string(), recovery_codes: z.array(z.string()) });

/** POST /profile/two-factor/disable: the current password or a code. */
export const twoFactorDisableBody = z
  .object({
    password: z.string().max(1000).optional(),
    code: z.string().trim().max(64, TWO_FACTOR.codeFormat).optional(),
  })
  .refine((b) => Boolean(b.password) || Boolean(b.code), { message: TWO_FACTOR.turnOffCredential, path: ['password'] });
export type TwoFactorDisableBody = z.infer<typeof twoFactorDisableBody>;

/** PUT /update-profile answer. */
export const profileUpdateAnswer = z.object({ message: z.string(), user: currentUserEntity });
