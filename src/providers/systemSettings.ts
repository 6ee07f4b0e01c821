/**
 * System settings calls (docs/domain.md#system-settings) through the data provider: GET /system-settings, and one
 * PUT /system-settings/{key} per setting carrying its one body field. Which key and field a setting
 * uses comes from the contract's SETTING_KEYS table, the same one the API validates with.
 */
import { type HttpError, type OpenNotificationParams, useCustom, useCustomMutation } from '@refinedev/core';
import { useCallback } from 'react';
import { SETTINGS, SETTING_KEYS, type SettingDef, type SettingKey, type SystemSettingField, type SystemSettingsValues } from '../contract';

export interface SettingEndpoint {
  /** The URL key ('trial-days'). */
  key: SettingKey;
  /** The body field and settings field ('trial_days'). */
  field: SystemSettingField;
  /** The path under /api/v1. */
  path: string;
  def: SettingDef;
}

const ENDPOINTS = new Map<string, SettingEndpoint>();
for (const [key, def] of Object.entries(SETTING_KEYS) as Array<[SettingKey, SettingDef]>) {
  const endpoint: SettingEndpoint = { key, field: def.field, path: `system-settings/${key}`, def };
  ENDPOINTS.set(key, endpoint);
  ENDPOINTS.set(def.field, endpoint);
}

/** The endpoint of a setting named by its field ('trial_days') or URL key ('trial-days'). */
export function settingEndpoint(name: string): SettingEndpoint {
  const endpoint = ENDPOINTS.get(name);
  if (!endpoint) throw new Error(SETTINGS.unknownKey);
  return endpoint;
}

type SettingsAnswer = SystemSettingsValues | { data: SystemSettingsValues };

/** The settings object of an answer, bare or under `data`. */
const settingsOf = (body: SettingsAnswer): SystemSettingsValues =>
  body && 'data' in body && body.data && typeof body.data === 'object' ? body.data : (body as SystemSettingsValues);

/** GET /system-settings; `settings` is null until it has loaded (and after a failed load). */
export function useSystemSettings({ loadFailed }: { loadFailed?: OpenNotificationParams } = {}) {
  const { query, result } = useCustom<SettingsAnswer, HttpError>({
    url: 'system-settings',
    method: 'get',
    queryOptions: { retry: false },
    errorNotification: loadFailed ? () => loadFailed : false,
  });
  return { settings: query.isSuccess && result.data ? settingsOf(result.data) : null, query };
}

/**
 * Saves one setting (named by field or key); resolves with the whole settings object as the API
 * stored it. An unknown name is refused before any request.
 */
export function useSaveSystemSetting() {
  const { mutateAsync, mutation } = useCustomMutation<SettingsAnswer, HttpError>();
  const save = useCallback(
    async (name: string, value: number | boolean): Promise<SystemSettingsValues> => {
      const { path, field } = settingEndpoint(name);
      const { data } = await mutateAsync({ url: path, method: 'put', values: { [field]: value }, successNotification: false, errorNotification: false });
      return settingsOf(data);
    },
    [mutateAsync],
  );
  return { save, saving: mutation.isPending };
}
