/** Session and profile: sign-in, sign-out, who am I, password and profile changes, the user's own preferences. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCESS,
  AUTH,
  DEMO_USERNAMES,
  PROFILE,
  preferencesPatch,
  apiErrorBody,
  changePasswordBody,
  currentUserEntity,
  dataOf,
  loginBody,
  loginResponseEntity,
  messageOnly,
  noContent,
  profileUpdateAnswer,
  updateProfileBody,
  userPreferences,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords';
import { issueToken, revokeOtherTokens, revokeToken } from '../auth/tokens';
import type { UserRow } from '../db/schema';
import { nowIso } from '../db/values';
import { throttleAddress } from '../http/clientAddress';
import { stoppedOnPath } from '../hierarchy/branch';
import { fieldError, tooManyRequests, unavailable, validationError } from '../http/errors';
import { actorOf } from '../http/guard';
import { hit, releaseHit } from '../http/rateLimit';
import { pathIds } from '../http/scope';
import { readPreferences, updatePreferences } from '../preferences';
import { getSystemSettings } from '../settings';
import { toCurrentUser } from '../users';

// Sign-in throttling slows the guessing address and never refuses the right password from elsewhere:
// the refusing limits count per client address (an IPv6 client by its /64). See docs/security.md.
/** Failed sign-ins allowed per address and username in one window; then that pair is refused. */
export const LOGIN_LIMIT = { max: 5, windowMs: 60_000 };
/** Failed sign-ins allowed per address across all usernames in one window (password spraying). */
export const LOGIN_ADDRESS_LIMIT = { max: 20, windowMs: 15 * 60_000 };
/**
 * Failed sign-ins on one username from all addresses together after which every attempt on it waits
 * LOGIN_USER_DELAY_MS before its password is checked. A delay and never a refusal: a refusal would
 * let anyone with enough addresses lock the owner out.
 */
export const LOGIN_USER_SLOWDOWN = { max: 20, windowMs: 15 * 60_000 };
export const LOGIN_USER_DELAY_MS = 1_000;

/** The server of the caller's branch (its manager's), or null. */
const managerServerAnswer = dataOf(z.object({ id: z.number(), name: z.string(), status: z.string() }).nullable());

