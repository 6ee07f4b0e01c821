/** Personal API tokens: their scopes, bounds and every message about them (docs/security.md#api-tokens). */

/**
 * What a token may do beyond reading. Every token reads (GET, HEAD); `accounts` adds the end-user
 * account and member changes (create, edit, renew, suspend, move, trials, bulk); `credits` adds credit
 * moves between users. A token never does more than its user's role allows.
 */
export const API_TOKEN_SCOPES = ['read', 'accounts', 'credits'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** What a route needs of a token: a scope, or `session` (a signed-in session only, never a token). */
export type TokenNeed = ApiTokenScope | 'session';

/** The token's recognisable start; the public id after it is what the list shows. */
export const API_TOKEN_PREFIX = 'cpt_';
/** Live (unexpired) tokens one user may hold. */
export const API_TOKENS_PER_USER = 20;
/** Lifetimes offered, in days; the API takes any whole number of days up to the last. */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const API_TOKEN_DEFAULT_DAYS = 30;
/** Allowed addresses (CIDR ranges) one token may list. */
export const API_TOKEN_MAX_ADDRESSES = 20;
/** Requests one token may make per minute, whatever they are (credit moves also count per user). */
export const API_TOKEN_REQUESTS_PER_MINUTE = 300;

export const API_TOKENS = {
  title: 'API Tokens',
  /** The audit entry's field naming the token a user acted with. */
  auditLabel: 'API token',
  intro: 'Personal tokens let scripts call the API as you, within the scopes you choose. Send one as Authorization: Bearer cpt_...',
  create: 'Create Token',
  createTitle: 'Create API Token',
  nameLabel: 'Name',
  nameRequired: 'Name is required',
  scopesLabel: 'Scopes',
  scopeLabels: { read: 'Read only', accounts: 'Accounts', credits: 'Credits' } satisfies Record<ApiTokenScope, string>,
  scopeHelp: {
    read: 'Every token reads what you can read.',
    accounts: 'Create, edit, renew, suspend and move accounts and members.',
    credits: 'Add and recover credits.',
  } satisfies Record<ApiTokenScope, string>,
  expiryLabel: 'Expires in',
  expiryDays: (days: number) => `${days} days`,
  expiryInvalid: `Choose an expiry between 1 and ${API_TOKEN_EXPIRY_DAYS[API_TOKEN_EXPIRY_DAYS.length - 1]} days`,
  addressesLabel: 'Allowed addresses',
  addressesHelp: 'Optional: IPv4 or IPv6 addresses or CIDR ranges, one per line. Empty: any address.',
  addressInvalid: (value: string) => `"${value}" is not an IP address or CIDR range`,
  tooManyAddresses: `At most ${API_TOKEN_MAX_ADDRESSES} allowed addresses`,
  created: 'Token created',
  shownOnce: 'Copy the token now: it is shown only once and cannot be shown again.',
  copy: 'Copy token',
  copied: 'Copied',
  done: 'Done',
  columns: {
    prefix: 'Token',
    name: 'Name',
    scopes: 'Scopes',
    created: 'Created',
    expires: 'Expires',
    lastUsed: 'Last used',
    lastAddress: 'From',
    anyAddress: 'Any address',
    actions: 'Actions',
  },
  never: 'Never',
  expired: 'Expired',
  empty: 'No API tokens yet.',
  revoke: 'Revoke',
  revokeConfirm: (name: string) => `Revoke the token "${name}"? Scripts using it stop at once.`,
  revoked: 'Token revoked',
  tooMany: `You already hold ${API_TOKENS_PER_USER} live tokens: revoke one first.`,
  /** A token calling what only a signed-in session may: tokens, passwords, second factors, profile. */
  sessionOnly: 'API tokens cannot manage tokens, passwords, second factors or profile settings: sign in to the panel.',
  /** A token calling a route its scopes do not cover. */
  scopeMissing: (scope: string) => `This API token lacks the "${scope}" scope needed for this call.`,
  addressRefused: 'This API token is not allowed from this address.',
  rateLimited: 'Too many requests with this API token. Please slow down.',
} as const;
