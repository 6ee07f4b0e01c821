/**
 * The Create/Edit User form derived from the contract's bodies of POST /accounts and PUT /accounts/{id}
 * (the rules and messages the API answers 422 with), in the form's shape: a Subscription choice
 * (months, trial or none) instead of `months` + `is_trial`, a server the form requires, and an expiry
 * that is sent only when an administrator changed it. The schema's output is the request body.
 */
import { z } from 'zod';
import { ACCOUNTS, MONTHS_MESSAGE, type UserStatus, accountCreateBody, accountUpdateBody } from '../../contract';
import { requiredField } from '../../components/form/requiredField';
import { titledMonths } from './renewals/shared';

export const PURCHASES = ['months', 'trial', 'none'] as const;
export type Purchase = (typeof PURCHASES)[number];

export interface AccountFormValues {
  full_name: string;
  login: string;
  password?: string;
  mac_address: string;
  server_id?: number | null;
  purchase?: Purchase;
  months?: number | null;
  /** ISO text (a DatePicker's dayjs through FormField's converters). */
  expiry_date?: string | null;
  status?: UserStatus;
}

/** The form fields a server error may name, and the API fields shown under one of them. */
export const ACCOUNT_FORM_FIELDS = ['full_name', 'login', 'password', 'mac_address', 'server_id', 'purchase', 'months', 'expiry_date', 'status'] as const;
export const ACCOUNT_FORM_ALIASES: Record<string, string> = { credits: 'purchase', is_trial: 'purchase', is_active: 'status' };

export interface AccountFormOptions {
  mode: 'create' | 'edit';
  /** Only an administrator sets the expiry directly. */
  admin: boolean;
  /** The edited account's expiry: left as it is, it is neither checked nor sent. */
  expiry?: string | null;
}

export type AccountBody = Record<string, unknown>;

export function accountFormSchema({ mode, admin, expiry = null }: AccountFormOptions): z.ZodType<AccountBody, AccountFormValues> {
  const create = accountCreateBody.shape;
  const update = accountUpdateBody.shape;
  const body = mode === 'create' ? create : update;
  const common = {
    // The form always sends name, username and MAC: required on edit too, by the update's own rules.
    full_name: mode === 'create' ? create.full_name : update.full_name.unwrap(),
    login: mode === 'create' ? create.login : update.login.unwrap(),
    mac_address: mode === 'create' ? create.mac_address : update.mac_address.unwrap(),
    password: body.password,
    server_id: requiredField(ACCOUNTS.serverRequired, body.server_id),
    expiry_date: z.preprocess((v) => (!admin || v === undefined || v === expiry ? undefined : v), body.expiry_date),
  };
  const sentExpiry = (value: string | null | undefined) => (value === undefined ? {} : { expiry_date: value });

  if (mode === 'edit') {
    return z
      .object({ ...common, status: update.status })
      .transform(({ password, expiry_date, ...values }) => ({ ...values, ...(password ? { password } : {}), ...sentExpiry(expiry_date) })) as never;
  }
  const months = titledMonths(requiredField(MONTHS_MESSAGE, create.months));
  return z
    .discriminatedUnion('purchase', [
      z.object({ ...common, purchase: z.literal('months'), months }),
      z.object({ ...common, purchase: z.literal('trial') }),
      z.object({ ...common, purchase: z.literal('none') }),
    ])
    .transform(({ purchase, expiry_date, ...values }) => ({
      ...values,
      ...(purchase === 'trial' ? { is_trial: true } : {}),
      ...sentExpiry(expiry_date),
    })) as never;
}
