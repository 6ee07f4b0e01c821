/** Random credentials for the Auto-generate action of the reseller form. */
const FIRST = ['Alex', 'Sam', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie', 'Robin', 'Avery', 'Quinn', 'Drew'];
const LAST = ['Stone', 'Rivera', 'Brooks', 'Hayes', 'Foster', 'Reed', 'Ward', 'Cole', 'Bennett', 'Grant', 'Lane', 'Price'];
const PASSWORD_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

function randomInt(max: number): number {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.getRandomValues) {
    const buf = new Uint32Array(1);
    c.getRandomValues(buf);
    return buf[0] % max;
  }
  return Math.floor(Math.random() * max);
}

const pick = <T>(list: readonly T[]) => list[randomInt(list.length)];

export function randomPassword(length = 12): string {
  return Array.from({ length }, () => PASSWORD_CHARS[randomInt(PASSWORD_CHARS.length)]).join('');
}

/** A random display name, a username derived from it, and a 12-character password. */
export function randomIdentity(): { name: string; username: string; password: string } {
  const first = pick(FIRST);
  const last = pick(LAST);
  const suffix = String(1000 + randomInt(9000));
  return { name: `${first} ${last}`, username: `${first}.${last}${suffix}`.toLowerCase(), password: randomPassword() };
}
