/**
 * Global discount lookups every role makes when renewing: the discounts
 * of the caller's server that apply now, those of a given server, and the price of a renewal.
 * The CRUD lives in its own module; these static paths win over '/global-discounts/:id'.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  HIERARCHY,
  MAX_RECORD_ID,
  type RenewalQuote,
  apiErrorBody,
  calculateCreditsBody,
  dataOf,
  globalDiscountEntity,
  idParam,
  namedRefEntity,
  renewalQuoteAnswerEntity,
} from '../../src/contract';
import { quoteRenewal, toGlobalDiscount, usableDiscounts } from '../accounts/pricing';
import { branchServerId } from '../hierarchy/branch';
import type { Database } from '../db/schema';
import { fieldError, notFound } from '../http/errors';
import { actorOf } from '../http/guard';
import { getSystemSettings } from '../settings';

const tags = ['global-discounts'];

/** The discounts a renewal on a server may use now (none while discounts are switched off). */
const discountsAnswer = z.object({
  data: z.array(globalDiscountEntity),
  /** The same list under its older name. */
  discounts: z.array(globalDiscountEntity),
  server: namedRefEntity.nullable(),
  enabled: z.boolean(),
});

/** Admin names the server; other keys pass, and a server_id that is no record id means none. */
const currentServerQuery = z
  .object({
    server_id: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe("Admin only: the server whose discounts to list (others get their branch's)."),
  })
  .loose();

async function discountsOf(db: Kysely<Database>, serverId: number | null) {
  const server = serverId !== null ? await db.selectFrom('servers').select(['id', 'name']).where('id', '=', serverId).executeTakeFirst() : undefined;
  const settings = await getSystemSettings(db);
  const rows =
    server && settings.global_discounts_enabled
      ? await usableDiscounts(db, server.id, new Date()).orderBy('validity_months').orderBy('credits_required').orderBy('id').execute()
      : [];
  const discounts = rows.map((row) => toGlobalDiscount({ ...row, server_name: server?.name ?? null }));
  return { data: discounts, discounts, server: server ?? null, enabled: settings.global_discounts_enabled };
}

const globalDiscountLookupRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;

  app.get(
    '/global-discounts/current-server',
    { config: { access: ['global-discounts', 'pick'] }, schema: { querystring: currentServerQuery, response: { 200: discountsAnswer, '4xx': apiErrorBody }, tags } },
    async (request) => {
      const actor = actorOf(request);
      // Admin belongs to no branch: it may name the server (?server_id=).
      const asked = Number((request.query as Record<string, unknown>).server_id);
      const serverId = actor.role === 'admin' ? (Number.isInteger(asked) && asked > 0 && asked <= MAX_RECORD_ID ? asked : null) : await branchServerId(db, actor);
      return discountsOf(db, serverId);
    },
  );

  app.get(
    '/global-discounts/server/:id',
    { config: { access: ['global-discounts', 'pick'] }, schema: { params: idParam, response: { 200: discountsAnswer, '4xx': apiErrorBody }, tags } },
    async (request) => {
      const result = await discountsOf(db, request.params.id);
      if (!result.server) throw notFound();
      return result;
    },
  );

  app.post(
    '/global-discounts/calculate-credits',
    {
      config: { access: ['global-discounts', 'pick'] },
      schema: { body: calculateCreditsBody, response: { 200: dataOf(renewalQuoteAnswerEntity), '4xx': apiErrorBody }, tags },
    },
    async (request) => {
      const actor = actorOf(request);
      const serverId = request.body.server_id ?? (await branchServerId(db, actor));
      if (serverId !== null && !(await db.selectFrom('servers').select('id').where('id', '=', serverId).executeTakeFirst())) {
        throw fieldError('server_id', HIERARCHY.serverInvalid);
      }
      const quote: RenewalQuote = await quoteRenewal(db, serverId, request.body.months, new Date());
      const admin = actor.role === 'admin';
      const balance = admin ? null : (await db.selectFrom('users').select('credits').where('id', '=', actor.id).executeTakeFirstOrThrow()).credits;
      return {
        data: {
          ...quote,
          // Admin renews without spending credits.
          payable_credits: admin ? 0 : quote.credits,
          user_credits: balance,
          sufficient: admin || (balance ?? 0) >= quote.credits,
        },
      };
    },
  );
};

export default globalDiscountLookupRoutes;
