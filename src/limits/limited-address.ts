import ipaddr from 'ipaddr.js';

/** An address as a proxy may write it in X-Forwarded-For: with a port (1.2.3.4:80, [2001:db8::1]:443). */
function withoutPort(ip: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(ip);
  if (bracketed) return bracketed[1]!;
  const ipv4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(ip);
  return ipv4WithPort ? ipv4WithPort[1]! : ip;
}

/**
 * The address that per-IP limits count (public rate limit, registrations, logins, refused
 * credentials): an IPv4 address as it is; an IPv6 address by its /64, the network one subscriber
 * is given, whose 2^64 addresses a client could otherwise rotate through to escape every per-IP
 * limit (and register for free credits again and again). An IPv6 address that carries an IPv4 host
 * (IPv4-mapped ::ffff:0:0/96, in any spelling, or NAT64's 64:ff9b::/96) counts as that IPv4 host;
 * a zone (fe80::1%eth0) names an interface, not a network, and a port is not part of the address.
 * Anything else (not an address) is counted as written.
 */
export function limitedAddress(ip: string): string {
  const address = withoutPort(ip.trim()).split('%')[0]!;
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address).toString();
  if (!ipaddr.IPv6.isValid(address)) return ip;
  const v6 = ipaddr.IPv6.parse(address);
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6052') {
    const [, , , , , , high, low] = v6.parts as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]).toString();
  }
  return `${v6.parts
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
