/**
 * The caller's sessions (list, end one, end all others), its sign-in history, and view-as: a parent
 * viewing the panel as a user of its subtree (docs/security.md#sessions, #view-as).
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SESSIONS,
  VIEW_AS,
  VIEW_AS_TTL_MINUTES,
  apiErrorBody,
  dataOf,
  endOthersAnswer,
  idParam,
  messageOnly,
  noContent,
  sessionRowEntity,
  LISTS,
  SIGN_IN_OUTCOMES,
  signInHistoryAnswer,
  viewAsAnswer,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { type SignInRow, endSession, listSessions, presentSignIn } from '../auth/signIns';
import { listQuerystring, listSpec, respondList } from '../http/list';
import { issueToken, revokeOtherTokens, revokeToken } from '../auth/tokens';
import { findMember } from '../hierarchy/members';
import { conflict, notFound } from '../http/errors';
import { actorOf } from '../http/guard';
import { settingsOf } from '../settings';
import { toCurrentUser } from '../users';

const tags = ['sessions'];

const historyList = listSpec(LISTS['sign-in-history'], {
  filters: { outcome: { column: 'e.outcome', type: 'enum', values: SIGN_IN_OUTCOMES } },
  sorts: { created_at: 'e.created_at', id: 'e.id' },
  idColumn: 'e.id',
  mainAlias: 'e',
});

const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;

  app.get(
    '/sessions',
    { config: { access: ['profile', 'list'] }, schema: { response: { 200: dataOf(z.array(sessionRowEntity)), '4xx': apiErrorBody }, tags } },
    async (request) => ({ data: await listSessions(db, actorOf(request).id, request.tokenId) }),
  );

  app.delete(
    '/sessions/:id',
    { config: { access: ['profile', 'edit'] }, schema: { params: idParam, response: { 204: noContent, '4xx': apiErrorBody }, tags } },
    async (request, reply) => {
      const actor = actorOf(request);
      // Another user's session, or none: 404, so session ids cannot be probed.
      if (!(await endSession(db, actor.id, request.params.id))) throw notFound();
      await recordAudit(db, request, { module: 'auth', action: 'end_session', entityId: request.params.id, targetUsername: actor.username });
      return (reply as FastifyReply).code(204).send();
    },
  );

  app.post(
    '/sessions/end-others',
    { config: { access: ['profile', 'edit'] }, schema: { response: { 200: endOthersAnswer, '4xx': apiErrorBody }, tags } },
    async (request) => {
      const actor = actorOf(request);
      const result = await revokeOtherTokens(db, actor.id, request.tokenHash!);
      const ended = result.reduce((n, r) => n + Number(r.numDeletedRows), 0);
      await recordAudit(db, request, { module: 'auth', action: 'end_other_sessions', entityId: actor.id, targetUsername: actor.username, newValues: { ended } });
      return { message: SESSIONS.endedOthers(ended), ended };
    },
  );

  app.get(
    '/sign-in-history',
    { config: { access: ['profile', 'list'] }, schema: { querystring: listQuerystring(historyList), response: { 200: signInHistoryAnswer, '4xx': apiErrorBody }, tags } },
    async (request, reply) =>
      respondList(
        request,
        reply,
        {
          base: db.selectFrom('sign_in_events as e').where('e.user_id', '=', actorOf(request).id),
          spec: historyList,
          select: (qb) => qb.select(['e.id', 'e.created_at', 'e.outcome', 'e.reason', 'e.ip_address', 'e.user_agent']),
          present: async (rows: SignInRow[]) => rows.map(presentSignIn),
        },
        (page) => page,
      ),
  );

  app.post(
    '/view-as/:id',
    { config: { access: ['view-as', 'create'] }, schema: { params: idParam, response: { 200: viewAsAnswer, '4xx': apiErrorBody }, tags: ['view-as'] } },
    async (request) => {
      const actor = actorOf(request);
      // Strictly below the caller, else 404 (itself included); a view-as session cannot start
      // another (the guard refuses it), so views never chain.
      const target = await findMember(db, actor, request.params.id, null);
      if (target.status !== 'active') throw conflict(VIEW_AS.inactive);
      const settings = await settingsOf(app, request);
      const mode = settings.view_as_can_act ? 'act' : 'read';
      const ends = Math.min(Date.now() + VIEW_AS_TTL_MINUTES * 60_000, Date.parse(request.sessionExpiresAt!));
      const token = await issueToken(db, target.id, app.config.tokenTtlHours, {
        ip: request.ip,
        userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
        viewer: { id: actor.id, tokenId: request.tokenId!, mode },
        expiresAt: new Date(ends),
      });
      await recordAudit(db, request, { module: 'auth', action: 'view_as_start', entityId: target.id, targetUsername: target.username, newValues: { mode } });
      const viewer = { id: actor.id, username: actor.username, name: actor.name, canAct: mode === 'act', expiresAt: new Date(ends).toISOString() };
      return { message: VIEW_AS.started(target.username), token, user: toCurrentUser(target, settings, viewer) };
    },
  );

  app.post(
    '/view-as/end',
    {
      config: { access: ['profile', 'edit'], duringViewAs: true, duringMaintenance: true },
      schema: { response: { 200: messageOnly, '4xx': apiErrorBody }, tags: ['view-as'] },
    },
    async (request) => {
      const viewer = request.viewer;
      if (!viewer) throw conflict(VIEW_AS.notViewing);
      const target = actorOf(request);
      await recordAudit(db, request, { module: 'auth', action: 'view_as_end', entityId: target.id, targetUsername: target.username });
      await revokeToken(db, request.tokenHash!);
      return { message: VIEW_AS.endedMessage };
    },
  );
};

export default sessionRoutes;
