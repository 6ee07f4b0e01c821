/**
 * Authentication, the role matrix and maintenance mode for every API route, before validation.
 * Each route states `config.access` ([resource, action] of the contract's PERMISSIONS) or
 * `config.public`; a route with neither is refused at start-up, so none is left open by mistake.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { ACCESS, AUTH, type SystemSettingsValues, TWO_FACTOR, VIEW_AS, can, twoFactorRequired } from '../../src/contract';
import type { Database, UserRow } from '../db/schema';
import type { ApiTokenUse, ViewAs } from './sessionShape';
import { forbidden, unauthenticated, unavailable } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: readonly [resource: string, action: string];
    public?: boolean;
    /** Reachable by non-admins during maintenance (sign-in, sign-out, who am I). */
    duringMaintenance?: boolean;
    /**
     * Reachable by a user whose role requires a second factor it has not set up yet (sign-out, who am
     * I, the enrolment itself); every other route answers it 403 until it has.
     */
    duringEnrolment?: boolean;
    /** A change a view-as session may make even when it is read only (ending the view, signing out). */
    duringViewAs?: boolean;
  }
  interface FastifyRequest {
    user: UserRow | null;
    tokenHash: string | null;
    /** The id of the session's row in auth_tokens. */
    tokenId: number | null;
    /** When the session ends. */
    sessionExpiresAt: string | null;
    /** A view-as session: the parent viewing the panel as `user`. */
    viewer: ViewAs | null;
    /** The system settings read with the session; null on public routes. */
    settings: SystemSettingsValues | null;
  }
}

/** A signed-in session as the guard needs it. */
export interface GuardSession {
  user: UserRow;
  tokenHash: string;
  /** The sign-in session's row; null for an API token, which is no session. */
  tokenId: number | null;
  expiresAt: string;
  viewer: ViewAs | null;
  settings: SystemSettingsValues;
  /** A user above is not active: the user's branch is stopped. */
  branchBlocked: boolean;
  /** The API token the session was opened with (apiTokenGuard.ts narrows what it may call). */
  apiToken?: ApiTokenUse;
}

export interface GuardOptions {
  /** The session a bearer token opens, or null: the app passes in the sign-in module's (server/auth/tokens.ts). */
  resolveSession: (db: Kysely<Database>, token: string) => Promise<GuardSession | null>;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What no one changes through another user's session, even where view-as may act: the user's
 * password, second factor, sessions, API tokens, and a view-as of its own (no chains).
 */
const NOT_WHILE_VIEWING = /\/(change-password|two-factor|sessions|view-as|tokens|api-tokens)(\/|$)/;

/** The signed-in user of a route that is not public (the guard has already checked it). */
export function actorOf(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthenticated();
  return request.user;
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

export const guard = fp<GuardOptions>(async (app: FastifyInstance, { resolveSession }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('tokenHash', null);
  app.decorateRequest('tokenId', null);
  app.decorateRequest('sessionExpiresAt', null);
  app.decorateRequest('viewer', null);
  app.decorateRequest('settings', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    if (route.url.startsWith('/api/docs')) return;
    const config = route.config as { access?: unknown; public?: boolean } | undefined;
    if (!config?.access && !config?.public) {
      throw new Error(`Route ${route.method} ${route.url} declares neither config.access nor config.public`);
    }
  });

  app.addHook('onRequest', async (request) => {
    // Decided by the matched route, never by the raw URL (which may be percent-encoded).
    const config = request.routeOptions.config;
    if (config.public || !config.access) return;
    const token = bearerToken(request);
    const session = token ? await resolveSession(app.db.kysely, token) : null;
    if (!session || session.user.status !== 'active') throw unauthenticated();
    // A user above is suspended or inactive: the whole branch is stopped until it is active again.
    if (session.branchBlocked) throw unauthenticated(AUTH.branchSuspended);
    request.user = session.user;
    request.tokenHash = session.tokenHash;
    request.tokenId = session.tokenId;
    request.sessionExpiresAt = session.expiresAt;
    request.viewer = session.viewer;
    request.settings = session.settings;
    request.apiToken = session.apiToken ?? null;
    const [resource, action] = config.access;
    if (!can(session.user.role, resource, action)) throw forbidden();
    if (session.user.role !== 'admin' && !config.duringMaintenance && session.settings.maintenance_mode) {
      throw unavailable(ACCESS.maintenance);
    }
    if (session.viewer) {
      // Read only unless the admin lets view-as act, now as when the view began.
      if (!READS.has(request.method) && !config.duringViewAs) {
        if (NOT_WHILE_VIEWING.test(request.routeOptions.url ?? '')) throw forbidden(VIEW_AS.notWhileViewing);
        if (!session.viewer.canAct || !session.settings.view_as_can_act) throw forbidden(VIEW_AS.readOnly);
      }
      // The parent passed its own checks; the viewed user's missing second factor is not its to set up.
      return;
    }
    if (!config.duringEnrolment && !session.user.two_factor_at && twoFactorRequired(session.settings, session.user.role)) {
      throw forbidden(TWO_FACTOR.enrolmentRequired);
    }
  });
});
