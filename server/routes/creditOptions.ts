/** Credit option lookups for the Add Credits and Recover Credits dialogs (any role, own subtree). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CREDITS, allocationQuery, apiErrorBody, creditOptionsResponseEntity, dataOf, idParam, recoveryOptionsResponseEntity } from '../../src/contract';
import { allocationOptions, recoveryOptions } from '../credits/options';
import { fieldError } from '../http/errors';
import { actorOf } from '../http/guard';
import { findMember } from '../hierarchy/members';

const creditOptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const tags = ['credits'];

  app.get(
    '/credit-options/allocation',
    {
      config: { access: ['credit-options', 'list'] },
      schema: { querystring: allocationQuery, response: { 200: dataOf(creditOptionsResponseEntity), '4xx': apiErrorBody }, tags },
    },
    async (request) => {
      const actor = actorOf(request);
      const { user_id, server_id, role } = request.query;
      const recipient = user_id ? await findMember(db, actor, user_id, null) : null;
      return { data: await allocationOptions(db, actor, recipient, server_id ?? null, role ?? null) };
    },
  );

  app.get(
    '/credit-options/recovery/:id',
    { config: { access: ['credit-options', 'list'] }, schema: { params: idParam, response: { 200: dataOf(recoveryOptionsResponseEntity), '4xx': apiErrorBody }, tags } },
    async (request) => {
      const actor = actorOf(request);
      const target = await findMember(db, actor, request.params.id, null);
      if (actor.role !== 'admin' && target.parent_id !== actor.id) throw fieldError('recipient', CREDITS.recipient);
      return { data: await recoveryOptions(db, target) };
    },
  );
};

export default creditOptionRoutes;
