import { z } from 'zod';
import { SERVER_DEFAULTS } from '../constants';
import { ENTITY_FORM, SERVER_FORM } from '../messages';
import { requiredText } from './common';

export const SERVER_STATUSES = ['active', 'inactive'] as const;
export const SERVER_CONNECTION_STATUSES = ['online', 'offline'] as const;
/**
 * Where a server's accounts are provisioned: `local` keeps them in the panel's own tables only;
 * `ministra` also writes them to the Ministra (Stalker) database the server row points at.
 */
export const SERVER_DRIVERS = ['local', 'ministra'] as const;
export type ServerDriver = (typeof SERVER_DRIVERS)[number];

/** A TCP port, sent as a number or as text ('3306'); kept as text like the spec's default. */
const portField = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value),
  z
    .string({ error: SERVER_FORM.portInvalid })
    .refine((v) => /^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, SERVER_FORM.portInvalid)
    .transform((v) => String(Number(v))),
);

/** A host name or IP address: no spaces, no scheme, no path. */
const hostField = requiredText(SERVER_FORM.hostRequired).regex(/^[A-Za-z0-9._:\-\[\]%]+$/, SERVER_FORM.hostInvalid);

/**
 * Create and update share one body. db_password is write-only: empty or absent keeps the stored one
 * on update (and stores none on create).
 */
export const serverBody = z.object({
  name: requiredText(ENTITY_FORM.nameRequired, 100),
  db_host: hostField,
  db_username: requiredText(SERVER_FORM.usernameRequired),
  db_password: z.string().max(1000).nullish(),
  db_port: portField.optional().default(SERVER_DEFAULTS.db_port),
  db_name: requiredText(SERVER_FORM.dbNameRequired, 128),
  driver: z.enum(SERVER_DRIVERS, { error: SERVER_FORM.driverInvalid }).default(SERVER_DEFAULTS.driver),
  status: z.enum(SERVER_STATUSES, { error: SERVER_FORM.statusInvalid }).default(SERVER_DEFAULTS.status),
  connection_status: z
    .enum(SERVER_CONNECTION_STATUSES, { error: SERVER_FORM.connectionStatusInvalid })
    .default(SERVER_DEFAULTS.connection_status),
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
  status: z.enum(SERVER_STATUSES),
  connection_status: z.enum(SERVER_CONNECTION_STATUSES),
  has_password: z.boolean(),
  last_checked_at: z.string().nullable(),
  accounts_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** What every role's server pickers read (GET /servers/public). */
export const serverOptionEntity = serverEntity.pick({ id: true, name: true, status: true });
