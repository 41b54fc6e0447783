import { isIPv6 } from 'node:net';

/** The 16-bit groups of an IPv6 address, written out (an embedded IPv4 tail counts as two). */
function groupsOf(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const part = (text: string) =>
    text === ''
      ? []
      : text.split(':').flatMap((group) => {
          if (!group.includes('.')) return [group];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const first = part(head);
  const last = tail === undefined ? [] : part(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - first.length - last.length).fill('0');
  return [...first, ...zeros, ...last];
}

/**
 * The address that per-IP limits count (public rate limit, registrations, logins, refused
 * credentials): an IPv4 address as it is; an IPv6 address by its /64, the network one subscriber
 * is given, whose 2^64 addresses a client could otherwise rotate through to escape every per-IP
 * limit (and register for free credits again and again); an IPv4-mapped IPv6 address as its IPv4.
 */
export function limitedAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const address = ip.split('%')[0]!; // a zone (fe80::1%eth0) names an interface, not a network
  if (!isIPv6(address)) return ip;
  const network = groupsOf(address)
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16));
  return `${network.join(':')}::/64`;
}
