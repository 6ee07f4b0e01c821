/** Reseller-only user search (/user-search): the accounts of its subtree by login, name or MAC. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountEntity, apiErrorBody, paginatedOf } from '../../src/contract';
import { accountListSpec, accountsQuerystring, accountsRun } from '../accounts/list';
import { actorOf } from '../http/guard';
import { respondList } from '../http/list';

const userSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user-search',
    {
      config: { access: ['user-search', 'list'] },
      schema: { querystring: accountsQuerystring, response: { 200: paginatedOf(accountEntity), '4xx': apiErrorBody }, tags: ['accounts'] },
    },
    async (request, reply) =>
      respondList(request, reply, await accountsRun(app.db.kysely, actorOf(request), request.query as Record<string, unknown>, accountListSpec), (page) => page),
  );
};

export default userSearchRoutes;
