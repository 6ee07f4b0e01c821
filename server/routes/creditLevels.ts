/**
 * Credit levels (admin allocations to managers): one GET and one PUT of the configuration, with the
 * preview of the levels it offers (contract creditLevels). Stored under settings key 'credit_levels'.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CREDIT_LEVELS_SETTING,
  type CreditLevelsConfig,
  apiErrorBody,
  creditLevels,
  creditLevelsAnswer,
  creditLevelsBody,
  creditLevelsConfigSchema,
  defaultCreditLevels,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { parseOrThrow } from '../http/validate';
import { getCreditLevels, patchSetting } from '../settings';

const answer = (config: CreditLevelsConfig) => ({ data: config, preview: creditLevels(config) });

const creditLevelRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;

  app.get(
    '/credit-levels',
    { config: { access: ['credit-levels', 'list'] }, schema: { response: { 200: creditLevelsAnswer, '4xx': apiErrorBody }, tags: ['credit-levels'] } },
    async () => answer(await getCreditLevels(db)),
  );

  app.put(
    '/credit-levels',
    {
      config: { access: ['credit-levels', 'edit'] },
      schema: { body: creditLevelsBody, response: { 200: creditLevelsAnswer, '4xx': apiErrorBody }, tags: ['credit-levels'] },
    },
    async (request) => {
      let before: CreditLevelsConfig | undefined;
      // Fields left out keep their stored value; the whole result must satisfy the rules.
      const next = await patchSetting<CreditLevelsConfig>(db, CREDIT_LEVELS_SETTING, defaultCreditLevels(), (current) => {
        before = current;
        return parseOrThrow(creditLevelsConfigSchema, { ...current, ...request.body });
      });
      await recordAudit(db, request, {
        module: 'credit_levels',
        action: 'update',
        description: 'Updated credit levels configuration',
        oldValues: before,
        newValues: next,
      });
      return answer(next);
    },
  );
};

export default creditLevelRoutes;
