/**
 * Credit options settings: the amounts offered in the Add Credits dialog to non-admin givers (and to
 * admin giving to resellers and dealers). GET/PUT, reset to the contract defaults, and a test that
 * shows what a giver holding N credits would be offered. Stored under settings key 'credit_options'.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CREDIT_OPTIONS_SETTING,
  type CreditOptionsSettings,
  type CreditOptionsTestResult,
  apiErrorBody,
  creditOptionsSettingsEntity,
  creditOptionsTestResultEntity,
  dataOf,
  creditOptionsSettingsBody,
  creditOptionsSettingsSchema,
  creditOptionsTestBody,
  defaultCreditOptionsSettings,
  generateCreditOptions,
} from '../../src/contract';
import { recordAudit } from '../audit';
import { parseOrThrow } from '../http/validate';
import { getCreditOptionsSettings, patchSetting } from '../settings';

const creditOptionsSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const tags = ['credit-options-settings'];
  const settingsAnswer = { response: { 200: dataOf(creditOptionsSettingsEntity), '4xx': apiErrorBody }, tags };

  app.get('/credit-options-settings', { config: { access: ['credit-options-settings', 'list'] }, schema: settingsAnswer }, async () => ({
    data: await getCreditOptionsSettings(db),
  }));

  app.put(
    '/credit-options-settings',
    { config: { access: ['credit-options-settings', 'edit'] }, schema: { body: creditOptionsSettingsBody, ...settingsAnswer } },
    async (request) => {
      let before: CreditOptionsSettings | undefined;
      // Fields left out keep their stored value; the whole result must satisfy the rules.
      const next = await patchSetting<CreditOptionsSettings>(db, CREDIT_OPTIONS_SETTING, defaultCreditOptionsSettings(), (current) => {
        before = current;
        return parseOrThrow(creditOptionsSettingsSchema, { ...current, ...request.body });
      });
      await recordAudit(db, request, {
        module: 'credit_options_settings',
        action: 'update',
        description: 'Updated credit options settings',
        oldValues: before,
        newValues: next,
      });
      return { data: next };
    },
  );

  app.post('/credit-options-settings/reset', { config: { access: ['credit-options-settings', 'edit'] }, schema: settingsAnswer }, async (request) => {
    let before: CreditOptionsSettings | undefined;
    const next = await patchSetting<CreditOptionsSettings>(db, CREDIT_OPTIONS_SETTING, defaultCreditOptionsSettings(), (current) => {
      before = current;
      return defaultCreditOptionsSettings();
    });
    await recordAudit(db, request, {
      module: 'credit_options_settings',
      action: 'reset',
      description: 'Reset credit options settings to the defaults',
      oldValues: before,
      newValues: next,
    });
    return { data: next };
  });

  app.post(
    '/credit-options-settings/test',
    {
      config: { access: ['credit-options-settings', 'list'] },
      schema: { body: creditOptionsTestBody, response: { 200: dataOf(creditOptionsTestResultEntity), '4xx': apiErrorBody }, tags },
    },
    async (request): Promise<{ data: CreditOptionsTestResult }> => {
      const { user_credits } = request.body;
      const options = generateCreditOptions(await getCreditOptionsSettings(db), user_credits);
      return { data: { options_count: options.length, user_credits, generated_options: options } };
    },
  );
};

export default creditOptionsSettingsRoutes;
