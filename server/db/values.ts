/** Conversions between API values and the portable column types (ISO text, 0/1 flags, JSON text). */
export const nowIso = (): string => new Date().toISOString();
export const flag = (value: boolean | undefined | null): number => (value ? 1 : 0);
export const bool = (value: number | boolean | null | undefined): boolean => value === true || value === 1;

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
