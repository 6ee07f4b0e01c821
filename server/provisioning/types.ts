/**
 * What a server's provisioning driver does with the accounts the panel keeps. The panel's database
 * stays the source of truth (ledger, hierarchy, expiry); a driver mirrors each account onto the
 * middleware the server row points at, and reads back what only the middleware knows (the box).
 */
import type { AccountRow } from '../db/schema';

/** The account fields a driver mirrors. */
export type MirroredAccount = Pick<AccountRow, 'id' | 'middleware_id' | 'login' | 'full_name' | 'pwd_txt' | 'mac_address' | 'status' | 'expiry_date'>;

/** What the middleware knows about the box an account is bound to. */
export interface DeviceState {
  online: boolean;
  last_active: string | null;
  ip_address: string | null;
  stb_type: string | null;
  serial_number: string | null;
  version: string | null;
  image_version: string | null;
  hw_version: string | null;
  device_id: string | null;
}

/** A subscriber as the middleware holds it (import). */
export interface MiddlewareSubscriber {
  id: number;
  login: string;
  full_name: string;
  mac_address: string | null;
  enabled: boolean;
  expiry_date: string | null;
}

/** Puts the middleware back as it was before a write whose panel transaction did not commit. */
export type Undo = () => Promise<void>;

/**
 * Failures of a write known to have changed nothing in the middleware: refused before it was sent
 * (an open breaker, no connection) or failed before its middleware transaction's COMMIT was sent
 * (the server rolls an unfinished transaction back when its connection ends). A journaled change
 * whose first write failed so has nothing to put back.
 */
const unapplied = new WeakSet<object>();
export const markUnapplied = <E>(error: E): E => {
  if (typeof error === 'object' && error !== null) unapplied.add(error);
  return error;
};
export const isUnapplied = (error: unknown): boolean => typeof error === 'object' && error !== null && unapplied.has(error);

export interface Provisioner {
  readonly driver: string;
  /**
   * Creates or updates each account's subscriber to match the panel row; answers the subscriber id
   * of every account (to keep in accounts.middleware_id) and how to undo the writes.
   */
  push(accounts: MirroredAccount[]): Promise<{ ids: Map<number, number>; undo: Undo }>;
  /** Removes the account's subscriber (delete). */
  remove(account: MirroredAccount): Promise<{ undo: Undo }>;
  /** Clears what binds the subscriber to one box. */
  resetDevice(account: MirroredAccount): Promise<{ undo: Undo }>;
  /** The box's state, or null when the middleware has no subscriber for the account. */
  device(account: MirroredAccount): Promise<DeviceState | null>;
  /** Which of a MAC address and a login a subscriber other than `exceptId` already uses. */
  taken(values: { mac?: string; login?: string }, exceptId: number | null): Promise<{ mac: boolean; login: boolean }>;
  /** A real query against the middleware; throws when it cannot be answered. */
  check(): Promise<void>;
  /** Subscriber ids whose box is online now. */
  onlineIds(): Promise<number[]>;
  /** Every subscriber (import). */
  subscribers(): Promise<MiddlewareSubscriber[]>;
}

/** The panel's own tables are all there is: nothing to mirror, nothing more to know. */
export const localProvisioner: Provisioner = {
  driver: 'local',
  push: async () => ({ ids: new Map(), undo: async () => {} }),
  remove: async () => ({ undo: async () => {} }),
  resetDevice: async () => ({ undo: async () => {} }),
  device: async () => null,
  taken: async () => ({ mac: false, login: false }),
  check: async () => {},
  onlineIds: async () => [],
  subscribers: async () => [],
};
