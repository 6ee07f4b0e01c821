/** Session and profile: sign-in, sign-out, who am I, password and profile changes. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH,
  DEMO_USERNAMES,
  PROFILE,
  changePasswordBody,
  loginBody,
  updateProfileBody,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { issueToken, revokeOtherTokens, revokeToken } from '../auth/tokens';
import type { UserRow } from '../db/schema';
import { nowIso } from '../db/values';
import { ApiError, fieldError, validationError } from '../http/errors';
import { actorOf } from '../http/guard';
import { hit, releaseHit } from '../http/rateLimit';
import { pathIds } from '../http/scope';
import { toCurrentUser } from '../users';

/** Failed sign-ins allowed per IP and username in one window. */
export const LOGIN_LIMIT = { max: 5, windowMs: 60_000 };

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const isDemoUser = (username: string) =>
    app.config.demoMode && (DEMO_USERNAMES as readonly string[]).includes(username);
  const passwordMatches = (user: UserRow, password: string) =>
    isDemoUser(user.username) ? Promise.resolve(true) : verifyPassword(user.password_hash, password);

  app.post(
    '/login',
    { config: { public: true }, schema: { body: loginBody, tags: ['auth'] } },
    async (request) => {
      const { username, password } = request.body;
      const limitKey = `login:${request.ip}:${username.toLowerCase()}`;
      const tooMany = (retryAfter: number) =>
        new ApiError(429, AUTH.tooManyAttempts, undefined, { 'retry-after': String(retryAfter) });

      // Every attempt counts before its password is checked, so a burst of parallel guesses cannot
      // slip past the limit; a successful sign-in then takes its count back.
      const attempt = await hit(db, limitKey, LOGIN_LIMIT);
      if (attempt.exceeded) throw tooMany(attempt.retryAfter);

      const user = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
      if (!user || !(await passwordMatches(user, password))) throw fieldError('username', AUTH.invalidCredentials);
      await releaseHit(db, limitKey);
      if (user.status !== 'active') throw fieldError('username', AUTH.accountDisabled);

      const token = await issueToken(db, user.id, app.config.tokenTtlHours);
      request.user = user;
      await recordAudit(db, request, { module: 'auth', action: 'login', entityId: user.id, targetUsername: user.username });
      return { token, user: toCurrentUser(user) };
    },
  );

  app.post(
    '/logout',
    { config: { access: ['profile', 'list'], duringMaintenance: true }, schema: { tags: ['auth'] } },
    async (request, reply) => {
      await revokeToken(db, request.tokenHash!);
      return reply.code(204).send();
    },
  );

  app.get(
    '/user',
    { config: { access: ['profile', 'list'], duringMaintenance: true }, schema: { tags: ['auth'] } },
    async (request) => toCurrentUser(actorOf(request)),
  );

  app.get('/user/manager-server', { config: { access: ['profile', 'list'] }, schema: { tags: ['auth'] } }, async (request) => {
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
  });

  app.post(
    '/change-password',
    { config: { access: ['profile', 'edit'] }, schema: { body: changePasswordBody, tags: ['auth'] } },
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
    { config: { access: ['profile', 'edit'] }, schema: { body: updateProfileBody, tags: ['auth'] } },
    async (request) => {
      const actor = actorOf(request);
      const { name, username, phone } = request.body;
      if (username !== undefined && username !== actor.username) throw validationError({ username: PROFILE.usernameLocked });
      const updated = await db
        .updateTable('users')
        .set({ name, phone, updated_at: nowIso() })
        .where('id', '=', actor.id)
        .returningAll()
        .executeTakeFirstOrThrow();
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
};

export default authRoutes;
