/** The caller's own API tokens: list, create (the token shown once), revoke. A signed-in session only. */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_TOKENS, apiErrorBody, apiTokenEntity, createApiTokenBody, createdApiTokenEntity, dataOf, idParam, noContent } from '../../src/contract';
import { recordAudit } from '../audit';
import { createApiToken, listApiTokens, revokeApiToken } from '../auth/apiTokens';
import { actorOf } from '../http/guard';

const apiTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;

  app.get(
    '/api-tokens',
    { config: { access: ['api-tokens', 'list'] }, schema: { response: { 200: dataOf(z.array(apiTokenEntity)), '4xx': apiErrorBody }, tags: ['api-tokens'] } },
    async (request) => ({ data: await listApiTokens(db, actorOf(request).id) }),
  );

  app.post(
    '/api-tokens',
    {
      config: { access: ['api-tokens', 'create'] },
      schema: { body: createApiTokenBody, response: { 201: createdApiTokenEntity, '4xx': apiErrorBody }, tags: ['api-tokens'] },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { name, scopes, expires_in_days, allowed_addresses } = request.body;
      const { token, entry } = await createApiToken(db, actor.id, { name, scopes, expiresInDays: expires_in_days, allowedAddresses: allowed_addresses });
      await recordAudit(db, request, {
        module: 'api_tokens',
        action: 'create',
        entityId: entry.id,
        targetUsername: actor.username,
        newValues: { name: entry.name, prefix: entry.prefix, scopes: entry.scopes, expires_at: entry.expires_at, allowed_addresses: entry.allowed_addresses },
      });
      return (reply as FastifyReply).code(201).send({ message: API_TOKENS.created, token, data: entry });
    },
  );

  app.delete(
    '/api-tokens/:id',
    {
      config: { access: ['api-tokens', 'delete'] },
      schema: { params: idParam, response: { 204: noContent, '4xx': apiErrorBody }, tags: ['api-tokens'] },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const entry = await revokeApiToken(db, actor.id, request.params.id);
      await recordAudit(db, request, {
        module: 'api_tokens',
        action: 'revoke',
        entityId: entry.id,
        targetUsername: actor.username,
        oldValues: { name: entry.name, prefix: entry.prefix, scopes: entry.scopes },
      });
      return (reply as FastifyReply).code(204).send();
    },
  );
};

export default apiTokenRoutes;
