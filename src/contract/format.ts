/**
 * How counts and names read in every message: "1 credit", "2 credits", "Nina Newmanager (nina.mgr)".
 * Messages build such phrases through these helpers, never by concatenating "(s)" or brackets.
 */

/** Irregular plurals; every other word takes an "s". */
const IRREGULAR: Record<string, string> = { entry: 'entries', day: 'days', discount: 'discounts' };

/** The word alone, singular for exactly 1 (and -1). */
export function pluralWord(n: number, singular: string, pluralForm?: string): string {
  if (Math.abs(n) === 1) return singular;
  return pluralForm ?? IRREGULAR[singular] ?? `${singular}s`;
}

/**
 * "12,345": a number with its thousands grouped as in en-US. Written out rather than through
 * toLocaleString, whose first call loads the browser's number formatting (about 10 ms of the first
 * list's render).
 */
export function grouped(n: number): string {
  const [whole, fraction] = String(Math.abs(n)).split('.');
  return `${n < 0 ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** "1 credit", "0 credits", "3 accounts". */
export function plural(n: number, singular: string, pluralForm?: string): string {
  return `${n} ${pluralWord(n, singular, pluralForm)}`;
}

/** "Nina Newmanager (nina.mgr)"; the username alone when the name is empty or the same. */
export function nameWithUsername(name: string | null | undefined, username: string): string {
  const shown = name?.trim();
  return shown && shown !== username ? `${shown} (${username})` : username;
}
