/** Reseller-only user search (/user-search): the accounts of its subtree by login, name or MAC. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountEntity, apiErrorBody, paginatedOf } from '../../src/contract';
import { accountListSpec, accountsQuerystring, listAccounts } from '../accounts/list';
import { actorOf } from '../http/guard';

const userSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user-search',
    {
      config: { access: ['user-search', 'list'] },
      schema: { querystring: accountsQuerystring, response: { 200: paginatedOf(accountEntity), '4xx': apiErrorBody }, tags: ['accounts'] },
    },
    async (request) => listAccounts(app.db.kysely, actorOf(request), request.query as Record<string, unknown>, accountListSpec),
  );
};

export default userSearchRoutes;
