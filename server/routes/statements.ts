/**
 * A user's credit statement for a range of days (docs/domain.md#statements): its own, or one of a
 * user in its subtree (404 otherwise). JSON, or CSV through the lists' export machinery with
 * `Accept: text/csv`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { STATEMENT_EXPORT, apiErrorBody, dataOf, idParam, statementEntity, statementQuery } from '../../src/contract';
import { actorOf } from '../http/guard';
import { sendCsv, wantsCsv } from '../http/list';
import { statementLines, statementOf, statementUser } from '../ledger/statement';

const statementRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  app.get(
    '/statements/:id',
    {
      config: { access: ['transactions', 'list'] },
      schema: { params: idParam, querystring: statementQuery, response: { 200: dataOf(statementEntity), '4xx': apiErrorBody }, tags: ['transactions'] },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      void reply.header('vary', 'Accept');
      if (!wantsCsv(request.headers.accept)) return { data: await statementOf(db, actor, request.params.id, request.query) };
      const user = await statementUser(db, actor, request.params.id);
      const csv = { ...STATEMENT_EXPORT, filename: `statement-${user.username}-${request.query.date_from}-${request.query.date_to}` };
      return sendCsv(reply, csv, statementLines(db, user.id, request.query, app.config.exportBatchRows)) as never;
    },
  );
};

export default statementRoutes;