/** The caller's preferences: every field, defaults where none was chosen. */
const preferencesAnswer = dataOf(userPreferences);

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const isDemoUser = (username: string) => app.config.demoMode && (DEMO_USERNAMES as readonly string[]).includes(username);
  // The hash is checked even for a demo user or no user at all (a dummy), so every sign-in costs one
  // password check and its timing tells nothing about which usernames exist.
  void dummyHash();
  const passwordMatches = async (user: UserRow | undefined, password: string) => {
    const matches = await verifyPassword(user?.password_hash ?? (await dummyHash()), password);
    return user !== undefined && (isDemoUser(user.username) || matches);
  };

  app.post(
    '/login',
    { config: { public: true }, schema: { body: loginBody, response: { 200: loginResponseEntity, '4xx': apiErrorBody, 503: apiErrorBody }, tags: ['auth'] } },
    async (request) => {
      const { username, password } = request.body;
      const name = username.toLowerCase();
      const address = throttleAddress(request.ip);
      const pairKey = `login:${address}:${name}`;
      const addressKey = `login-address:${address}`;
      const userKey = `login-user:${name}`;
      const tooMany = (retryAfter: number) => tooManyRequests(AUTH.tooManyAttempts, retryAfter);

      // Every attempt counts before its password is checked (one atomic upsert per counter), so a
      // burst of parallel guesses cannot slip past a limit; a successful sign-in then takes back its
      // own counts and no one else's. An address over a limit is refused before its password is
      // checked, the right one included; other addresses are not.
      const pair = await hit(db, pairKey, LOGIN_LIMIT);
      if (pair.exceeded) throw tooMany(pair.retryAfter);
      const fromAddress = await hit(db, addressKey, LOGIN_ADDRESS_LIMIT);
      if (fromAddress.exceeded) throw tooMany(fromAddress.retryAfter);
      const onUser = await hit(db, userKey, LOGIN_USER_SLOWDOWN);
      // Whatever the password, so the wait tells nothing about it.
      if (onUser.exceeded) await sleep(LOGIN_USER_DELAY_MS);

      const user = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
      if (!(await passwordMatches(user, password)) || !user) throw fieldError('username', AUTH.invalidCredentials);
      await releaseHit(db, pairKey);
      await releaseHit(db, addressKey);
      await releaseHit(db, userKey);
      if (user.status !== 'active') throw fieldError('username', AUTH.accountDisabled);
      if ((await stoppedOnPath(db, user.id)).length > 0) throw fieldError('username', AUTH.branchSuspended);
      // During maintenance only administrators get a session: anyone else gets the 503 every other
      // call would answer them, told only after the right password, so it says nothing of the account.
      if (user.role !== 'admin' && (await getSystemSettings(db)).maintenance_mode) throw unavailable(ACCESS.maintenance);

      const token = await issueToken(db, user.id, app.config.tokenTtlHours);
      request.user = user;
      await recordAudit(db, request, { module: 'auth', action: 'login', entityId: user.id, targetUsername: user.username });
      return { token, user: toCurrentUser(user) };
    },
  );

  app.post(
    '/logout',
    { config: { access: ['profile', 'list'], duringMaintenance: true }, schema: { response: { 204: noContent, '4xx': apiErrorBody }, tags: ['auth'] } },
    async (request, reply) => {
      await revokeToken(db, request.tokenHash!);
      // No content: nothing for a response schema to shape.
      return (reply as FastifyReply).code(204).send();
    },
  );

  app.get(
    '/user',
    { config: { access: ['profile', 'list'], duringMaintenance: true }, schema: { response: { 200: currentUserEntity, '4xx': apiErrorBody }, tags: ['auth'] } },
    async (request) => toCurrentUser(actorOf(request)),
  );

  app.get(
    '/user/manager-server',
    { config: { access: ['profile', 'list'] }, schema: { response: { 200: managerServerAnswer, '4xx': apiErrorBody }, tags: ['auth'] } },
    async (request) => {
      const actor = actorOf(request);
      // The server of the manager the caller belongs to (its own, for a manager).
      const managerId = actor.role === 'manager' ? actor.id : pathIds(actor.path)[1];
      const manager = managerId
        ? await db.selectFrom('users').select(['server_id']).where('id', '=', managerId).where('role', '=', 'manager').executeTakeFirst()
        : undefined;
      const server = manager?.server_id
        ? await db.selectFrom('servers').select(['id', 'name', 'status']).where('id', '=', manager.server_id).executeTakeFirst()
        : undefined;
      return { data: server ?? null };
    },
  );

  app.post(
    '/change-password',
    { config: { access: ['profile', 'edit'] }, schema: { body: changePasswordBody, response: { 200: messageOnly, '4xx': apiErrorBody }, tags: ['auth'] } },
    async (request) => {
      const actor = actorOf(request);
      const { current_password, new_password } = request.body;
      if (!(await passwordMatches(actor, current_password))) {
        throw fieldError('current_password', PROFILE.currentPasswordWrong);
      }
      await db
        .updateTable('users')
        .set({ password_hash: await hashPassword(new_password), updated_at: nowIso() })
        .where('id', '=', actor.id)
        .execute();
      await revokeOtherTokens(db, actor.id, request.tokenHash!);
      await recordAudit(db, request, { module: 'auth', action: 'change_password', entityId: actor.id, targetUsername: actor.username });
      return { message: PROFILE.passwordChanged };
    },
  );

  app.put(
    '/update-profile',
    { config: { access: ['profile', 'edit'] }, schema: { body: updateProfileBody, response: { 200: profileUpdateAnswer, '4xx': apiErrorBody }, tags: ['auth'] } },
    async (request) => {
      const actor = actorOf(request);
      const { name, username, phone } = request.body;
      if (username !== undefined && username !== actor.username) throw validationError({ username: PROFILE.usernameLocked });
      const updated = await db.updateTable('users').set({ name, phone, updated_at: nowIso() }).where('id', '=', actor.id).returningAll().executeTakeFirstOrThrow();
      await recordAudit(db, request, {
        module: 'profile',
        action: 'update',
        entityId: actor.id,
        targetUsername: actor.username,
        oldValues: { name: actor.name, phone: actor.phone },
        newValues: { name, phone },
      });
      return { message: PROFILE.updated, user: toCurrentUser(updated) };
    },
  );

  // Always the caller's own preferences: the paths name no user.
  app.get(
    '/profile/preferences',
    { config: { access: ['profile', 'list'] }, schema: { response: { 200: preferencesAnswer, '4xx': apiErrorBody }, tags: ['auth'] } },
    async (request) => ({ data: await readPreferences(db, actorOf(request).id) }),
  );

  app.patch(
    '/profile/preferences',
    { config: { access: ['profile', 'edit'] }, schema: { body: preferencesPatch, response: { 200: preferencesAnswer, '4xx': apiErrorBody }, tags: ['auth'] } },
    async (request) => {
      const actor = actorOf(request);
      const { before, after } = await updatePreferences(db, actor.id, request.body);
      await recordAudit(db, request, {
        module: 'profile',
        action: 'update_preferences',
        entityId: actor.id,
        targetUsername: actor.username,
        oldValues: before,
        newValues: after,
      });
      return { data: after };
    },
  );
};

export default authRoutes;
