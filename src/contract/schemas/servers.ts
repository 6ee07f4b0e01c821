import { z } from 'zod';
import { SERVER_DEFAULTS, SERVER_TIMEOUT_RANGE } from '../constants';
import { ENTITY_FORM, SERVERS, SERVER_FORM } from '../messages';
import { integerInput, requiredText } from './common';
import { labelled, withMeta } from './fieldMeta';

export const SERVER_STATUSES = ['active', 'inactive'] as const;
export const SERVER_CONNECTION_STATUSES = ['online', 'offline'] as const;
/**
 * Where a server's accounts are provisioned: `local` keeps them in the panel's own tables only;
 * `ministra` also writes them to the Ministra (Stalker) database the server row points at.
 */
export const SERVER_DRIVERS = ['local', 'ministra'] as const;
export type ServerDriver = (typeof SERVER_DRIVERS)[number];

/** A TCP port, sent as a number or as text ('3306'); kept as text like the default ('3306'). */
const portField = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value),
  z
    .string({ error: SERVER_FORM.portInvalid })
    .refine((v) => /^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, SERVER_FORM.portInvalid)
    .transform((v) => String(Number(v))),
);

const timeoutMessage = SERVER_FORM.timeoutInvalid(SERVER_TIMEOUT_RANGE.min, SERVER_TIMEOUT_RANGE.max);
/** Seconds one middleware call may take; a number or its digits. */
const timeoutField = z.preprocess(
  integerInput,
  z.number({ error: timeoutMessage }).int(timeoutMessage).min(SERVER_TIMEOUT_RANGE.min, timeoutMessage).max(SERVER_TIMEOUT_RANGE.max, timeoutMessage),
);

/**
 * The circuit breaker of a server's middleware (kept by each API process): `closed` lets calls
 * through; `open` refuses them at once until `retry_at`; `half_open` lets one trial call decide.
 */
export const SERVER_BREAKER_STATES = ['closed', 'open', 'half_open'] as const;
export const serverBreakerEntity = z.object({
  state: z.enum(SERVER_BREAKER_STATES),
  /** Consecutive failed calls (unreachable, timed out). */
  failures: z.number(),
  opened_at: z.string().nullable(),
  retry_at: z.string().nullable(),
});

/** A host name or IP address: no spaces, no scheme, no path. */
const hostField = requiredText(SERVER_FORM.hostRequired).regex(/^[A-Za-z0-9._:\-[\]%]+$/, SERVER_FORM.hostInvalid);

/**
 * Create and update share one body. db_password is write-only: empty or absent keeps the stored one
 * on update (and stores none on create).
 */
export const serverBody = z.object({
  name: labelled(requiredText(ENTITY_FORM.nameRequired, 100), 'Name'),
  driver: labelled(z.enum(SERVER_DRIVERS, { error: SERVER_FORM.driverInvalid }).default(SERVER_DEFAULTS.driver), 'Driver'),
  db_host: labelled(hostField, 'Database Host'),
  db_port: withMeta(portField.optional().default(SERVER_DEFAULTS.db_port), { label: 'Database Port', min: 1, max: 65535 }),
  db_name: labelled(requiredText(SERVER_FORM.dbNameRequired, 128), 'Database Name'),
  db_username: labelled(requiredText(SERVER_FORM.usernameRequired), 'Database Username'),
  db_password: labelled(z.string().max(1000).nullish(), 'Database Password'),
  timeout_seconds: labelled(timeoutField.optional().default(SERVER_DEFAULTS.timeout_seconds), SERVERS.timeoutLabel),
  status: labelled(z.enum(SERVER_STATUSES, { error: SERVER_FORM.statusInvalid }).default(SERVER_DEFAULTS.status), 'Status'),
  connection_status: labelled(
    z.enum(SERVER_CONNECTION_STATUSES, { error: SERVER_FORM.connectionStatusInvalid }).default(SERVER_DEFAULTS.connection_status),
    'Connection Status',
  ),
});
export type ServerBody = z.infer<typeof serverBody>;

/** A server as the API sends it. The password is write-only: only has_password is ever sent. */
export const serverEntity = z.object({
  id: z.number(),
  name: z.string(),
  db_host: z.string(),
  db_username: z.string(),
  db_port: z.string(),
  db_name: z.string(),
  driver: z.enum(SERVER_DRIVERS),
  timeout_seconds: z.number(),
  status: z.enum(SERVER_STATUSES),
  connection_status: z.enum(SERVER_CONNECTION_STATUSES),
  has_password: z.boolean(),
  last_checked_at: z.string().nullable(),
  breaker: serverBreakerEntity,
  accounts_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** What every role's server pickers read (GET /servers/public). */
export const serverOptionEntity = serverEntity.pick({ id: true, name: true, status: true });
