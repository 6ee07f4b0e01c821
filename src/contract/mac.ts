/** MAC addresses: exactly 12 hex digits in any common notation; stored bare, shown colon-separated uppercase. */
const SEPARATORS = /[\s:.-]/g;

/** Returns the 12 uppercase hex digits, or null when the input is not a MAC address. */
export function normalizeMac(input: string): string | null {
  const bare = input.replace(SEPARATORS, '').toUpperCase();
  return /^[0-9A-F]{12}$/.test(bare) ? bare : null;
}

export function formatMac(stored: string | null | undefined): string {
  const bare = stored ? normalizeMac(stored) : null;
  return bare ? bare.match(/.{2}/g)!.join(':') : (stored ?? '');
}
