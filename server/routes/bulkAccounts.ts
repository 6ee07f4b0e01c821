/**
 * Bulk by filter (docs/domain.md#bulk-by-filter): POST /accounts/bulk/preview answers what an action
 * on a selection or on everything the accounts list's filter matches would do; POST
 * /accounts/bulk/{id}/apply applies that preview once (all or nothing up to the bulk limit, a job
 * above it); GET /accounts/bulk/{id} is its progress and GET /accounts/bulk/{id}/report its per-row
 * results as CSV.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BULK_FILTER,
  BULK_REPORT,
  type BulkJob,
  apiErrorBody,
  bulkFilterBody,
  bulkJobEntity,
  bulkPreviewEntity,
  dataOf,
  idParam,
  messageDataOf,
} from '../../src/contract';
import { applyDirect, assertApplicable, loadJob, previewBulk, reportBatches, startJob, toBulkJob } from '../accounts/bulk';
import { inTransaction } from '../db/transaction';
import { actorOf } from '../http/guard';
import { sendCsv } from '../http/list';
import { BulkJobRunner } from '../jobs/bulkAccounts';
import { rateLimitMiddlewareWrites, runCreditOperation } from './creditOperation';

const tags = ['accounts'];

const bulkAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const { provisioners } = app;
  const runner = BulkJobRunner.of(db);
  app.addHook('onClose', () => runner.stop());

  app.post(
    '/accounts/bulk/preview',
    { config: { access: ['accounts', 'status'] }, schema: { body: bulkFilterBody, response: { 200: dataOf(bulkPreviewEntity), '4xx': apiErrorBody }, tags } },
    async (request) => ({ data: await previewBulk(db, actorOf(request), request.body, request.ip ?? null) }),
  );

  app.post(
    '/accounts/bulk/:id/apply',
    {
      config: { access: ['accounts', 'status'] },
      schema: { params: idParam, response: { 200: messageDataOf(bulkJobEntity), 202: messageDataOf(bulkJobEntity), '4xx': apiErrorBody }, tags },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const job = await loadJob(db, actor.id, request.params.id);
      assertApplicable(job);
      if (job.mode === 'job') {
        // Freezing the set moves nothing; its chunks charge. Credit rules (branch, rate limit) apply to a renewal's start.
        const answer = async (started: BulkJob) => ({ status: 202, body: { message: BULK_FILTER.started(job.matched), data: started } });
        if (job.action === 'renew') {
          await runCreditOperation(app, request, reply, actor, async (trx) => answer(await startJob(trx, actor, job, new Date())));
        } else {
          if (job.action !== 'message') await rateLimitMiddlewareWrites(app, actor);
          const { status, body } = await answer(await inTransaction(db, (trx) => startJob(trx, actor, job, new Date())));
          (reply as FastifyReply).code(status).send(body);
        }
        runner.start(job.id);
        return reply;
      }
      if (job.action === 'renew') {
        const outcome = await provisioners.outcome('bulk_renew', actor.id, request);
        return runCreditOperation(app, request, reply, actor, {
          transact: (work) => outcome.transact(work),
          run: async (trx) => {
            const { job: done, applied } = await applyDirect(trx, request, actor, job, outcome.now);
            outcome.mirror(applied.changed);
            return { status: 200, body: { message: BULK_FILTER.done(applied.succeeded), data: done } };
          },
        });
      }
      if (job.action === 'message') {
        const { job: done, applied } = await inTransaction(db, (trx) => applyDirect(trx, request, actor, job, new Date()));
        return { message: BULK_FILTER.done(applied.succeeded), data: done };
      }
      await rateLimitMiddlewareWrites(app, actor);
      const outcome = await provisioners.outcome('bulk_status', actor.id);
      const { job: done, applied } = await outcome.transact(async (trx) => {
        const result = await applyDirect(trx, request, actor, job, outcome.now);
        outcome.mirror(result.applied.changed);
        return result;
      });
      return { message: BULK_FILTER.done(applied.succeeded), data: done };
    },
  );

  app.get(
    '/accounts/bulk/:id',
    { config: { access: ['accounts', 'list'] }, schema: { params: idParam, response: { 200: dataOf(bulkJobEntity), '4xx': apiErrorBody }, tags } },
    async (request) => ({ data: toBulkJob(await loadJob(db, actorOf(request).id, request.params.id)) }),
  );

  app.get(
    '/accounts/bulk/:id/report',
    {
      config: { access: ['accounts', 'list'] },
      schema: { params: idParam, response: { 200: z.string().describe('The per-row results as CSV (UTF-8 with a BOM).'), '4xx': apiErrorBody }, tags },
    },
    async (request, reply) => {
      const job = await loadJob(db, actorOf(request).id, request.params.id);
      return sendCsv(reply, { ...BULK_REPORT, filename: `${BULK_REPORT.filename}-${job.id}` }, reportBatches(db, job.id)) as never;
    },
  );
};

export default bulkAccountRoutes;
