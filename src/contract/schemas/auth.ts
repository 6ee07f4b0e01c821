import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants';
import { AUTH, PROFILE } from '../messages';
import { optionalText, requiredText } from './common';

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
