/** Personal API tokens on the wire: the create body, a token as listed, the token shown once. */
import { z } from 'zod';
import { API_TOKENS, API_TOKEN_DEFAULT_DAYS, API_TOKEN_EXPIRY_DAYS, API_TOKEN_MAX_ADDRESSES, API_TOKEN_SCOPES } from '../apiTokens';
import { FIELD_RULES } from '../messages';
import { requiredText } from './common';

export const apiTokenScope = z.enum(API_TOKEN_SCOPES);

const MAX_DAYS = API_TOKEN_EXPIRY_DAYS[API_TOKEN_EXPIRY_DAYS.length - 1];

const anAddress = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);
/** One allowed address: an IPv4 or IPv6 address or CIDR range. */
export const allowedAddress = z
  .string()
  .trim()
  .max(64, FIELD_RULES.tooLong(64))
  .check((ctx) => {
    if (!anAddress.safeParse(ctx.value).success) ctx.issues.push({ code: 'custom', message: API_TOKENS.addressInvalid(ctx.value), input: ctx.value });
  });

export const createApiTokenBody = z.object({
  name: requiredText(API_TOKENS.nameRequired, 100),
  /** `read` is implied: every token reads. */
  scopes: z.array(apiTokenScope).max(API_TOKEN_SCOPES.length).default(['read']),
  expires_in_days: z
    .number({ error: API_TOKENS.expiryInvalid })
    .int(API_TOKENS.expiryInvalid)
    .min(1, API_TOKENS.expiryInvalid)
    .max(MAX_DAYS, API_TOKENS.expiryInvalid)
    .default(API_TOKEN_DEFAULT_DAYS),
  allowed_addresses: z.array(allowedAddress).max(API_TOKEN_MAX_ADDRESSES, API_TOKENS.tooManyAddresses).default([]),
});
export type CreateApiTokenBody = z.input<typeof createApiTokenBody>;

export const apiTokenEntity = z.object({
  id: z.number(),
  name: z.string(),
  /** `cpt_` and the public id: what the list shows of the token. */
  prefix: z.string(),
  scopes: z.array(apiTokenScope),
  /** Empty: any address. */
  allowed_addresses: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenEntity>;

/** The answer to a create: the token itself, shown this once, with its entry. */
export const createdApiTokenEntity = z.object({ message: z.string(), token: z.string(), data: apiTokenEntity });
export type CreatedApiToken = z.infer<typeof createdApiTokenEntity>;

/** The allowed addresses as the panel's form takes them: one text, addresses split by lines, spaces or commas. */
export const addressLines = (text: string | undefined): string[] => (text ?? '').split(/[\s,]+/).filter(Boolean);

/** The panel's create form: the body with the addresses as one text (the form sends addressLines of it). */
export const apiTokenForm = createApiTokenBody.extend({
  allowed_addresses: z
    .string()
    .max(API_TOKEN_MAX_ADDRESSES * 65, FIELD_RULES.tooLong(API_TOKEN_MAX_ADDRESSES * 65))
    .default('')
    .check((ctx) => {
      const lines = addressLines(ctx.value);
      if (lines.length > API_TOKEN_MAX_ADDRESSES) ctx.issues.push({ code: 'custom', message: API_TOKENS.tooManyAddresses, input: ctx.value });
      const bad = lines.find((line) => !allowedAddress.safeParse(line).success);
      if (bad !== undefined) ctx.issues.push({ code: 'custom', message: API_TOKENS.addressInvalid(bad), input: ctx.value });
    }),
});
export type ApiTokenForm = z.input<typeof apiTokenForm>;
