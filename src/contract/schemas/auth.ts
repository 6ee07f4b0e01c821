import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants';
import { AUTH, PROFILE } from '../messages';
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
});

export const loginResponseEntity = z.object({ token: z.string(), user: currentUserEntity });

/** PUT /update-profile answer. */
export const profileUpdateAnswer = z.object({ message: z.string(), user: currentUserEntity });
