/**
 * System settings calls (spec 7): GET /system-settings, and one PUT /system-settings/{key} per setting
 * carrying its one body field. Which key and field a setting uses comes from the contract's
 * SETTING_KEYS table, the same one the API validates with.
 */
import type { AxiosInstance } from 'axios';
import { SETTINGS, SETTING_KEYS, type SettingDef, type SettingKey, type SystemSettingField, type SystemSettingsValues } from '../contract';
import { http as defaultHttp } from './http';

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

export async function fetchSystemSettings(http: AxiosInstance = defaultHttp): Promise<SystemSettingsValues> {
  const { data } = await http.get<SystemSettingsValues | { data: SystemSettingsValues }>('system-settings');
  return 'data' in data && data.data && typeof data.data === 'object' ? data.data : (data as SystemSettingsValues);
}

/** Saves one setting; answers the whole settings object as the API stored it. */
export async function updateSystemSetting(
  name: string,
  value: number | boolean,
  http: AxiosInstance = defaultHttp,
): Promise<SystemSettingsValues> {
  const { path, field } = settingEndpoint(name);
  const { data } = await http.put<SystemSettingsValues | { data: SystemSettingsValues }>(path, { [field]: value });
  return data && 'data' in data && data.data && typeof data.data === 'object' ? data.data : (data as SystemSettingsValues);
}
