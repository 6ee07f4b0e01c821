/** Session and profile: sign-in, sign-out, who am I, password and profile changes, the user's own preferences. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
  sessionEntity,
  TWO_FACTOR,
  type SignInReason,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorEnabledEntity,
  twoFactorLoginBody,
  twoFactorRequired,
  twoFactorSetupEntity,
  twoFactorStatusEntity,
  noContent,
  profileUpdateAnswer,
  updateProfileBody,
  userPreferences,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords';
import { type SignInFrom, recordSignIn } from '../auth/signIns';
import { issueToken, revokeOtherTokens, revokeToken, revokeViewerSession } from '../auth/tokens';
import { challengeUser, confirmSetup, consumeChallenge, issueChallenge, recoveryCodesLeft, removeSecondFactor, startSetup, useSecondFactor } from '../auth/twoFactor';
import type { UserRow } from '../db/schema';
import { DomainError } from '../errors';
import { nowIso } from '../db/values';
import { throttleAddress } from '../http/clientAddress';
import { stoppedOnPath } from '../hierarchy/branch';
import { conflict, fieldError, tooManyRequests, unavailable, validationError } from '../http/errors';
import { actorOf } from '../http/guard';
import { hit, releaseHit } from '../http/rateLimit';
import { pathIds } from '../http/scope';
import { readPreferences, updatePreferences } from '../preferences';
import { type SystemSettings, getSystemSettings, settingsOf } from '../settings';
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

  /**
   * Counts one sign-in attempt (a password, or a second factor) for the username from the request's
   * address, before it is checked; `release` takes the counts back once it proved right.
   */
  const countAttempt = async (request: FastifyRequest, username: string) => {
    const name = username.toLowerCase();
    const address = throttleAddress(request.ip);
    const keys = [`login:${address}:${name}`, `login-address:${address}`, `login-user:${name}`];
    const tooMany = (retryAfter: number) => tooManyRequests(AUTH.tooManyAttempts, retryAfter);
    // Every attempt counts before it is checked (one atomic upsert per counter), so a burst of
    // parallel guesses cannot slip past a limit; a success then takes back its own counts and no one
    // else's. An address over a limit is refused before its password is checked, the right one
    // included; other addresses are not.
    const pair = await hit(db, keys[0], LOGIN_LIMIT);
    if (pair.exceeded) throw tooMany(pair.retryAfter);
    const fromAddress = await hit(db, keys[1], LOGIN_ADDRESS_LIMIT);
    if (fromAddress.exceeded) throw tooMany(fromAddress.retryAfter);
    const onUser = await hit(db, keys[2], LOGIN_USER_SLOWDOWN);
    // Whatever the password, so the wait tells nothing about it.
    if (onUser.exceeded) await sleep(LOGIN_USER_DELAY_MS);
    return { release: () => Promise.all(keys.map((key) => releaseHit(db, key))) };
  };

  /** May this user have a session now? Checked after its password, and again after its code. */
  const admissible = async (user: UserRow) => {
    if (user.status !== 'active') throw fieldError('username', AUTH.accountDisabled);
    if ((await stoppedOnPath(db, user.id)).length > 0) throw fieldError('username', AUTH.branchSuspended);
    // During maintenance only administrators get a session: anyone else gets the 503 every other
    // call would answer them, told only after the right password, so it says nothing of the account.
    const settings = await getSystemSettings(db);
    if (user.role !== 'admin' && settings.maintenance_mode) throw unavailable(ACCESS.maintenance);
    return settings;
  };

  const fromOf = (request: FastifyRequest): SignInFrom => ({
    ip: request.ip ?? null,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
  });

  /**
   * The history's reason for a sign-in refused after its user was found; null: not recorded. Refusals
   * of the throttle (429) checked nothing and are not recorded, so a guesser refused at the door
   * cannot fill a user's history.
   */
  const failureReason = (error: unknown): SignInReason | null => {
    if (!(error instanceof DomainError)) return null;
    if (error.kind === 'unavailable') return 'maintenance';
    if (error.kind !== 'invalid') return null;
    if (error.errors?.code) return 'wrong_code';
    const username = error.errors?.username?.[0];
    if (username === AUTH.invalidCredentials) return 'wrong_password';
    if (username === AUTH.accountDisabled) return 'account_disabled';
    if (username === AUTH.branchSuspended) return 'branch_suspended';
    return null;
  };

  /** Records a failed sign-in of a known user in its history, then lets the error answer. */
  const recordFailure = async (request: FastifyRequest, user: UserRow | undefined, error: unknown) => {
    const reason = failureReason(error);
    if (user && reason) await recordSignIn(db, user.id, 'failure', reason, fromOf(request));
    return error;
  };

  const openSession = async (request: FastifyRequest, user: UserRow, settings: SystemSettings, via?: 'totp' | 'recovery') => {
    const from = fromOf(request);
    const token = await issueToken(db, user.id, app.config.tokenTtlHours, from);
    await recordSignIn(db, user.id, 'success', via ?? 'password', from);
    request.user = user;
    await recordAudit(db, request, {
      module: 'auth',
      action: 'login',
      entityId: user.id,
      targetUsername: user.username,
      newValues: via ? { second_factor: via } : undefined,
    });
    return { token, user: toCurrentUser(user, settings) };
  };

  app.post(
    '/login',
    { config: { public: true }, schema: { body: loginBody, response: { 200: loginResponseEntity, '4xx': apiErrorBody, 503: apiErrorBody }, tags: ['auth'] } },
    async (request) => {
      const { username, password } = request.body;
      const attempt = await countAttempt(request, username);
      const user = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
      try {
        if (!(await passwordMatches(user, password)) || !user) throw fieldError('username', AUTH.invalidCredentials);
        await attempt.release();
        const settings = await admissible(user);
        // A second factor: no session yet, only the challenge its code is sent with.
        if (user.two_factor_at) return { two_factor: await issueChallenge(db, user.id) };
        return await openSession(request, user, settings);
      } catch (error) {
        throw await recordFailure(request, user, error);
      }
    },
  );

  app.post(
    '/login/two-factor',
    {
      config: { public: true },
      schema: { body: twoFactorLoginBody, response: { 200: sessionEntity, '4xx': apiErrorBody, 503: apiErrorBody }, tags: ['auth', 'two-factor'] },
    },
    async (request) => {
      const { challenge, code } = request.body;
      const userId = await challengeUser(db, challenge);
      const user = userId === null ? undefined : await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
      if (!user?.two_factor_at) throw fieldError('challenge', TWO_FACTOR.challengeExpired);
      // Wrong codes count on the sign-in counters of the user, like wrong passwords.
      const attempt = await countAttempt(request, user.username);
      try {
        const via = await useSecondFactor(db, app.config, user.id, code);
        if (!via) throw fieldError('code', TWO_FACTOR.codeInvalid);
        await attempt.release();
        // One session per challenge, whatever races it.
        if (!(await consumeChallenge(db, challenge))) throw fieldError('challenge', TWO_FACTOR.challengeExpired);
        const settings = await admissible(user);
        return await openSession(request, user, settings, via);
      } catch (error) {
        throw await recordFailure(request, user, error);
      }
    },
  );

  app.post(
    '/logout',
    {
      config: { access: ['profile', 'list'], duringMaintenance: true, duringEnrolment: true, duringViewAs: true },
      schema: { response: { 204: noContent, '4xx': apiErrorBody }, tags: ['auth'] },
    },
    async (request, reply) => {
      // Signing out of a view-as session signs the parent out too: the person leaves.
      if (request.viewer) await revokeViewerSession(db, request.tokenId!);
      await revokeToken(db, request.tokenHash!);
      // No content: nothing for a response schema to shape.
      return (reply as FastifyReply).code(204).send();
    },
  );

  app.get(
    '/user',
    {
      config: { access: ['profile', 'list'], duringMaintenance: true, duringEnrolment: true },
      schema: { response: { 200: currentUserEntity, '4xx': apiErrorBody }, tags: ['auth'] },
    },
    async (request) => toCurrentUser(actorOf(request), await settingsOf(app, request), request.viewer),
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
      return { message: PROFILE.updated, user: toCurrentUser(updated, await settingsOf(app, request)) };
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

  app.get(
    '/profile/two-factor',
    {
      config: { access: ['profile', 'list'], duringEnrolment: true },
      schema: { response: { 200: dataOf(twoFactorStatusEntity), '4xx': apiErrorBody }, tags: ['auth', 'two-factor'] },
    },
    async (request) => {
      const actor = actorOf(request);
      return {
        data: {
          enabled: Boolean(actor.two_factor_at),
          required: twoFactorRequired(await settingsOf(app, request), actor.role),
          recovery_codes_left: actor.two_factor_at ? await recoveryCodesLeft(db, actor.id) : 0,
        },
      };
    },
  );

  app.post(
    '/profile/two-factor/setup',
    {
      config: { access: ['profile', 'edit'], duringEnrolment: true },
      schema: { response: { 200: dataOf(twoFactorSetupEntity), '4xx': apiErrorBody }, tags: ['auth', 'two-factor'] },
    },
    async (request) => ({ data: await startSetup(db, app.config, actorOf(request)) }),
  );

  app.post(
    '/profile/two-factor/enable',
    {
      config: { access: ['profile', 'edit'], duringEnrolment: true },
      schema: { body: twoFactorEnableBody, response: { 200: twoFactorEnabledEntity, '4xx': apiErrorBody }, tags: ['auth', 'two-factor'] },
    },
    async (request) => {
      const actor = actorOf(request);
      const recovery_codes = await confirmSetup(db, app.config, actor, request.body.code);
      await revokeOtherTokens(db, actor.id, request.tokenHash!);
      await recordAudit(db, request, { module: 'auth', action: 'enable_two_factor', entityId: actor.id, targetUsername: actor.username });
      return { message: TWO_FACTOR.enabled, recovery_codes };
    },
  );

  app.post(
    '/profile/two-factor/disable',
    {
      config: { access: ['profile', 'edit'] },
      schema: { body: twoFactorDisableBody, response: { 200: messageOnly, '4xx': apiErrorBody }, tags: ['auth', 'two-factor'] },
    },
    async (request) => {
      const actor = actorOf(request);
      if (!actor.two_factor_at) throw conflict(TWO_FACTOR.disabled);
      if (twoFactorRequired(await settingsOf(app, request), actor.role)) throw conflict(TWO_FACTOR.requiredCannotTurnOff);
      const { password, code } = request.body;
      // A stolen session guessing its way to turning the factor off is throttled like a sign-in.
      const attempt = await countAttempt(request, actor.username);
      const proved = password ? await passwordMatches(actor, password) : Boolean(code && (await useSecondFactor(db, app.config, actor.id, code)));
      if (!proved) throw password ? fieldError('password', PROFILE.currentPasswordWrong) : fieldError('code', TWO_FACTOR.codeInvalid);
      await attempt.release();
      await removeSecondFactor(db, actor.id);
      await revokeOtherTokens(db, actor.id, request.tokenHash!);
      await recordAudit(db, request, { module: 'auth', action: 'disable_two_factor', entityId: actor.id, targetUsername: actor.username });
      return { message: TWO_FACTOR.disabled };
    },
  );
};

export default authRoutes;
