/** Public endpoints: health for load balancers and what the panel needs before sign-in. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEMO_USERNAMES, type PublicConfig, type ThemeTokens, apiErrorBody, healthEntity, publicConfigEntity } from '../../src/contract';
import { parseJson } from '../db/values';
import { SYSTEM_SETTINGS_KEY, getSystemSettings } from '../settings';

const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { config: { public: true }, schema: { response: { 200: healthEntity, '4xx': apiErrorBody }, tags: ['system'] } }, async () => {
    // One row by its key: on SQLite such a read runs on the main connection when it is free, so the
    // answer does not queue behind long reads on the reader threads (server/db/sqliteReaders.ts).
    await app.db.kysely.selectFrom('settings').select('key').where('key', '=', SYSTEM_SETTINGS_KEY).execute();
    return { status: 'ok', database: app.db.dialect };
  });

  app.get(
    '/config',
    { config: { public: true }, schema: { response: { 200: publicConfigEntity, '4xx': apiErrorBody }, tags: ['system'] } },
    async (): Promise<PublicConfig> => {
      const settings = await getSystemSettings(app.db.kysely);
      const theme = await app.db.kysely
        .selectFrom('themes')
        .select(['name', 'slug', 'tokens'])
        .where('is_active', '=', 1)
        .orderBy('updated_at', 'desc')
        .executeTakeFirst();
      return {
        demo_mode: app.config.demoMode,
        demo_users: app.config.demoMode ? [...DEMO_USERNAMES] : [],
        maintenance_mode: settings.maintenance_mode,
        enable_trials: settings.enable_trials,
        trial_days: settings.trial_days,
        theme: theme ? { name: theme.name, slug: theme.slug, ...parseJson<Partial<ThemeTokens>>(theme.tokens, {}) } : null,
      };
    },
  );
};

export default systemRoutes;
