/**
 * What a request knows of who makes it beyond the user: the parent behind a view-as session and the
 * API token it was made with. Declared here, where the guards read them; the sign-in and token modules
 * (server/auth) fill them in.
 */
import type { ApiTokenScope } from '../../src/contract';

/** The parent behind a view-as session (docs/security.md#view-as). */
export interface ViewAs {
  id: number;
  username: string;
  name: string;
  /** Opened while the admin let view-as act (the setting is checked again on each change). */
  canAct: boolean;
  expiresAt: string;
}

/** A request's API token (server/auth/apiTokens.ts); apiTokenGuard.ts narrows what it may call. */
export interface ApiTokenUse {
  id: number;
  name: string;
  prefix: string;
  scopes: readonly ApiTokenScope[];
  /** CIDR ranges; empty: any address. */
  allowedAddresses: readonly string[];
  lastUsedAt: string | null;
  lastUsedIp: string | null;
}
