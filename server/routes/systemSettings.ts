/**
 * System settings: GET the settings object, PUT one setting per call by its URL key with its
 * one body field. The key table and bounds live in the contract (SETTING_KEYS); every change is audited.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SETTING_KEYS, SYSTEM_SETTING_DEFAULTS, apiErrorBody, settingKeyParam, systemSettingBody, systemSettingsEntity } from '../../src/contract';
import { recordAudit } from '../audit';
import { parseOrThrow } from '../http/validate';
import { SYSTEM_SETTINGS_KEY, type SystemSettings, getSystemSettings, patchSetting } from '../settings';

const systemSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;

  app.get(
    '/system-settings',
    { config: { access: ['settings', 'list'] }, schema: { response: { 200: systemSettingsEntity, '4xx': apiErrorBody }, tags: ['settings'] } },
    async () => getSystemSettings(db),
  );

  app.put(
    '/system-settings/:key',
    { config: { access: ['settings', 'edit'] }, schema: { params: settingKeyParam, response: { 200: systemSettingsEntity, '4xx': apiErrorBody }, tags: ['settings'] } },
    async (request) => {
      const { key } = request.params;
      const { field } = SETTING_KEYS[key];
      const value = parseOrThrow(systemSettingBody(key), request.body ?? {})[field] as SystemSettings[typeof field];
      let previous: SystemSettings[typeof field] | undefined;
      const next = await patchSetting<SystemSettings>(db, SYSTEM_SETTINGS_KEY, { ...SYSTEM_SETTING_DEFAULTS }, (current) => {
        previous = current[field];
        return { ...current, [field]: value };
      });
      await recordAudit(db, request, {
        module: 'system_settings',
        action: 'update',
        description: `Updated setting ${key}`,
        oldValues: { [field]: previous },
        newValues: { [field]: value },
      });
      return next;
    },
  );
};

export default systemSettingsRoutes;
