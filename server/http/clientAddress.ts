/** The address a per-address limit counts against. */
import net from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number);
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const zeros = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}

/**
 * An IPv4 address as it is (also when written IPv4-mapped, `::ffff:a.b.c.d`); an IPv6 address by its
 * /64, the smallest network a subscriber is given: whoever holds one address holds its 2^64
 * neighbours, so counting each alone would let one client spread its tries over endless counters.
 */
export function throttleAddress(ip: string): string {
  const bare = ip.split('%')[0]; // without an IPv6 zone id
  if (!net.isIPv6(bare)) return bare;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1];
  return `${ipv6Groups(bare)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
